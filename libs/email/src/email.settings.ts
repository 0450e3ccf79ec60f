import { AppEnv, CrossFieldRules, IntegerSetting, UrlSetting } from '@app/core';
import { IsIn, IsInt, Matches, Max, Min, ValidateIf } from 'class-validator';

/** `Name <address>`, or a bare address: what `EMAIL_FROM` takes. */
const FROM = /^(?:[^<>\r\n]+ )?<[^<>@\s]+@[^<>@\s]+>$|^[^<>@\s]+@[^<>@\s]+$/;

/** How the worker sends notifications and retries them. */
export class EmailDeliverySettings implements CrossFieldRules {
  /** Read here only for what production requires (`violations`); CoreSettings checks its value. */
  APP_ENV: string = AppEnv.Development;

  /** `log` writes each email as one log line (development); `smtp` sends it to `SMTP_URL`. */
  @ValidateIf((settings: EmailDeliverySettings) => settings.EMAIL_TRANSPORT !== undefined)
  @IsIn(['smtp', 'log'], { message: 'EMAIL_TRANSPORT must be smtp or log' })
  EMAIL_TRANSPORT?: 'smtp' | 'log';

  @ValidateIf(
    (settings: EmailDeliverySettings) => settings.EMAIL_TRANSPORT === 'smtp' || settings.SMTP_URL !== undefined,
  )
  @UrlSetting(['smtp', 'smtps'], 'smtp://user:pass@mail.example:587')
  SMTP_URL?: string;

  @Matches(FROM, { message: 'EMAIL_FROM must be "Name <address>" or an address, such as Pets <pets@mail.example>' })
  EMAIL_FROM = 'Pet Adoption <no-reply@localhost>';

  /** The first retry's delay after a refusal or a connection failure; each further one doubles it. */
  @IntegerSetting()
  @IsInt()
  @Min(10)
  @Max(60_000)
  EMAIL_BACKOFF_MS = 30_000;

  /** How long one SMTP exchange may take; a claimed email a killed worker left is sent again twice as late. */
  @IntegerSetting()
  @IsInt()
  @Min(500)
  @Max(600_000)
  EMAIL_SEND_TIMEOUT_MS = 60_000;

  /** The transport in force: `log` unless set, which production refuses (`violations`). */
  get transport(): 'smtp' | 'log' {
    return this.EMAIL_TRANSPORT ?? 'log';
  }

  /** In production an email written to a log line reaches no one. */
  violations(): string[] {
    if (this.APP_ENV !== AppEnv.Production || this.EMAIL_TRANSPORT === 'smtp') return [];
    return [
      `EMAIL_TRANSPORT is ${this.EMAIL_TRANSPORT === undefined ? 'not set' : 'log'}: in production set ` +
        'EMAIL_TRANSPORT=smtp and SMTP_URL, such as smtp://user:pass@mail.example:587, so that emails reach people',
    ];
  }
}

/** The key of the unsubscribe links, which the api checks and the worker signs. */
export class EmailSettings {
  /** Read here only to know whether the development key may stand in; CoreSettings checks its value. */
  APP_ENV: string = AppEnv.Development;

  /**
   * Base64 of 32 bytes: the HMAC key of the unsubscribe links. Required outside development, where a fixed
   * development key stands in when it is unset.
   */
  @ValidateIf(
    (settings: EmailSettings) =>
      settings.APP_ENV !== AppEnv.Development || settings.EMAIL_UNSUBSCRIBE_KEY !== undefined,
  )
  @Matches(/^[A-Za-z0-9+/]{43}=$/, {
    message: 'must be the base64 of 32 bytes (`openssl rand -base64 32`), and is required unless APP_ENV=development',
  })
  EMAIL_UNSUBSCRIBE_KEY?: string;
}
