import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiApp } from './support/api-app';
import type { TestHttpApp } from './support/http-app';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Resolves a `$ref` inside the document. */
const resolve = (doc: Doc, node: Doc): Doc =>
  node.$ref
    ? node.$ref
        .split('/')
        .slice(1)
        .reduce((at: Doc, part: string) => at[part], doc)
    : node;

describe('the OpenAPI document (served at /docs/openapi.json, committed as openapi.json)', () => {
  let app: TestHttpApp;
  let doc: Doc;

  beforeAll(async () => {
    app = await createApiApp();
    doc = (await app.http.get('/docs/openapi.json').expect(200)).body;
  });
  afterAll(() => app.close());

  it('carries version 1.0.0, production and staging servers, and bearer security', () => {
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers.map((server: Doc) => server.description)).toEqual(['Production', 'Staging']);
    for (const server of doc.servers) expect(server.url).toMatch(/\/v1$/);
    expect(Object.values(doc.components.securitySchemes)).toContainEqual(
      // The keys are opaque, not the JWT that Swagger's default announces.
      expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'API key' }),
    );
  });

  it('names the spec’s operations, with getPet deprecated', () => {
    expect(doc.paths['/pets'].get.operationId).toBe('listPets');
    expect(doc.paths['/pets'].post.operationId).toBe('createPet');
    expect(doc.paths['/pets/{petId}'].get.operationId).toBe('getPet');
    expect(doc.paths['/pets/{petId}'].get.deprecated).toBe(true);
    expect(doc.paths['/pets'].get.deprecated).toBeFalsy();
  });

  it('documents listPets’ parameters with their bounds, default and the PetStatus enum', () => {
    const params = Object.fromEntries(doc.paths['/pets'].get.parameters.map((p: Doc) => [p.name, p]));
    expect(params.limit).toMatchObject({
      in: 'query',
      required: false,
      schema: { minimum: 1, maximum: 100, default: 20 },
    });
    expect(resolve(doc, params.status.schema).enum).toEqual(['available', 'pending', 'sold']);
    expect(params.cursor).toMatchObject({ in: 'query', required: false });
  });

  it('documents NewPet with its required fields and the status default', () => {
    const newPet = resolve(doc, doc.paths['/pets'].post.requestBody.content['application/json'].schema);
    expect(newPet.required).toEqual(expect.arrayContaining(['name', 'categoryId']));
    expect(newPet.required).not.toContain('status');
    expect(newPet.properties.categoryId).toMatchObject({ type: 'integer', format: 'int64' });
    expect(newPet.properties.status).toMatchObject({
      default: 'available',
      allOf: [{ $ref: '#/components/schemas/PetStatus' }],
    });
    expect(doc.components.schemas.PetStatus.enum).toEqual(['available', 'pending', 'sold']);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Pet', 'NewPet', 'Error']));
  });

  it('documents the Error body on every operation and the rate-limit headers on every response', () => {
    for (const [path, operations] of Object.entries<Doc>(doc.paths)) {
      for (const [method, operation] of Object.entries<Doc>(operations)) {
        const statuses = Object.keys(operation.responses);
        expect(statuses).toEqual(expect.arrayContaining(['429', '500']));
        const error = resolve(doc, operation.responses['429'].content['application/json'].schema);
        expect(error.required).toEqual(expect.arrayContaining(['code', 'message', 'status']));
        for (const response of Object.values<Doc>(operation.responses)) {
          expect(`${method} ${path} ${Object.keys(response.headers ?? {})}`).toContain('X-RateLimit-Remaining');
        }
      }
    }
  });

  it('documents getPet’s 404 and the path parameter as int64', () => {
    const getPet = doc.paths['/pets/{petId}'].get;
    expect(Object.keys(getPet.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(getPet.parameters[0]).toMatchObject({
      name: 'petId',
      in: 'path',
      required: true,
      schema: { format: 'int64' },
    });
  });

  it('serves Swagger UI at /docs', async () => {
    const page = await app.http.get('/docs').expect(200);
    expect(page.text).toContain('swagger-ui');
  });

  it('is the committed openapi.json (regenerate with `npm run openapi`)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'));
    expect(doc).toEqual(committed);
  });

  it('covers the message-sending operation with its own servers entry and the Message schema', () => {
    const sendMessage = doc.paths['/messages'].post;
    expect(sendMessage.operationId).toBe('sendMessage');
    expect(sendMessage.servers).toEqual([expect.objectContaining({ url: 'http://localhost:3001' })]);
    expect(Object.keys(sendMessage.responses)).toEqual(expect.arrayContaining(['202', '400', '401']));
    const body = resolve(doc, sendMessage.requestBody.content['application/json'].schema);
    expect(body.required).toEqual(['message']);
    const message = resolve(doc, sendMessage.responses['202'].content['application/json'].schema);
    expect(Object.keys(message.properties)).toEqual(expect.arrayContaining(['id', 'message', 'status', 'createdAt']));
  });

  it('documents Idempotency-Key on the creating operations', () => {
    for (const operation of [doc.paths['/pets'].post, doc.paths['/keys'].post, doc.paths['/messages'].post]) {
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
      );
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['409', '422']));
    }
  });
});
