import { HttpAppOptions, serveOpenApi } from '@app/http';
import { QUEUE_DASHBOARD_ROUTE } from './queue-dashboard.module';
import { serviceDocument } from './service-document';

/** How the api app is served, shared by `main.ts`, the OpenAPI export and the e2e tests. */
export const API_APP_OPTIONS: HttpAppOptions = {
  name: 'api',
  globalPrefix: 'v1',
  unprefixedRoutes: [`${QUEUE_DASHBOARD_ROUTE.slice(1)}{/*path}`],
  documentation: async (app, env) => serveOpenApi(app, await serviceDocument(app, env)),
};
