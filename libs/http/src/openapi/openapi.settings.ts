import { AppEnv, CrossFieldRules, UrlSetting } from '@app/core';
import { IsOptional } from 'class-validator';

const PublicUrl = () => UrlSetting(['http', 'https'], 'https://pets.example/v1');

/**
 * The public base addresses each app's OpenAPI document publishes in `servers`, when the apps are reached
 * through other addresses than their own ports (a proxy, a host name). Unset, the documents follow the
 * ports the apps listen on (`publicAddresses`), so that Swagger UI and generated clients reach them.
 */
export class OpenApiSettings implements CrossFieldRules {
  /** Read here only for what production requires (`violations`); CoreSettings checks its value. */
  APP_ENV: string = AppEnv.Development;

  @IsOptional()
  @PublicUrl()
  PUBLIC_BASE_URL_PRODUCTION?: string;

  @IsOptional()
  @PublicUrl()
  PUBLIC_BASE_URL_STAGING?: string;

  @IsOptional()
  @PublicUrl()
  PUBLIC_MESSAGES_URL?: string;

  @IsOptional()
  @PublicUrl()
  PUBLIC_MESSAGES_URL_STAGING?: string;

  /**
   * In production the loopback defaults would publish addresses no client reaches: the documents' servers,
   * the messages app's CORS origins, and the photos' default base.
   */
  violations(): string[] {
    if (this.APP_ENV !== AppEnv.Production) return [];
    return Object.entries(REQUIRED_IN_PRODUCTION)
      .filter(([name]) => this[name as keyof typeof REQUIRED_IN_PRODUCTION] === undefined)
      .map(([name, address]) => `${name} is not set: in production set it to ${address}`);
  }
}

/** The public addresses production must set, and what each is. */
const REQUIRED_IN_PRODUCTION = {
  PUBLIC_BASE_URL_PRODUCTION: 'the api’s public address, such as https://pets.example/v1',
  PUBLIC_MESSAGES_URL: 'the messages app’s public address, such as https://messages.pets.example',
};

/** The base addresses the documents publish, each configured or derived from the apps' ports. */
export type PublicAddresses = Required<Omit<OpenApiSettings, 'APP_ENV' | 'violations'>>;

/**
 * Each address as configured, else on the loopback at the app's port: `localhost` for production and
 * `staging.localhost` (RFC 6761, another name of the loopback) for staging, so that the two entries differ
 * and both work from a local browser.
 */
export function publicAddresses(
  configured: OpenApiSettings,
  ports: { PORT: number; MESSAGES_PORT: number },
): PublicAddresses {
  return {
    PUBLIC_BASE_URL_PRODUCTION: configured.PUBLIC_BASE_URL_PRODUCTION ?? `http://localhost:${ports.PORT}/v1`,
    PUBLIC_BASE_URL_STAGING: configured.PUBLIC_BASE_URL_STAGING ?? `http://staging.localhost:${ports.PORT}/v1`,
    PUBLIC_MESSAGES_URL: configured.PUBLIC_MESSAGES_URL ?? `http://localhost:${ports.MESSAGES_PORT}`,
    PUBLIC_MESSAGES_URL_STAGING:
      configured.PUBLIC_MESSAGES_URL_STAGING ?? `http://staging.localhost:${ports.MESSAGES_PORT}`,
  };
}
