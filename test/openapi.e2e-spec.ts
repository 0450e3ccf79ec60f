import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiApp } from './support/api-app';
import type { TestHttpApp } from './support/http-app';
import { createMessagesApp } from './support/messages';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Resolves a `$ref` inside the document. */
const resolve = (doc: Doc, node: Doc): Doc =>
  node.$ref
    ? node.$ref
        .split('/')
        .slice(1)
        .reduce((at: Doc, part: string) => at[part.replace(/~1/g, '/')], doc)
    : node;

const committed = (file: string): Doc => JSON.parse(readFileSync(join(__dirname, '..', file), 'utf8'));

/** Every operation of a document with its method and path. */
function operations(doc: Doc): Array<[string, Doc]> {
  return Object.entries<Doc>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Doc>(item).map(([method, operation]): [string, Doc] => [`${method} ${path}`, operation]),
  );
}

describe('the OpenAPI documents: one per base address', () => {
  let api: TestHttpApp;
  let messages: TestHttpApp;
  let apiDoc: Doc;
  let messagesDoc: Doc;

  beforeAll(async () => {
    [api, messages] = await Promise.all([createApiApp(), createMessagesApp()]);
    apiDoc = (await api.http.get('/docs/openapi.json').expect(200)).body;
    messagesDoc = (await messages.http.get('/docs/openapi.json').expect(200)).body;
  });
  afterAll(async () => {
    await api.close();
    await messages.close();
  });

  it('are the committed openapi.json and openapi.messages.json (regenerate with `npm run openapi`)', () => {
    expect(apiDoc).toEqual(committed('openapi.json'));
    expect(messagesDoc).toEqual(committed('openapi.messages.json'));
  });

  it('give each app its own distinct production and staging servers', () => {
    for (const doc of [apiDoc, messagesDoc]) {
      expect(doc.info.version).toBe('1.0.0');
      expect(doc.servers.map((server: Doc) => server.description)).toEqual(['Production', 'Staging']);
      expect(new Set(doc.servers.map((server: Doc) => server.url)).size).toBe(2);
    }
    for (const server of apiDoc.servers) expect(server.url).toMatch(/\/v1$/);
    expect(messagesDoc.servers[0].url).toBe('http://localhost:3001');
  });

  it('keep each app’s operations and tags in its own document', () => {
    expect(apiDoc.tags.map((tag: Doc) => tag.name)).toEqual([
      'pets',
      'organizations',
      'saved-searches',
      'store',
      'applications',
      'accounts',
      'keys',
      'events',
      'webhooks',
    ]);
    expect(Object.keys(apiDoc.paths).filter((path) => path.startsWith('/messages'))).toEqual([]);
    expect(messagesDoc.tags.map((tag: Doc) => tag.name)).toEqual(['messages']);
    expect(Object.keys(messagesDoc.paths)).toEqual(['/messages', '/messages/{id}']);
    for (const doc of [apiDoc, messagesDoc]) {
      const used = new Set(operations(doc).flatMap(([, operation]) => operation.tags));
      expect([...used].sort()).toEqual(doc.tags.map((tag: Doc) => tag.name).sort());
    }
  });

  it('publish the addresses the apps were started on (PORT, MESSAGES_PORT), unless public ones are configured', async () => {
    const ports = { PORT: '4555', MESSAGES_PORT: '4556' };
    const started = await Promise.all([
      createApiApp({ env: ports }),
      createMessagesApp({ env: ports }),
      createApiApp({ env: { ...ports, PUBLIC_BASE_URL_PRODUCTION: 'https://pets.example/v1' } }),
    ]);
    try {
      const [apiOnPorts, messagesOnPorts, apiBehindProxy] = await Promise.all(
        started.map(async (app) => (await app.http.get('/docs/openapi.json').expect(200)).body as Doc),
      );
      expect(apiOnPorts!.servers.map((server: Doc) => server.url)).toEqual([
        'http://localhost:4555/v1',
        'http://staging.localhost:4555/v1',
      ]);
      expect(messagesOnPorts!.servers.map((server: Doc) => server.url)).toEqual([
        'http://localhost:4556',
        'http://staging.localhost:4556',
      ]);
      expect(apiBehindProxy!.servers[0].url).toBe('https://pets.example/v1');
      // The api's Swagger UI offers the messages document from the messages app's port.
      const init = (await started[0]!.http.get('/docs/swagger-ui-init.js').expect(200)).text;
      expect(init).toContain('http://localhost:4556/docs/openapi.json');
    } finally {
      await Promise.all(started.map((app) => app.close()));
    }
  });

  it('name the spec’s operations, with getPet deprecated and no operation naming servers of its own', () => {
    expect(apiDoc.paths['/pets'].get.operationId).toBe('listPets');
    expect(apiDoc.paths['/pets'].post.operationId).toBe('createPet');
    expect(apiDoc.paths['/pets/{petId}'].get).toMatchObject({ operationId: 'getPet', deprecated: true });
    const sendMessage = messagesDoc.paths['/messages'].post;
    expect(sendMessage.operationId).toBe('sendMessage');
    // A tool told another base address (a test run, a proxy) would still send such an operation there.
    for (const [name, operation] of [...operations(apiDoc), ...operations(messagesDoc)])
      expect({ name, servers: operation.servers }).toEqual({ name, servers: undefined });
    const body = resolve(messagesDoc, sendMessage.requestBody.content['application/json'].schema);
    expect(body.required).toEqual(['message']);
  });

  it('describes every operation and every parameter', () => {
    for (const [name, operation] of [...operations(apiDoc), ...operations(messagesDoc)]) {
      expect(`${name}: ${operation.summary} / ${operation.description}`).not.toContain('undefined');
      for (const param of operation.parameters ?? [])
        expect(`${name} ${param.name}: ${param.description}`).not.toContain('undefined');
    }
  });

  it('documents listPets’ parameters with their bounds, default and the PetStatus enum', () => {
    const params = Object.fromEntries(apiDoc.paths['/pets'].get.parameters.map((p: Doc) => [p.name, p]));
    expect(params.limit).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    // One PetStatus, or several separated by commas.
    expect(params.status).toMatchObject({ in: 'query', style: 'form', explode: false, schema: { type: 'array' } });
    expect(resolve(apiDoc, params.status.schema.items).enum).toEqual(['available', 'pending', 'sold']);
    for (const param of Object.values<Doc>(params)) expect(param.description).toBeTruthy();
    expect(params.cursor).toMatchObject({ in: 'query', required: false });
  });

  it('documents NewPet with its required fields, and its status default in words', () => {
    const newPet = resolve(apiDoc, apiDoc.paths['/pets'].post.requestBody.content['application/json'].schema);
    expect(newPet.required).toEqual(['name', 'categoryId']);
    expect(newPet.properties.categoryId).toMatchObject({ type: 'integer', format: 'int64' });
    // Said in words: a schema's `default` makes openapi-typescript require the field.
    expect(newPet.properties.status).not.toHaveProperty('default');
    expect(newPet.properties.status.description).toContain('`available` when omitted');
  });

  it('types whole numbers as integers', () => {
    expect(apiDoc.components.schemas.Error.properties.status.type).toBe('integer');
    const limits = apiDoc.components.schemas.RateLimits.properties;
    expect([limits.perMinute.type, limits.perDay.type]).toEqual(['integer', 'integer']);
    // Only what is fractional stays a number.
    const numbers: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (!node || typeof node !== 'object') return;
      if ((node as Doc).type === 'number') numbers.push(path);
      for (const [key, value] of Object.entries(node)) walk(value, `${path}/${key}`);
    };
    walk(apiDoc, '');
    walk(messagesDoc, '');
    const radiusOf = (path: string) =>
      `/paths/${path}/get/parameters/${apiDoc.paths[path].get.parameters.findIndex((p: Doc) => p.name === 'radiusKm')}/schema`;
    expect(numbers.sort()).toEqual([
      '/components/schemas/ApplicationAnswer/properties/value/oneOf/1',
      '/components/schemas/Organization/properties/distanceKm',
      '/components/schemas/OrganizationChange/properties/location/properties/latitude',
      '/components/schemas/OrganizationChange/properties/location/properties/longitude',
      '/components/schemas/Pet/properties/distanceKm',
      '/components/schemas/PetChange/properties/location/properties/latitude',
      '/components/schemas/PetChange/properties/location/properties/longitude',
      '/components/schemas/PetLocation/properties/latitude',
      '/components/schemas/PetLocation/properties/longitude',
      radiusOf('/organizations'),
      radiusOf('/pets'),
    ]);
  });

  it('marks sign-up as the one operation without a key, and lets POST /v1/keys go without a body', () => {
    const unsecured = operations(apiDoc).filter(([, operation]) => operation.security?.length === 0);
    expect(unsecured.map(([name]) => name)).toEqual(['post /accounts']);
    for (const [, operation] of [...operations(apiDoc), ...operations(messagesDoc)].filter(
      ([name]) => name !== 'post /accounts',
    ))
      expect(operation.security).toEqual([{ bearer: [] }]);
    expect(apiDoc.paths['/keys'].post.requestBody.required).toBe(false);
  });

  it('lists, per error status, exactly the codes it can carry, with one example each', () => {
    for (const doc of [apiDoc, messagesDoc]) {
      for (const [name, operation] of operations(doc)) {
        for (const [status, response] of Object.entries<Doc>(operation.responses)) {
          expect(`${name} ${status}: ${response.description}`).toMatch(/: \S/);
          if (Number(status) < 400) continue;
          const content = response.content['application/json'];
          const codes: string[] = content.schema.allOf[1].properties.code.enum;
          expect(Object.keys(content.examples)).toEqual(codes);
          for (const code of codes) {
            expect(content.examples[code].value).toMatchObject({ code, status: Number(status) });
            expect(response.description).toContain(`\`${code}\``);
          }
        }
      }
    }
    const codesOf = (operation: Doc, status: number) =>
      operation.responses[status].content['application/json'].schema.allOf[1].properties.code.enum;
    expect(codesOf(apiDoc.paths['/pets'].post, 409).sort()).toEqual(['external_id_taken', 'idempotency_key_in_use']);
    expect(codesOf(apiDoc.paths['/accounts'].post, 409)).toEqual(['email_taken']);
    expect(codesOf(apiDoc.paths['/keys'].post, 409).sort()).toEqual(['idempotency_key_in_use', 'key_already_issued']);
    expect(codesOf(apiDoc.paths['/webhook-endpoints'].post, 409).sort()).toEqual([
      'idempotency_key_in_use',
      'too_many_webhook_endpoints',
      'webhook_endpoint_already_created',
    ]);
    expect(codesOf(apiDoc.paths['/saved-searches'].post, 409).sort()).toEqual([
      'idempotency_key_in_use',
      'too_many_saved_searches',
    ]);
    expect(codesOf(apiDoc.paths['/pets/{petId}/applications'].post, 409).sort()).toEqual([
      'application_exists',
      'idempotency_key_in_use',
      'pet_not_available',
      'too_many_open_applications',
    ]);
    expect(codesOf(apiDoc.paths['/applications/{applicationId}/approve'].post, 409).sort()).toEqual([
      'idempotency_key_in_use',
      'invalid_application_state',
      'pet_not_available',
    ]);
    expect(codesOf(apiDoc.paths['/pets'].post, 400)).toEqual(
      expect.arrayContaining(['validation_failed', 'invalid_json', 'unsupported_content_type']),
    );
    // A GET or DELETE is never refused for its content type, but a malformed JSON body is refused.
    for (const operation of [
      apiDoc.paths['/account'].get,
      apiDoc.paths['/keys/{keyId}'].delete,
      messagesDoc.paths['/messages/{id}'].get,
    ]) {
      expect(codesOf(operation, 400)).toContain('invalid_json');
      expect(codesOf(operation, 400)).not.toContain('unsupported_content_type');
    }
  });

  it('documents every header the service sends, where it sends it', () => {
    const headersOf = (operation: Doc, status: number) => Object.keys(operation.responses[status].headers ?? {});
    const standard = [
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit-Policy',
      'RateLimit',
    ];
    for (const doc of [apiDoc, messagesDoc]) {
      for (const [, operation] of operations(doc)) {
        for (const status of Object.keys(operation.responses).filter((status) => status !== '431'))
          expect(headersOf(operation, Number(status))).toEqual(expect.arrayContaining(standard));
        // Answered by the HTTP server itself, before any of the application's headers.
        expect(headersOf(operation, 431)).toEqual([]);
        if (operation.security.length > 0) expect(headersOf(operation, 401)).toContain('WWW-Authenticate');
        expect(headersOf(operation, 429)).toContain('Retry-After');
        expect(headersOf(operation, 503)).toContain('Retry-After');
      }
    }
    const createPet = apiDoc.paths['/pets'].post;
    expect(headersOf(createPet, 409)).toContain('Retry-After');
    expect(headersOf(createPet, 201)).toEqual(expect.arrayContaining(['Location', 'Idempotent-Replayed']));
    expect(headersOf(messagesDoc.paths['/messages'].post, 202)).toEqual(
      expect.arrayContaining(['Location', 'Idempotent-Replayed']),
    );
    // The secret of a key or of a webhook endpoint is never replayed.
    expect(headersOf(apiDoc.paths['/keys'].post, 201)).not.toContain('Idempotent-Replayed');
    const createWebhookEndpoint = headersOf(apiDoc.paths['/webhook-endpoints'].post, 201);
    expect(createWebhookEndpoint).toContain('Location');
    expect(createWebhookEndpoint).not.toContain('Idempotent-Replayed');
    for (const path of ['/events', '/webhook-endpoints/{endpointId}/deliveries'])
      expect(headersOf(apiDoc.paths[path].get, 200)).toContain('Link');
    expect(headersOf(apiDoc.paths['/pets'].get, 200)).toContain('Link');
    const getPet = apiDoc.paths['/pets/{petId}'].get;
    for (const status of ['200', '304', '400', '401', '404', '410'])
      expect(headersOf(getPet, Number(status))).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
    const pet = apiDoc.paths['/pets/{petId}'];
    for (const [operation, status] of [
      [createPet, 201],
      [getPet, 200],
      [getPet, 304],
      [pet.patch, 200],
    ])
      expect(headersOf(operation, status)).toContain('ETag');
    expect(headersOf(apiDoc.paths['/store/orders'].post, 201)).toEqual(
      expect.arrayContaining(['Location', 'Idempotent-Replayed']),
    );
    expect(headersOf(apiDoc.paths['/store/orders'].get, 200)).toContain('Link');
    for (const name of Object.keys(apiDoc.components.headers))
      expect(apiDoc.components.headers[name].description).toBeTruthy();
  });

  it('documents the record’s conditional requests and the store’s refusals by code', () => {
    const codesOf = (operation: Doc, status: number) =>
      operation.responses[status].content['application/json'].schema.allOf[1].properties.code.enum;
    const headerParams = (operation: Doc) =>
      operation.parameters.filter((p: Doc) => p.in === 'header').map((p: Doc) => p.name);
    const pet = apiDoc.paths['/pets/{petId}'];
    expect(headerParams(pet.get)).toEqual(['If-None-Match']);
    expect(headerParams(pet.patch)).toEqual(['If-Match']);
    expect(headerParams(pet.delete)).toEqual(['If-Match']);
    expect(pet.get.responses['304'].content).toBeUndefined();
    expect(Object.keys(pet.patch.requestBody.content)).toEqual(['application/json', 'application/merge-patch+json']);
    const external = apiDoc.paths['/pets/external/{externalId}'].put;
    expect(external.operationId).toBe('putPetByExternalId');
    expect(headerParams(external)).toEqual(['If-Match']);
    expect(Object.keys(external.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '409', '412']));
    for (const operation of [pet.patch, pet.delete, external]) {
      expect(codesOf(operation, 412)).toEqual(['precondition_failed']);
    }
    expect(codesOf(pet.patch, 403)).toEqual(['forbidden', 'insufficient_scope']);
    expect(codesOf(pet.delete, 403)).toEqual(['forbidden', 'insufficient_scope']);
    expect(codesOf(external, 403)).toEqual(['insufficient_scope']);
    expect(codesOf(pet.patch, 409)).toEqual(['pet_has_open_order', 'external_id_taken']);
    expect(codesOf(pet.delete, 409)).toEqual(['pet_has_open_order']);
    expect(codesOf(external, 409)).toEqual(['pet_has_open_order']);
    const organization = apiDoc.paths['/organization'];
    expect(
      [organization.put, organization.patch, organization.get, organization.delete].map((op: Doc) => op.operationId),
    ).toEqual(['putOrganization', 'updateOrganization', 'getOwnOrganization', 'deleteOrganization']);
    expect(apiDoc.paths['/organizations'].get.operationId).toBe('listOrganizations');
    expect(apiDoc.paths['/organizations/{organizationId}'].get.operationId).toBe('getOrganization');
    expect(codesOf(organization.patch, 412)).toEqual(['precondition_failed']);
    const store = (path: string) => apiDoc.paths[`/store/orders${path}`].post;
    expect(codesOf(store(''), 403)).toEqual(['forbidden', 'insufficient_scope']);
    expect(codesOf(store(''), 409).sort()).toEqual([
      'idempotency_key_in_use',
      'pet_not_available',
      'too_many_open_orders',
    ]);
    for (const transition of ['approve', 'deliver', 'cancel', 'return']) {
      const operation = store(`/{orderId}/${transition}`);
      expect(codesOf(operation, 409).sort()).toEqual(['idempotency_key_in_use', 'invalid_order_state']);
      expect(codesOf(operation, 404)).toEqual(['not_found']);
      // Either party may cancel; the rest are the lister's alone. Any key may lack the scope.
      if (transition === 'cancel') expect(codesOf(operation, 403)).toEqual(['insufficient_scope']);
      else
        expect(operation.responses['403'].content['application/json'].examples.forbidden.value.message).toContain(
          transition,
        );
    }
    // A nullable reference is written out in place (OpenAPI 3.0 ignores `nullable` beside `allOf`), `null` listed.
    expect(apiDoc.components.schemas.PetChange.properties.sex).toMatchObject({ type: 'string', nullable: true });
    expect(apiDoc.components.schemas.PetChange.properties.sex.enum).toContain(null);
    expect(apiDoc.components.schemas.PetChange.properties.location).not.toHaveProperty('allOf');
  });

  it('close every JSON request body, whose fields have no schema default that generators would make required', () => {
    for (const doc of [apiDoc, messagesDoc]) {
      for (const [name, operation] of operations(doc)) {
        // A photo's multipart form may carry small fields beside its file (they are ignored); images are bytes.
        const jsonBodies = Object.entries<Doc>(operation.requestBody?.content ?? {}).filter(([type]) =>
          type.endsWith('json'),
        );
        for (const [, content] of jsonBodies) {
          const schema = resolve(doc, content.schema);
          expect([name, schema.additionalProperties]).toEqual([name, false]);
          for (const [field, property] of Object.entries<Doc>(schema.properties))
            expect([name, field, property.default]).toEqual([name, field, undefined]);
        }
      }
    }
  });

  it('let a merge patch leave out any member of a nested object, which merges into the current one', () => {
    const patched = operations(apiDoc).filter(
      ([, operation]) => operation.requestBody?.content['application/merge-patch+json'],
    );
    expect(patched.map(([name]) => name)).toEqual(['patch /pets/{petId}', 'patch /organization']);
    for (const [name, operation] of patched) {
      const schema = resolve(apiDoc, operation.requestBody.content['application/merge-patch+json'].schema);
      for (const [field, property] of Object.entries<Doc>(schema.properties))
        expect([name, field, property.required]).toEqual([name, field, undefined]);
    }
    const address = resolve(apiDoc, apiDoc.paths['/organization'].patch.requestBody.content['application/json'].schema)
      .properties.address;
    expect(address.properties.line2.nullable).toBe(true);
    expect(address.properties.line1.nullable).toBeUndefined();
    expect(address.description).toContain('must have `line1`, `city`, `country`');
    // The whole profile keeps its required members.
    expect(apiDoc.components.schemas.OrganizationAddress.required).toEqual(['line1', 'city', 'country']);
  });
  it('serves Swagger UI on both apps, remembering the key across reloads; the api’s offers the messages document', async () => {
    for (const app of [api, messages]) {
      expect((await app.http.get('/docs').expect(200)).text).toContain('swagger-ui');
      const init = (await app.http.get('/docs/swagger-ui-init.js').expect(200)).text;
      expect(init).toContain('"persistAuthorization": true');
    }
    const init = (await api.http.get('/docs/swagger-ui-init.js').expect(200)).text;
    expect(init).toContain('http://localhost:3001/docs/openapi.json');
  });
});
