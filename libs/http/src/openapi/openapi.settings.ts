import { IsUrl } from 'class-validator';

/**
 * The base addresses each app's OpenAPI document publishes in `servers`. Staging's defaults are another
 * host name of the loopback (RFC 6761), so that the two entries differ and both work from a local browser.
 */
export class OpenApiSettings {
  @IsUrl({ require_tld: false })
  PUBLIC_BASE_URL_PRODUCTION = 'http://localhost:3000/v1';

  @IsUrl({ require_tld: false })
  PUBLIC_BASE_URL_STAGING = 'http://staging.localhost:3000/v1';

  @IsUrl({ require_tld: false })
  PUBLIC_MESSAGES_URL = 'http://localhost:3001';

  @IsUrl({ require_tld: false })
  PUBLIC_MESSAGES_URL_STAGING = 'http://staging.localhost:3001';
}
