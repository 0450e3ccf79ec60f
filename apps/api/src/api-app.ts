import { carriesPublishableKey } from '@app/accounts';
import { HttpAppOptions, serveOpenApi } from '@app/http';
import { WIDGET_ROUTE } from '@app/widget';
import { QUEUE_DASHBOARD_ROUTE } from './queue-dashboard.module';
import { apiDocument } from './service-document';

/** How the api app is served, shared by `main.ts`, the OpenAPI export and the e2e tests. */
export const API_APP_OPTIONS: HttpAppOptions = {
  name: 'api',
  globalPrefix: 'v1',
  unprefixedRoutes: [`${QUEUE_DASHBOARD_ROUTE.slice(1)}{/*path}`, WIDGET_ROUTE],
  // Publishable keys are used from shelters' websites: the guard serves only the origins each key allows.
  crossOriginReads: carriesPublishableKey,
  // The UI also offers the messages app's document, which that app serves to this origin (CORS).
  documentation: (app, addresses) =>
    serveOpenApi(app, apiDocument(app, addresses), [
      { name: 'Messages', url: `${addresses.PUBLIC_MESSAGES_URL}/docs/openapi.json` },
    ]),
};
