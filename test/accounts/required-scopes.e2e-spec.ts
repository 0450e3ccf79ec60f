import { REQUIRED_SCOPE, ScopeRequirement } from '@app/accounts';
import { IS_PUBLIC } from '@app/http';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { createApiApp } from '../support/api-app';
import type { TestHttpApp } from '../support/http-app';
import { createMessagesApp } from '../support/messages';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The scope each operation needs; `publishable` marks the public reads. */
const REQUIRED_SCOPES: Record<string, { scope: string; publishable?: true }> = {
  listPets: { scope: 'pets:read', publishable: true },
  getPet: { scope: 'pets:read', publishable: true },
  listCategories: { scope: 'pets:read', publishable: true },
  listOrganizations: { scope: 'pets:read', publishable: true },
  getOrganization: { scope: 'pets:read', publishable: true },
  listPetPhotos: { scope: 'pets:read', publishable: true },
  getPetPhoto: { scope: 'pets:read', publishable: true },
  getInventory: { scope: 'pets:read' },
  createPet: { scope: 'pets:write' },
  updatePet: { scope: 'pets:write' },
  deletePet: { scope: 'pets:write' },
  putPetByExternalId: { scope: 'pets:write' },
  uploadPetPhoto: { scope: 'pets:write' },
  updatePetPhoto: { scope: 'pets:write' },
  deletePetPhoto: { scope: 'pets:write' },
  listOrders: { scope: 'orders:read' },
  getOrderById: { scope: 'orders:read' },
  placeOrder: { scope: 'orders:write' },
  approveOrder: { scope: 'orders:write' },
  deliverOrder: { scope: 'orders:write' },
  cancelOrder: { scope: 'orders:write' },
  returnOrder: { scope: 'orders:write' },
  listEvents: { scope: 'events:read' },
  getEvent: { scope: 'events:read' },
  listWebhookEndpoints: { scope: 'webhooks:read' },
  getWebhookEndpoint: { scope: 'webhooks:read' },
  listWebhookDeliveries: { scope: 'webhooks:read' },
  createWebhookEndpoint: { scope: 'webhooks:write' },
  updateWebhookEndpoint: { scope: 'webhooks:write' },
  deleteWebhookEndpoint: { scope: 'webhooks:write' },
  // The endpoint operations the service adds to the contract's (secret rotation, redelivery, a test event).
  rotateWebhookEndpointSecret: { scope: 'webhooks:write' },
  redeliverWebhookEvent: { scope: 'webhooks:write' },
  testWebhookEndpoint: { scope: 'webhooks:write' },
  listMessages: { scope: 'messages:read' },
  getMessage: { scope: 'messages:read' },
  sendMessage: { scope: 'messages:write' },
  getOwnOrganization: { scope: 'organization:read' },
  putOrganization: { scope: 'organization:write' },
  updateOrganization: { scope: 'organization:write' },
  deleteOrganization: { scope: 'organization:write' },
  listKeys: { scope: 'keys:read' },
  createKey: { scope: 'keys:write' },
  revokeKey: { scope: 'keys:write' },
  getAccount: { scope: 'account:read' },
  // Saved searches.
  createSavedSearch: { scope: 'searches:write' },
  listSavedSearches: { scope: 'searches:read' },
  getSavedSearch: { scope: 'searches:read' },
  updateSavedSearch: { scope: 'searches:write' },
  deleteSavedSearch: { scope: 'searches:write' },
  // Adoption applications.
  putApplicationForm: { scope: 'applications:write' },
  getApplicationForm: { scope: 'applications:read' },
  getPetApplicationForm: { scope: 'pets:read', publishable: true },
  submitApplication: { scope: 'applications:write' },
  listApplications: { scope: 'applications:read' },
  getApplication: { scope: 'applications:read' },
  reviewApplication: { scope: 'applications:write' },
  approveApplication: { scope: 'applications:write' },
  declineApplication: { scope: 'applications:write' },
  withdrawApplication: { scope: 'applications:write' },
  sendApplicationMessage: { scope: 'applications:write' },
  listApplicationMessages: { scope: 'applications:read' },
  proposeMeeting: { scope: 'applications:write' },
  listMeetings: { scope: 'applications:read' },
  acceptMeeting: { scope: 'applications:write' },
  declineMeeting: { scope: 'applications:write' },
  cancelMeeting: { scope: 'applications:write' },
};

/** Every route handler of an app, as `Controller.method`, with what it declares. */
function routesOf(app: TestHttpApp): Array<{ route: string; isPublic: boolean; required?: ScopeRequirement }> {
  const reflector = app.app.get(Reflector);
  const routes = [];
  for (const module of app.app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const targets = [handler, metatype];
        routes.push({
          route: `${metatype.name}.${name}`,
          isPublic: reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true,
          required: reflector.getAllAndOverride<ScopeRequirement>(REQUIRED_SCOPE, targets),
        });
      }
    }
  }
  return routes;
}

describe('every route declares its scope, or is public', () => {
  let api: TestHttpApp;
  let messages: TestHttpApp;

  beforeAll(async () => {
    [api, messages] = await Promise.all([createApiApp(), createMessagesApp()]);
  });
  afterAll(async () => {
    await api.close();
    await messages.close();
  });

  it('finds no route of either app without @RequiredScope or @Public()', () => {
    for (const app of [api, messages]) {
      const routes = routesOf(app);
      expect(routes.length).toBeGreaterThan(5);
      expect(routes.filter((route) => !route.isPublic && !route.required).map((route) => route.route)).toEqual([]);
      // A public route serves no key, so a scope on it would promise a check that never runs.
      expect(routes.filter((route) => route.isPublic && route.required).map((route) => route.route)).toEqual([]);
    }
  });

  it('shows the scope of every keyed operation in the documents, as docs/keys.md names it', async () => {
    for (const app of [api, messages]) {
      const doc: Doc = (await app.http.get('/docs/openapi.json').expect(200)).body;
      for (const [path, item] of Object.entries<Doc>(doc.paths)) {
        for (const [method, operation] of Object.entries<Doc>(item)) {
          const name = `${method} ${path} (${operation.operationId})`;
          if (operation.security?.length === 0) {
            expect([name, operation['x-required-scope']]).toEqual([name, undefined]);
            continue;
          }
          const expected = REQUIRED_SCOPES[operation.operationId];
          expect([name, operation['x-required-scope']]).toEqual([name, expected?.scope]);
          expect([name, operation['x-publishable-key'] ?? false]).toEqual([name, expected?.publishable ?? false]);
          expect(operation.description).toContain(`Required scope: \`${expected?.scope}\``);
          expect(Object.keys(operation.responses)).toContain('403');
        }
      }
    }
  });
});
