import { AccountsService } from '@app/accounts';
import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { placeOrder, transition } from '../support/orders';

interface AnimalCounts {
  available: number;
  pending: number;
  sold: number;
}

/** The organisation's pets counted by status in `pets` itself, as `animalCounts` must show them. */
const recount = (organizationId: string) =>
  withDatabase(async (client) => {
    const { rows } = await client.query<AnimalCounts>(
      `SELECT count(*) FILTER (WHERE status = 'available')::int AS available,
              count(*) FILTER (WHERE status = 'pending')::int AS pending,
              count(*) FILTER (WHERE status = 'sold')::int AS sold
         FROM pets WHERE organization_id = $1`,
      [organizationId],
    );
    return rows[0]!;
  });

/** `animalCounts` follows every write of the organisation's pets, whoever makes it. */
describe('organisations: animal counts', () => {
  let app: TestHttpApp;
  let shelter: TestAccount;
  let adopter: TestAccount;

  const business = async () => {
    const account = await signUp(app.http);
    await app.app.get(AccountsService).setPlan(account.email, 'business');
    return account;
  };
  /** The counts every answer shows, checked against a recount and against what the test expects. */
  const expectCounts = async (organizationId: string, expected: AnimalCounts) => {
    const read = await app.http.get(`/v1/organizations/${organizationId}`).set(adopter.auth).expect(200);
    expect(read.body.animalCounts).toEqual(expected);
    expect(await recount(organizationId)).toEqual(expected);
    const own = await app.http.get('/v1/organization').set(shelter.auth).expect(200);
    expect(own.body.animalCounts).toEqual(expected);
    // The list, read by the writer: its own changes are never read from a lagging replica.
    const listed = await app.http
      .get(`/v1/organizations?q=${encodeURIComponent(own.body.name)}&limit=100`)
      .set(shelter.auth)
      .expect(200);
    expect(listed.body.find((organization: { id: string }) => organization.id === organizationId)).toMatchObject({
      animalCounts: expected,
    });
  };
  const statusOf = async (petId: number) =>
    ((await app.http.get(`/v1/pets/${petId}`).set(shelter.auth).expect(200)).body as { status: string }).status;

  beforeAll(async () => {
    app = await createApiApp();
    shelter = await business();
    adopter = await business();
  });
  afterAll(() => app.close());

  it('equals a recount after creating, ordering, patching, syncing, deleting, unpublishing and publishing', async () => {
    // A pet listed before the organisation gets it when it is published.
    const before = await createPet(app.http, shelter, { status: 'sold' });
    const name = `Counted Shelter ${shelter.accountId}`;
    const published = await app.http.put('/v1/organization').set(shelter.auth).send({ name }).expect(201);
    const organizationId: string = published.body.id;
    expect(published.body.animalCounts).toEqual({ available: 0, pending: 0, sold: 1 });
    await expectCounts(organizationId, { available: 0, pending: 0, sold: 1 });

    const first = await createPet(app.http, shelter);
    const second = await createPet(app.http, shelter);
    const third = await createPet(app.http, shelter, { status: 'pending' });
    expect(first.organizationId).toBe(organizationId);
    await expectCounts(organizationId, { available: 2, pending: 1, sold: 1 });

    // Orders: placed holds the pet (pending), cancelled frees it, approved and delivered sell it, returned frees it.
    const cancelled = await placeOrder(app.http, adopter, first.id);
    await expectCounts(organizationId, { available: 1, pending: 2, sold: 1 });
    await transition(app.http, adopter, cancelled.id, 'cancel').expect(200);
    await expectCounts(organizationId, { available: 2, pending: 1, sold: 1 });
    const delivered = await placeOrder(app.http, adopter, second.id);
    await transition(app.http, shelter, delivered.id, 'approve').expect(200);
    await expectCounts(organizationId, { available: 1, pending: 1, sold: 2 });
    await transition(app.http, shelter, delivered.id, 'deliver').expect(200);
    expect(await statusOf(second.id)).toBe('sold');
    await expectCounts(organizationId, { available: 1, pending: 1, sold: 2 });
    await transition(app.http, shelter, delivered.id, 'return').expect(200);
    await expectCounts(organizationId, { available: 2, pending: 1, sold: 1 });

    // PATCH of the status, and a PATCH that changes no status.
    await app.http.patch(`/v1/pets/${third.id}`).set(shelter.auth).send({ status: 'sold' }).expect(200);
    await expectCounts(organizationId, { available: 2, pending: 0, sold: 2 });
    await app.http.patch(`/v1/pets/${third.id}`).set(shelter.auth).send({ name: 'Renamed' }).expect(200);
    await expectCounts(organizationId, { available: 2, pending: 0, sold: 2 });

    // Sync: a PUT creates the pet, the next replaces it with another status, one without status keeps it.
    const externalId = `counts-${shelter.accountId}`;
    const synced = (body: object) =>
      app.http
        .put(`/v1/pets/external/${externalId}`)
        .set(shelter.auth)
        .send({ name: 'Synced', categoryId: 1, ...body });
    const created = await synced({ status: 'pending' }).expect(201);
    await expectCounts(organizationId, { available: 2, pending: 1, sold: 2 });
    await synced({ status: 'available' }).expect(200);
    await expectCounts(organizationId, { available: 3, pending: 0, sold: 2 });
    await synced({}).expect(200);
    await expectCounts(organizationId, { available: 3, pending: 0, sold: 2 });

    // Deletes.
    await app.http.delete(`/v1/pets/${created.body.id}`).set(shelter.auth).expect(204);
    await app.http.delete(`/v1/pets/${before.id}`).set(shelter.auth).expect(204);
    await expectCounts(organizationId, { available: 2, pending: 0, sold: 1 });

    // Unpublishing takes the pets away from the organisation, and its counts go with it; publishing again
    // gives them to the new one.
    await app.http.delete('/v1/organization').set(shelter.auth).expect(204);
    expect(
      await withDatabase(async (client) => {
        const { rows } = await client.query('SELECT 1 FROM organization_animal_counts WHERE organization_id = $1', [
          organizationId,
        ]);
        return rows;
      }),
    ).toEqual([]);
    const republished = await app.http.put('/v1/organization').set(shelter.auth).send({ name }).expect(201);
    expect(republished.body.animalCounts).toEqual({ available: 2, pending: 0, sold: 1 });
    await expectCounts(republished.body.id, { available: 2, pending: 0, sold: 1 });
  });

  it('counts pets added in one batch and changed in one batch, with several organisations at once', async () => {
    const shelters = [await business(), await business(), await business()];
    const ids: string[] = [];
    for (const [index, account] of shelters.entries()) {
      const response = await app.http
        .put('/v1/organization')
        .set(account.auth)
        .send({ name: `Batch Shelter ${account.accountId} ${index}` })
        .expect(201);
      ids.push(response.body.id);
    }
    // Requests made together share statements: one INSERT, then one guarded UPDATE, for several organisations.
    const pets = await Promise.all(
      shelters.flatMap((account) => [0, 1, 2].map(() => createPet(app.http, account, { status: 'available' }))),
    );
    await Promise.all(
      pets.map((pet, index) =>
        app.http
          .patch(`/v1/pets/${pet.id}`)
          .set(shelters[Math.floor(index / 3)]!.auth)
          .send({ status: index % 3 === 0 ? 'sold' : 'pending' })
          .expect(200),
      ),
    );
    for (const id of ids) {
      const read = await app.http.get(`/v1/organizations/${id}`).set(adopter.auth).expect(200);
      expect(read.body.animalCounts).toEqual({ available: 0, pending: 2, sold: 1 });
      expect(await recount(id)).toEqual({ available: 0, pending: 2, sold: 1 });
    }
  });
});
