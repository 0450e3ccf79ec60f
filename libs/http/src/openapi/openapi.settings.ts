import { UrlSetting } from '@app/core';
import { IsOptional } from 'class-validator';

const PublicUrl = () => UrlSetting(['http', 'https'], 'https://pets.example/v1');

/**
 * The public base addresses each app's OpenAPI document publishes in `servers`, when the apps are reached
 * through other addresses than their own ports (a proxy, a host name). Unset, the documents follow the
 * ports the apps listen on (`publicAddresses`), so that Swagger UI and generated clients reach them.
 */
export class OpenApiSettings {
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
}

/** The base addresses the documents publish, each configured or derived from the apps' ports. */
export type PublicAddresses = Required<OpenApiSettings>;

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
