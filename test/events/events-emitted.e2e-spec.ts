import { AccountsService } from '@app/accounts';
import { createApiApp } from '../support/api-app';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { OrderBody, placeOrder, transition } from '../support/orders';

interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  data: { object: Record<string, unknown> };
}

/** The events each change of the catalogue and the store records, and to whom. */
describe('events recorded by pets and orders', () => {
  let app: TestHttpApp;

  /** The account's events, oldest first. */
  const feed = async (account: TestAccount): Promise<EventBody[]> =>
    ((await app.http.get('/v1/events?limit=100').set(account.auth).expect(200)).body as EventBody[]).reverse();
  const mergePatch = (account: TestAccount, petId: number, body: object) =>
    app.http
      .patch(`/v1/pets/${petId}`)
      .set(account.auth)
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify(body));

  beforeAll(async () => {
    app = await createApiApp();
  });
  afterAll(() => app.close());

  it('records pet.updated and pet.deleted for the lister, each with the pet as it was right after the change', async () => {
    const lister = await signUp(app.http);
    const created = await createPet(app.http, lister, { name: 'Rex' });
    const updated = (await mergePatch(lister, created.id, { name: 'Max', tags: ['calm'] }).expect(200)).body;
    // A change that does not apply records nothing.
    await mergePatch(await signUp(app.http), created.id, { name: 'Stolen' }).expect(403);
    await app.http.delete(`/v1/pets/${created.id}`).set(lister.auth).expect(204);

    expect((await feed(lister)).map(({ type, data }) => ({ type, object: data.object }))).toEqual([
      { type: 'pet.created', object: created },
      { type: 'pet.updated', object: updated },
      { type: 'pet.deleted', object: updated },
    ]);
  });

  it('records the Pet exactly as the response shows it, every field set, cleared, and with an organisation', async () => {
    const lister = await signUp(app.http);
    await app.app.get(AccountsService).setPlan(lister.email, 'business');
    const everyField = {
      name: 'Biscuit',
      categoryId: 1,
      status: 'pending',
      sex: 'female',
      description: 'Loves long walks.',
      breed: 'Beagle',
      ageGroup: 'young',
      size: 'medium',
      tags: ['calm', 'house-trained'],
      photoUrls: ['https://photos.example.com/biscuit.jpg'],
      // Doubles whose shortest form has many digits, and one below 1e-6.
      location: { latitude: 52.52000812345679, longitude: 0.0000001 },
      attributes: {
        spayedNeutered: true,
        houseTrained: false,
        declawed: false,
        specialNeeds: true,
        shotsCurrent: true,
      },
      specialNeedsNotes: 'Needs a quiet home.',
      environment: { children: true, dogs: false, cats: true },
      coat: 'wire',
      colors: ['Black', 'White'],
      secondaryBreed: 'Poodle',
      mixedBreed: true,
      externalId: 'A-1',
    };
    const created = (await app.http.post('/v1/pets').set(lister.auth).send(everyField).expect(201)).body;
    const cleared = (
      await mergePatch(lister, created.id, {
        ...Object.fromEntries(Object.keys(everyField).map((field) => [field, null])),
        name: 'Biscuit',
        categoryId: 2,
        status: 'available',
        // One member left (a merge patch merges the object over the pet's), the other object cleared whole.
        attributes: { spayedNeutered: null, houseTrained: null, specialNeeds: null, shotsCurrent: null },
        environment: null,
      }).expect(200)
    ).body;
    await app.http.put('/v1/organization').set(lister.auth).send({ name: 'Tierheim' }).expect(201);
    const organised = (
      await app.http.post('/v1/pets').set(lister.auth).send({ name: 'Rex', categoryId: 1 }).expect(201)
    ).body;
    expect(organised.organizationId).toEqual(expect.any(String));

    expect((await feed(lister)).map(({ type, data }) => ({ type, object: data.object }))).toEqual([
      { type: 'pet.created', object: created },
      { type: 'pet.updated', object: cleared },
      // Publishing the organisation changes the lister's pets.
      {
        type: 'pet.updated',
        object: { ...cleared, organizationId: organised.organizationId, updatedAt: expect.any(String) },
      },
      { type: 'pet.created', object: organised },
    ]);
    expect(cleared).toEqual({
      id: created.id,
      name: 'Biscuit',
      categoryId: 2,
      status: 'available',
      sex: 'unknown',
      photos: [],
      attributes: { declawed: false },
      createdAt: created.createdAt,
      updatedAt: expect.any(String),
    });
  });

  it('records the events of pets created together in the order of their ids', async () => {
    const lister = await signUp(app.http);
    // Sent together, they are inserted by one statement, their events with them.
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createPet(app.http, lister, { name: `Pup ${i}` })),
    );
    const ids = created.map((pet) => pet.id).sort((a, b) => a - b);
    expect((await feed(lister)).map((event) => event.data.object.id)).toEqual(ids);
  });

  it('dates each event at its change: createdAt is the updatedAt of the pet or order it shows', async () => {
    const [lister, adopter] = [await signUp(app.http), await signUp(app.http)];
    const pet = await createPet(app.http, lister);
    await mergePatch(lister, pet.id, { name: 'Max' }).expect(200);
    const order = await placeOrder(app.http, adopter, pet.id);
    await transition(app.http, lister, order.id, 'approve').expect(200);
    const events = [...(await feed(lister)), ...(await feed(adopter))];
    expect(events.map((event) => event.type).sort()).toEqual(
      ['order.approved', 'order.approved', 'order.placed', 'order.placed', 'pet.created', 'pet.updated'].sort(),
    );
    for (const event of events) expect(event.createdAt).toBe(event.data.object.updatedAt);
  });

  it('records each order transition for both parties, each with its own role', async () => {
    const [lister, adopter] = [await signUp(app.http), await signUp(app.http)];
    const pet = await createPet(app.http, lister);
    const seen: OrderBody[] = [await placeOrder(app.http, adopter, pet.id)];
    for (const operation of ['approve', 'deliver', 'return'])
      seen.push((await transition(app.http, lister, seen[0]!.id, operation).expect(200)).body);
    // Asking again for the state reached changes nothing and records nothing.
    await transition(app.http, lister, seen[0]!.id, 'return').expect(200);
    const second = await placeOrder(app.http, adopter, pet.id);
    const cancelled = (await transition(app.http, adopter, second.id, 'cancel', { reason: 'moved' }).expect(200))
      .body as OrderBody;
    seen.push(second, cancelled);

    const orderEvents = async (account: TestAccount) =>
      (await feed(account))
        .filter(({ type }) => type.startsWith('order.'))
        .map(({ type, data }) => ({ type, object: data.object }));
    const expected = (role: string) =>
      seen.map((order) => ({ type: `order.${order.status}`, object: { ...order, role } }));
    expect(await orderEvents(adopter)).toEqual(expected('adopter'));
    expect(await orderEvents(lister)).toEqual(expected('lister'));
    expect((await orderEvents(adopter)).map(({ type }) => type)).toEqual([
      'order.placed',
      'order.approved',
      'order.delivered',
      'order.returned',
      'order.placed',
      'order.cancelled',
    ]);
  });
});
