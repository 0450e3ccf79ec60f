import { AppEnv } from '@app/core';
import { Matches, ValidateIf } from 'class-validator';

/** The key webhook secrets are sealed under, read with `settingsModule(WebhookSecretsSettings)`. */
export class WebhookSecretsSettings {
  /** Read here only to know whether the development key may stand in; CoreSettings checks its value. */
  APP_ENV: string = AppEnv.Development;

  /**
   * Base64 of 32 bytes: the AES-256-GCM key that endpoints' signing secrets are stored under. Required
   * outside development, where a fixed development key stands in when it is unset.
   */
  @ValidateIf(
    (settings: WebhookSecretsSettings) =>
      settings.APP_ENV !== AppEnv.Development || settings.WEBHOOK_SECRETS_KEY !== undefined,
  )
  @Matches(/^[A-Za-z0-9+/]{43}=$/, {
    message: 'must be the base64 of 32 bytes (`openssl rand -base64 32`), and is required unless APP_ENV=development',
  })
  WEBHOOK_SECRETS_KEY?: string;
}
