import type { TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import {
  ISO_UTC,
  OrderBody,
  petStatus,
  placeOrder,
  STORE_SETTINGS,
  transition,
  useStoreSuite,
} from '../support/orders';

describe('the store: placing and reading orders', () => {
  const suite = useStoreSuite('orders_placing');
  let app: TestHttpApp;
  let lister: TestAccount;
  let adopter: TestAccount;
  let stranger: TestAccount;
  const { account, listPet, listedPet, orderIn } = suite;
  beforeAll(() => ({ app, lister, adopter, stranger } = suite));

  describe('POST /v1/store/orders (placeOrder)', () => {
    it('places an order with 201 and Location, holding the pet as pending until expiresAt', async () => {
      const pet = await listedPet();
      const before = Date.now();
      const response = await app.http
        .post('/v1/store/orders')
        .set(adopter.auth)
        .send({ petId: pet.id, note: '  We have a garden.  ' })
        .expect(201);
      const order = response.body as OrderBody;
      expect(order).toEqual({
        id: expect.any(Number),
        petId: pet.id,
        status: 'placed',
        role: 'adopter',
        note: 'We have a garden.',
        expiresAt: expect.stringMatching(ISO_UTC),
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(response.headers.location).toBe(`/v1/store/orders/${order.id}`);
      const holdMs = Date.parse(order.expiresAt!) - Date.parse(order.createdAt);
      expect(holdMs).toBe(STORE_SETTINGS.holdSeconds * 1000);
      expect(Date.parse(order.createdAt)).toBeGreaterThanOrEqual(before - 5000);
      expect(await petStatus(app.http, adopter, pet.id)).toBe('pending');
    });

    it.each([
      ['no petId', {}],
      ['a petId of 0', { petId: 0 }],
      ['a petId as text', { petId: '5' }],
      ['an empty note', { petId: 1, note: '   ' }],
      ['a note over 1000 characters', { petId: 1, note: 'x'.repeat(1001) }],
      ['an unknown field', { petId: 1, price: 3 }],
    ])('refuses %s with 400 validation_failed', async (_case, body) => {
      const response = await app.http.post('/v1/store/orders').set(adopter.auth).send(body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('refuses a petId naming no pet with 400 validation_failed naming petId', async () => {
      const response = await app.http.post('/v1/store/orders').set(adopter.auth).send({ petId: 999999999 }).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('petId') });
    });

    it('refuses a pet the caller listed with 403 forbidden, and leaves it available', async () => {
      const pet = await listedPet();
      const response = await app.http.post('/v1/store/orders').set(lister.auth).send({ petId: pet.id }).expect(403);
      expect(response.body).toEqual({ code: 'forbidden', message: expect.any(String), status: 403 });
      expect(await petStatus(app.http, lister, pet.id)).toBe('available');
    });

    it.each(['pending', 'sold'])('refuses a %s pet with 409 pet_not_available', async (status) => {
      const pet = await listedPet(status);
      const response = await app.http.post('/v1/store/orders').set(adopter.auth).send({ petId: pet.id }).expect(409);
      expect(response.body).toMatchObject({ code: 'pet_not_available', status: 409 });
    });

    it('refuses a pet another order holds with 409 pet_not_available', async () => {
      const { order } = await orderIn('placed');
      const response = await app.http
        .post('/v1/store/orders')
        .set(adopter.auth)
        .send({ petId: order.petId })
        .expect(409);
      expect(response.body).toMatchObject({ code: 'pet_not_available' });
    });

    it(`refuses an account's order beyond ${STORE_SETTINGS.maxOpen} placed with 409 too_many_open_orders, and counts only placed ones`, async () => {
      const busy = await account();
      const orders = [];
      for (let i = 0; i < STORE_SETTINGS.maxOpen; i++) orders.push((await orderIn('placed', busy)).order);
      const pet = await listedPet();
      const refused = await app.http.post('/v1/store/orders').set(busy.auth).send({ petId: pet.id }).expect(409);
      expect(refused.body).toMatchObject({ code: 'too_many_open_orders' });
      expect(await petStatus(app.http, busy, pet.id)).toBe('available');

      await transition(app.http, lister, orders[0]!.id, 'approve').expect(200);
      await placeOrder(app.http, busy, pet.id);
    });

    it('replays a placing retried with the same Idempotency-Key, placing one order', async () => {
      const pet = await listedPet();
      const send = () =>
        app.http
          .post('/v1/store/orders')
          .set(adopter.auth)
          .set('Idempotency-Key', `place-${pet.id}`)
          .send({ petId: pet.id });
      const first = await send().expect(201);
      const retry = await send().expect(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.location).toBe(first.headers.location);
      const listed = await app.http.get(`/v1/store/orders?petId=${pet.id}`).set(adopter.auth).expect(200);
      expect(listed.body).toHaveLength(1);
    });
  });

  describe('GET /v1/store/orders/{orderId} (getOrderById)', () => {
    it('shows the order to each party in its own role, and to nobody else', async () => {
      const { order, adopter } = await orderIn('placed');
      const asAdopter = await app.http.get(`/v1/store/orders/${order.id}`).set(adopter.auth).expect(200);
      expect(asAdopter.body).toEqual(order);
      const asLister = await app.http.get(`/v1/store/orders/${order.id}`).set(lister.auth).expect(200);
      expect(asLister.body).toEqual({ ...order, role: 'lister' });
      const asStranger = await app.http.get(`/v1/store/orders/${order.id}`).set(stranger.auth).expect(404);
      expect(asStranger.body).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('answers 404 for an unknown order and 400 for an id that is not a positive integer', async () => {
      await app.http.get('/v1/store/orders/999999999').set(adopter.auth).expect(404);
      const bad = await app.http.get('/v1/store/orders/abc').set(adopter.auth).expect(400);
      expect(bad.body).toMatchObject({ code: 'validation_failed' });
    });
  });

  describe('GET /v1/store/orders (listOrders)', () => {
    let party: TestAccount;
    let other: TestAccount;
    /** Oldest first: `party` placed the first two, and listed the pet of the third. */
    const orders: OrderBody[] = [];

    beforeAll(async () => {
      [party, other] = [await account(), await account()];
      orders.push((await orderIn('placed', party)).order);
      orders.push((await orderIn('cancelled', party)).order);
      const pet = await listPet(party);
      orders.push(await placeOrder(app.http, other, pet.id));
    });

    const list = async (query: string, caller = party) =>
      (await app.http.get(`/v1/store/orders${query}`).set(caller.auth).expect(200)).body as OrderBody[];

    it('lists the orders the caller placed and received, newest first, each in its role', async () => {
      expect((await list('')).map((order) => [order.id, order.role])).toEqual([
        [orders[2]!.id, 'lister'],
        [orders[1]!.id, 'adopter'],
        [orders[0]!.id, 'adopter'],
      ]);
    });

    it('filters by role, status and pet', async () => {
      expect((await list('?role=lister')).map((order) => order.id)).toEqual([orders[2]!.id]);
      expect((await list('?role=adopter')).map((order) => order.id)).toEqual([orders[1]!.id, orders[0]!.id]);
      expect((await list('?status=cancelled')).map((order) => order.id)).toEqual([orders[1]!.id]);
      expect((await list(`?petId=${orders[0]!.petId}`)).map((order) => order.id)).toEqual([orders[0]!.id]);
      expect(await list('?role=lister&status=cancelled')).toEqual([]);
    });

    it('pages with Link: rel="next", keeping the filters', async () => {
      const first = await app.http.get('/v1/store/orders?limit=2&role=adopter').set(party.auth).expect(200);
      expect(first.body.map((order: OrderBody) => order.id)).toEqual([orders[1]!.id, orders[0]!.id]);
      expect(first.headers.link).toBeUndefined();
      const page = await app.http.get('/v1/store/orders?limit=1').set(party.auth).expect(200);
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.link)![1]!;
      expect(next).toMatch(/^\/v1\/store\/orders\?limit=1&cursor=/);
      const second = await app.http.get(next).set(party.auth).expect(200);
      expect(second.body.map((order: OrderBody) => order.id)).toEqual([orders[1]!.id]);
    });

    it.each(['?limit=0', '?limit=101', '?status=lost', '?role=owner', '?petId=0', '?petId=x', '?cursor=nope'])(
      'refuses %s with 400 validation_failed',
      async (query) => {
        const response = await app.http.get(`/v1/store/orders${query}`).set(party.auth).expect(400);
        expect(response.body).toMatchObject({ code: 'validation_failed' });
      },
    );
  });
});
