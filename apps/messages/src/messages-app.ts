import { createOpenApiDocument, HttpAppOptions, serveOpenApi } from '@app/http';
import { MESSAGES_API_TAG, withMessagesServer } from '@app/messaging';

/** How the messages app is served, shared by `main.ts` and the e2e tests. */
export const MESSAGES_APP_OPTIONS: HttpAppOptions = {
  name: 'messages',
  documentation: (app, env) =>
    serveOpenApi(app, withMessagesServer(createOpenApiDocument(app, env, [MESSAGES_API_TAG]), env)),
};
