import { AppEnv } from '@app/core';
import { HttpSettings, OpenApiSettings, publicAddresses } from '@app/http';
import { Injectable } from '@nestjs/common';
import { EmailDeliverySettings } from './email.settings';

/** The unsubscribe link's path under the api's public base URL (which ends in `/v1`). */
export const UNSUBSCRIBE_ROUTE = 'unsubscribe';

/**
 * The addresses an email names: its unsubscribe link, under the environment's public base URL of the api
 * (`PUBLIC_BASE_URL_STAGING` in staging, `PUBLIC_BASE_URL_PRODUCTION` elsewhere, `localhost` at `PORT`
 * when unset), and its Message-ID's domain, the sender's.
 */
@Injectable()
export class EmailAddresses {
  private readonly base: string;
  readonly messageIdDomain: string;

  constructor(settings: EmailDeliverySettings, http: HttpSettings, openApi: OpenApiSettings) {
    const addresses = publicAddresses(openApi, http);
    const api =
      settings.APP_ENV === AppEnv.Staging ? addresses.PUBLIC_BASE_URL_STAGING : addresses.PUBLIC_BASE_URL_PRODUCTION;
    this.base = api.replace(/\/+$/, '');
    this.messageIdDomain = /@([^>\s]+)>?$/.exec(settings.EMAIL_FROM)![1]!;
  }

  unsubscribeUrl(token: string): string {
    return `${this.base}/${UNSUBSCRIBE_ROUTE}/${token}`;
  }
}
