import { HttpAppOptions, serveOpenApi } from '@app/http';
import { messagesDocument } from '@app/messaging';

/** How the messages app is served, shared by `main.ts` and the e2e tests. */
export const MESSAGES_APP_OPTIONS: HttpAppOptions = {
  name: 'messages',
  documentation: (app, addresses) => serveOpenApi(app, messagesDocument(app, addresses)),
  // The api's Swagger UI shows this app's document and tries its operations from the api's origins.
  corsOrigins: (addresses) =>
    [addresses.PUBLIC_BASE_URL_PRODUCTION, addresses.PUBLIC_BASE_URL_STAGING].map((url) => new URL(url).origin),
};
