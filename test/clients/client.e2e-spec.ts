import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountsService } from '@app/accounts';
import { createPetAdoptionClient, paginate, type PetAdoptionClient, uploadPetPhoto } from '@app/client';
import { createApiApp } from '../support/api-app';
import { uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createMessagesApp } from '../support/messages';
import { tinyJpeg } from '../support/photos';

/** Serves an in-process app on an ephemeral port of the loopback, for a client that speaks real HTTP. */
async function listening(app: TestHttpApp): Promise<string> {
  await app.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.app.getHttpServer().address() as AddressInfo).port}`;
}

describe('the typed client (libs/client) against the real apps', () => {
  let api: TestHttpApp;
  let messages: TestHttpApp;
  let urls: { baseUrl: string; messagesBaseUrl: string };
  let client: PetAdoptionClient;
  let email: string;
  const photos = mkdtempSync(join(tmpdir(), 'client-photos-'));

  beforeAll(async () => {
    // Short minute windows, so that a 429's Retry-After is worth waiting for.
    const env = { RATE_LIMIT_MINUTE_WINDOW_SECONDS: '2', PHOTO_STORAGE_DIR: photos };
    [api, messages] = await Promise.all([createApiApp({ env }), createMessagesApp({ env })]);
    urls = { baseUrl: `${await listening(api)}/v1`, messagesBaseUrl: await listening(messages) };
    email = uniqueEmail('client');
    const signUp = await createPetAdoptionClient(urls).api.POST('/accounts', { body: { email } });
    expect(signUp.response.status).toBe(201);
    client = createPetAdoptionClient({ ...urls, apiKey: signUp.data!.apiKey.key });
  });
  afterAll(async () => {
    await api.close();
    await messages.close();
    rmSync(photos, { recursive: true, force: true });
  });

  it('adds an animal with only its required fields, and retries of the POST have no second effect', async () => {
    const { data, response } = await client.api.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(response.headers.get('Location')).toBe(`/v1/pets/${data!.id}`);
    // The client's Idempotency-Key, sent again, replays the first answer.
    const key = 'client-e2e-' + data!.id;
    const first = await client.api.POST('/pets', {
      body: { name: 'Ada', categoryId: 2 },
      headers: { 'Idempotency-Key': key },
    });
    const again = await client.api.POST('/pets', {
      body: { name: 'Ada', categoryId: 2 },
      headers: { 'Idempotency-Key': key },
    });
    expect(again.data).toEqual(first.data);
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('uploads a photo as multipart with uploadPetPhoto: 202, the photo processing, and where to follow it', async () => {
    const pet = (await client.api.POST('/pets', { body: { name: 'Rex', categoryId: 1 } })).data!;
    const { data, response } = await uploadPetPhoto(client.api, pet.id, new Blob([await tinyJpeg()]), 'rex.jpg');
    expect(response.status).toBe(202);
    expect(data).toMatchObject({ petId: pet.id, status: 'processing', position: 0 });
    expect(response.headers.get('Location')).toBe(`/v1/pets/${pet.id}/photos/${data!.id}`);
  });

  it('follows Link from page to page, whatever base URL it was given, visiting every animal once', async () => {
    const created: number[] = [];
    for (let i = 0; i < 5; i++)
      created.push(
        (await client.api.POST('/pets', { body: { name: `Pup ${i}`, categoryId: 1, status: 'pending' } })).data!.id,
      );
    const seen: number[] = [];
    for await (const pet of paginate((cursor) =>
      client.api.GET('/pets', { params: { query: { limit: 2, status: ['pending'], cursor } } }),
    ))
      seen.push(pet.id);
    expect(seen.filter((id) => created.includes(id))).toEqual(created);
    expect(new Set(seen).size).toBe(seen.length);
    // Several statuses go comma-separated, as the document describes the parameter.
    const both = await client.api.GET('/pets', { params: { query: { limit: 100, status: ['pending', 'sold'] } } });
    expect(new URL(both.response.url).searchParams.get('status')).toBe('pending,sold');
    expect(both.data!.every((pet) => pet.status === 'pending' || pet.status === 'sold')).toBe(true);
  });

  it('sends a message to the messages app’s own base URL and reads it back', async () => {
    const sent = await client.messages.POST('/messages', { body: { message: 'Rex has found a home!' } });
    expect(sent.response.status).toBe(202);
    expect(sent.data).toMatchObject({ message: 'Rex has found a home!', status: 'queued' });
    const read = await client.messages.GET('/messages/{id}', { params: { path: { id: sent.data!.id } } });
    expect(read.data?.id).toBe(sent.data!.id);
  });

  it('types and answers the documented error bodies', async () => {
    const { error, response } = await client.api.GET('/pets/{petId}', { params: { path: { petId: 999_999_999 } } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ code: 'not_found', message: expect.any(String), status: 404 });
  });

  it('places an order for another account’s pet, which its lister approves and delivers', async () => {
    const { data: pet } = await client.api.POST('/pets', { body: { name: 'Biscuit', categoryId: 1 } });
    const signUp = await createPetAdoptionClient(urls).api.POST('/accounts', {
      body: { email: uniqueEmail('adopter') },
    });
    const adopter = createPetAdoptionClient({ ...urls, apiKey: signUp.data!.apiKey.key });

    const ownPet = await client.api.POST('/store/orders', { body: { petId: pet!.id } });
    expect(ownPet.error).toEqual({ code: 'forbidden', message: expect.any(String), status: 403 });

    const placed = await adopter.api.POST('/store/orders', {
      body: { petId: pet!.id, note: 'We have a garden.' },
    });
    expect(placed.response.status).toBe(201);
    expect(placed.data).toMatchObject({ petId: pet!.id, status: 'placed', role: 'adopter', note: 'We have a garden.' });
    expect(placed.response.headers.get('Location')).toBe(`/v1/store/orders/${placed.data!.id}`);
    const orderId = { params: { path: { orderId: placed.data!.id } } };
    const again = await adopter.api.POST('/store/orders', { body: { petId: pet!.id } });
    expect(again.error?.code).toBe('pet_not_available');

    const byAdopter = await adopter.api.POST('/store/orders/{orderId}/approve', orderId);
    expect(byAdopter.error).toMatchObject({ code: 'forbidden', status: 403 });
    const approved = await client.api.POST('/store/orders/{orderId}/approve', orderId);
    expect(approved.data).toMatchObject({ id: placed.data!.id, status: 'approved', role: 'lister' });

    const seen = await adopter.api.GET('/store/orders/{orderId}', orderId);
    expect(seen.data?.status).toBe('approved');
    const received: number[] = [];
    for await (const order of paginate((cursor) =>
      client.api.GET('/store/orders', { params: { query: { role: 'lister', limit: 1, cursor } } }),
    ))
      received.push(order.id);
    expect(received).toContain(placed.data!.id);

    const removal = await client.api.DELETE('/pets/{petId}', { params: { path: { petId: pet!.id } } });
    expect(removal.error).toMatchObject({ code: 'pet_has_open_order', status: 409 });
    const delivered = await client.api.POST('/store/orders/{orderId}/deliver', orderId);
    expect(delivered.data?.status).toBe('delivered');
    const inventory = await client.api.GET('/store/inventory');
    expect(inventory.data).toEqual({
      available: expect.any(Number),
      pending: expect.any(Number),
      sold: expect.any(Number),
    });
    expect(inventory.data!.sold).toBeGreaterThanOrEqual(1);
  });

  it('changes a pet only at the ETag it was read at, and is told 304 when it has not changed', async () => {
    const created = await client.api.POST('/pets', { body: { name: 'Pixel', categoryId: 1 } });
    const petId = { params: { path: { petId: created.data!.id } } };
    const etag = created.response.headers.get('ETag')!;
    const unchanged = await client.api.GET('/pets/{petId}', {
      params: { ...petId.params, header: { 'If-None-Match': etag } },
    });
    expect(unchanged.response.status).toBe(304);
    expect(unchanged.data).toBeUndefined();

    const changed = await client.api.PATCH('/pets/{petId}', {
      params: { ...petId.params, header: { 'If-Match': etag } },
      body: { description: 'Chases laser dots.', breed: null },
    });
    expect(changed.data).toMatchObject({ description: 'Chases laser dots.' });
    expect(changed.response.headers.get('ETag')).not.toBe(etag);
    const stale = await client.api.PATCH('/pets/{petId}', {
      params: { ...petId.params, header: { 'If-Match': etag } },
      body: { name: 'Pixie' },
    });
    expect(stale.error).toMatchObject({ code: 'precondition_failed', status: 412 });
    const removed = await client.api.DELETE('/pets/{petId}', {
      params: { ...petId.params, header: { 'If-Match': changed.response.headers.get('ETag')! } },
    });
    expect(removed.response.status).toBe(204);
  });

  it('waits out a 429 as Retry-After says, and then succeeds', async () => {
    const limited = uniqueEmail('client-limited');
    const signUp = await createPetAdoptionClient(urls).api.POST('/accounts', { body: { email: limited } });
    await api.app.get(AccountsService).setPlan(limited, 'enterprise', { perMinute: 2, perDay: 100_000 });
    const answered: number[] = [];
    const patient = createPetAdoptionClient({
      ...urls,
      apiKey: signUp.data!.apiKey.key,
      retry: { retries: 5, baseDelayMs: 50 },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        answered.push(response.status);
        return response;
      },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await patient.api.GET('/categories')).response.status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(answered).toContain(429);
  });
});
