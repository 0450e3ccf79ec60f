import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AccountsService } from '@app/accounts';
import { EmailSettings } from '@app/email';
import fc from 'fast-check';
import { UnsubscribeTokens } from '../../libs/email/src/unsubscribe-tokens';
import { createPet, signUp, TestAccount } from '../support/factories';
import {
  closeHostileApp,
  expectNoServerError,
  fuzz,
  hostileText,
  percentEncoded,
  startHostileApp,
  withHostileCharacter,
} from '../support/hostile';
import type { TestHttpApp } from '../support/http-app';
import { createAccount, createMessagesApp } from '../support/messages';
import { placeOrder } from '../support/orders';
import { tinyJpeg } from '../support/photos';

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  enum?: unknown[];
  example?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
};
interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
  example?: unknown;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Document {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** One place of one operation where text goes: a path or query parameter, or a string in the body. */
interface Slot {
  app: 'api' | 'messages';
  method: string;
  path: string;
  operationId: string;
  where: 'path' | 'query' | 'body';
  /** The parameter's name, or the path of the string in the body. */
  name: string | Array<string | number>;
  valid: string;
  body?: unknown;
}

const read = (file: string) => JSON.parse(readFileSync(join(__dirname, '..', '..', file), 'utf8')) as Document;

/** A valid-looking value of the schema, from the examples the document gives. */
function sample(document: Document, schema: Schema): unknown {
  if (schema.$ref) return sample(document, document.components.schemas[schema.$ref.split('/').pop()!]!);
  if (schema.example !== undefined) return schema.example;
  if (schema.allOf?.length === 1) return sample(document, schema.allOf[0]!);
  if (schema.enum) return schema.enum[0];
  if (schema.properties) {
    const entries = Object.entries(schema.properties).map(([name, property]) => [name, sample(document, property)]);
    return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
  }
  if (schema.type === 'string') return 'x';
  if (schema.type === 'integer' || schema.type === 'number') return 1;
  return undefined;
}

/** Every string leaf of `value`, by its path. */
function stringsOf(value: unknown, path: Array<string | number> = []): Array<[Array<string | number>, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsOf(item, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([name, item]) => stringsOf(item, [...path, name]));
  }
  return [];
}

function withLeaf(value: unknown, path: Array<string | number>, leaf: string): unknown {
  if (path.length === 0) return leaf;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[path[0]!] = withLeaf(copy[path[0]!], path.slice(1), leaf);
  return copy;
}

/** Every text slot of every operation of the document. */
function slotsOf(document: Document, app: Slot['app']): Slot[] {
  const prefix = new URL(document.servers[0]!.url).pathname.replace(/\/$/, '');
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const common = { app, method, path: `${prefix}${path}`, operationId: operation.operationId };
      const parameters = (operation.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
      const body = Object.values(operation.requestBody?.content ?? {})[0];
      const sampled = body && sample(document, body.schema);
      return [
        ...parameters.map((parameter) => ({
          ...common,
          where: parameter.in as 'path' | 'query',
          name: parameter.name,
          valid: String(parameter.example ?? sample(document, parameter.schema ?? {}) ?? 'x'),
          body: sampled,
        })),
        ...stringsOf(sampled).map(([leaf, valid]) => ({
          ...common,
          where: 'body' as const,
          name: leaf,
          valid,
          body: sampled,
        })),
      ];
    }),
  );
}

/** Raw escapes a client may write in a URL: NUL, an encoded surrogate, an overlong NUL, a cut sequence. */
const RAW_ESCAPES = ['%00', '%ED%A0%80', '%C0%80', '%E0%A4%A', '%', '%FF'];

/**
 * NUL, unpaired surrogates and C0 controls in every string field, query parameter and path parameter of
 * every operation of both apps, read from their OpenAPI documents (a new operation is covered as it is
 * documented): whatever the text, the answer is no 500. Each place gets runs of its own, so a place that
 * lets such text reach PostgreSQL is found on every run of the suite.
 */
describe('hostile text in every operation of both apps (property-based)', () => {
  let api: TestHttpApp;
  let messages: TestHttpApp;
  let account: TestAccount;
  let sender: TestAccount;
  /** Real values of the path parameters, so that what is not under test reaches the handler. */
  const ids: Record<string, string> = {};
  /**
   * The values DELETEs name: resources of their own, so that one a hostile id still reaches (a parser
   * that reads `7\n` as 7) removes nothing the other operations use.
   */
  const doomed: Record<string, string> = {};
  const idOf = (slot: Slot, name: string) => (slot.method === 'delete' ? doomed : ids)[name]!;
  const endpoint = async () =>
    (
      await api.http
        .post('/v1/webhook-endpoints')
        .set(account.auth)
        .send({ url: 'https://shelter.example/hooks', events: ['*'] })
        .expect(201)
    ).body.id;

  beforeAll(async () => {
    ({ app: api, account } = await startHostileApp());
    messages = await createMessagesApp();
    sender = await createAccount(messages);
    await messages.app.get(AccountsService).setPlan(sender.email, 'enterprise', { perMinute: 1_000_000, perDay: 1e7 });
    const adopter = await signUp(api.http);
    const pet = await createPet(api.http, account);
    const order = await placeOrder(api.http, adopter, (await createPet(api.http, account)).id);
    const events = await api.http.get('/v1/events?limit=1').set(account.auth).expect(200);
    const message = await messages.http.post('/messages').set(sender.auth).send({ message: 'hello' }).expect(202);
    const savedSearch = async () =>
      String(
        (await api.http.post('/v1/saved-searches').set(account.auth).send({ query: 'categoryId=1' }).expect(201)).body
          .id,
      );
    const photoOf = async (petId: string) =>
      (
        await api.http
          .post(`/v1/pets/${petId}/photos`)
          .set(account.auth)
          .set('Content-Type', 'image/jpeg')
          .send(await tinyJpeg())
          .expect(202)
      ).body.id as string;
    Object.assign(ids, {
      keyId: String(account.keyId),
      petId: String(pet.id),
      orderId: String(order.id),
      endpointId: String(await endpoint()),
      eventId: events.body[0].id,
      id: message.body.id,
    });
    ids.photoId = await photoOf(ids.petId!);
    // An address of the caller's own that an animal has: the PUT replaces it.
    ids.externalId = 'hostile-text-1';
    await api.http
      .put(`/v1/pets/external/${ids.externalId}`)
      .set(account.auth)
      .send({ name: 'Rex', categoryId: 1 })
      .expect(201);
    ids.organizationId = (
      await api.http.put('/v1/organization').set(adopter.auth).send({ name: 'Hostile text' }).expect(201)
    ).body.id;
    ids.savedSearchId = await savedSearch();
    Object.assign(doomed, {
      keyId: String((await api.http.post('/v1/keys').set(account.auth).send({ name: 'doomed' }).expect(201)).body.id),
      petId: String((await createPet(api.http, account)).id),
      endpointId: String(await endpoint()),
    });
    doomed.photoId = await photoOf(doomed.petId!);
    doomed.savedSearchId = await savedSearch();
    // An application the caller received, under review, with a meeting proposed.
    const applyingFor = (await createPet(api.http, account)).id;
    ids.applicationId = (
      await api.http
        .post(`/v1/pets/${applyingFor}/applications`)
        .set(adopter.auth)
        .send({ answers: {}, contact: { name: 'Alex', email: 'hostile-applicant@example.com' } })
        .expect(201)
    ).body.id;
    await api.http.post(`/v1/applications/${ids.applicationId}/review`).set(account.auth).expect(200);
    const startsAt = Date.now() + 24 * 3600_000;
    ids.meetingId = (
      await api.http
        .post(`/v1/applications/${ids.applicationId}/meetings`)
        .set(account.auth)
        .send({ startsAt: new Date(startsAt).toISOString(), endsAt: new Date(startsAt + 3600_000).toISOString() })
        .expect(201)
    ).body.id;
    // An unsubscribe link as an email carries it, signed under the apps' key.
    const key = Object.assign(new EmailSettings(), { EMAIL_UNSUBSCRIBE_KEY: process.env.EMAIL_UNSUBSCRIBE_KEY });
    const tokens = new UnsubscribeTokens(key);
    ids.token = tokens.sign({ addressKey: 'hostile@example.com', list: `saved_search:${ids.savedSearchId}` });
    doomed.token = tokens.sign({ addressKey: 'hostile@example.com', list: `saved_search:${doomed.savedSearchId}` });
  });
  afterAll(async () => {
    await messages?.close();
    await closeHostileApp(api);
  });

  const slots = [...slotsOf(read('openapi.json'), 'api'), ...slotsOf(read('openapi.messages.json'), 'messages')];

  const request = (slot: Slot, text: string, encode: (text: string) => string) => {
    const path = slot.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      slot.where === 'path' && name === slot.name ? encode(text) : idOf(slot, name),
    );
    const query = slot.where === 'query' ? `?${slot.name}=${encode(text)}` : '';
    const app = slot.app === 'api' ? api : messages;
    const test = app.http[slot.method as 'get'](`${path}${query}`).set((slot.app === 'api' ? account : sender).auth);
    if (slot.body === undefined) return test;
    const body = slot.where === 'body' ? withLeaf(slot.body, slot.name as Array<string | number>, text) : slot.body;
    return test.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };

  it('finds the text places of both apps', () => {
    const names = slots.map((slot) => `${slot.operationId} ${[slot.name].flat().join('.')}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'listPets q',
        'listPets tag',
        'createPet photoUrls.0',
        'updatePet petId',
        'createWebhookEndpoint url',
        'updateWebhookEndpoint url',
        'sendMessage message',
        'getMessage id',
      ]),
    );
  });

  it.each(
    slots.map((slot, i) => [`${slot.operationId} ${slot.where} ${[slot.name].flat().join('.')}`, slot, i] as const),
  )('%s: no text is a server error', async (_name, slot, i) => {
    // A path parameter varies around the real id, so that a parser too lenient with it reaches the resource.
    const valid = slot.where === 'path' ? idOf(slot, slot.name as string) : slot.valid;
    const text =
      slot.where === 'body'
        ? hostileText(slot.valid).map((value) => [value, (raw: string) => raw] as const)
        : fc.oneof(
            // Never any text at all: a path of digits could name, and remove, the suite's own key or pet.
            withHostileCharacter(valid).map((value) => [value, percentEncoded] as const),
            fc.constantFrom(...RAW_ESCAPES).map((escape) => [`${valid}${escape}`, (raw: string) => raw] as const),
          );
    await fc.assert(
      fc.asyncProperty(text, async ([value, encode]) => {
        const response = await request(slot, value, encode);
        expectNoServerError(response);
        // The suite's keys still open every operation: a 401 would hide every later answer.
        expect(response.status).not.toBe(401);
        // An id with anything added is no id: were it read as one, a DELETE would remove what it names.
        if (slot.where === 'path') expect(response.status).toBeGreaterThanOrEqual(400);
      }),
      fuzz(16, i),
    );
  });
});
