import { ORDER_TRANSITIONS, OrderStatus } from '@app/orders';
import { withDatabase } from '../support/database';
import { createPet, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { petStatus, placeOrder, transition, useStoreSuite } from '../support/orders';

describe('the store: transitions, held pets and the inventory', () => {
  const suite = useStoreSuite('orders_transitions');
  let app: TestHttpApp;
  let lister: TestAccount;
  let adopter: TestAccount;
  let stranger: TestAccount;
  const { account, listPet, orderIn } = suite;
  beforeAll(() => ({ app, lister, adopter, stranger } = suite));

  describe('transitions', () => {
    /** What the pet's status is once the order is in each state. */
    const PET_FOR: Record<OrderStatus, string> = {
      placed: 'pending',
      approved: 'sold',
      delivered: 'sold',
      cancelled: 'available',
      returned: 'available',
    };

    for (const t of Object.values(ORDER_TRANSITIONS).filter((t) => t.operationId)) {
      const actor = t.who.includes('adopter') ? 'adopter' : 'lister';
      for (const from of t.from) {
        it(`${t.operationId}: ${from} → ${t.to} by the ${actor}, the pet ${t.pet.status}, atomically`, async () => {
          const { order, adopter } = await orderIn(from);
          const caller = actor === 'adopter' ? adopter : lister;
          const response = await transition(app.http, caller, order.id, t.operation).expect(200);
          expect(response.body).toMatchObject({ id: order.id, status: t.to, role: actor });
          expect(Date.parse(response.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(order.updatedAt));
          expect(response.body.expiresAt).toBeUndefined();
          expect(await petStatus(app.http, caller, order.petId)).toBe(t.pet.status);
          expect(PET_FOR[t.to]).toBe(t.pet.status);
        });
      }

      it(`${t.operationId}: asked again, answers 200 with the order unchanged`, async () => {
        const { order, adopter } = await orderIn(t.to);
        const caller = actor === 'adopter' ? adopter : lister;
        const shown = (await app.http.get(`/v1/store/orders/${order.id}`).set(caller.auth).expect(200)).body;
        const again = await transition(app.http, caller, order.id, t.operation).expect(200);
        expect(again.body).toEqual(shown);
      });

      const refused = (['placed', 'approved', 'delivered', 'cancelled', 'returned'] as const).filter(
        (status) => status !== t.to && !t.from.includes(status),
      );
      it.each(refused)(`${t.operationId}: refuses an order that is %s with 409 invalid_order_state`, async (status) => {
        const { order, adopter } = await orderIn(status);
        const caller = actor === 'adopter' ? adopter : lister;
        const response = await transition(app.http, caller, order.id, t.operation).expect(409);
        expect(response.body).toMatchObject({ code: 'invalid_order_state', status: 409 });
        expect(await petStatus(app.http, caller, order.petId)).toBe(PET_FOR[status]);
      });

      if (!t.who.includes('adopter')) {
        it(`${t.operationId}: refuses the adopter with 403 forbidden`, async () => {
          const { order, adopter } = await orderIn(t.from[0]!);
          const response = await transition(app.http, adopter, order.id, t.operation).expect(403);
          expect(response.body).toMatchObject({ code: 'forbidden' });
        });
      }

      it(`${t.operationId}: answers a stranger 404 not_found`, async () => {
        const { order } = await orderIn(t.from[0]!);
        await transition(app.http, stranger, order.id, t.operation).expect(404);
        await transition(app.http, stranger, 999999999, t.operation).expect(404);
      });
    }

    it('records the canceller’s reason, or requested', async () => {
      const { order: byLister } = await orderIn('approved');
      const reasoned = await transition(app.http, lister, byLister.id, 'cancel', { reason: ' Found a closer home ' });
      expect(reasoned.body).toMatchObject({ status: 'cancelled', cancellationReason: 'Found a closer home' });
      const { order: byAdopter, adopter } = await orderIn('placed');
      const plain = await transition(app.http, adopter, byAdopter.id, 'cancel').expect(200);
      expect(plain.body).toMatchObject({ status: 'cancelled', role: 'adopter', cancellationReason: 'requested' });
    });

    it.each([
      ['an empty reason', { reason: '' }],
      ['a reason over 500 characters', { reason: 'x'.repeat(501) }],
      ['an unknown field', { why: 'no' }],
    ])('refuses a cancellation with %s with 400, changing nothing', async (_case, body) => {
      const { order, adopter } = await orderIn('placed');
      await transition(app.http, adopter, order.id, 'cancel', body).expect(400);
      expect(await petStatus(app.http, adopter, order.petId)).toBe('pending');
    });

    it('a returned pet stays as it is when another order holds it by then', async () => {
      const { order } = await orderIn('delivered');
      // Delivered, the pet is its lister's again, who offers it once more.
      await app.http.patch(`/v1/pets/${order.petId}`).set(lister.auth).send({ status: 'available' }).expect(200);
      const next = await placeOrder(app.http, stranger, order.petId);
      await transition(app.http, lister, order.id, 'return', { reason: 'Allergies' }).expect(200);
      expect(await petStatus(app.http, lister, order.petId)).toBe('pending');
      await transition(app.http, lister, next.id, 'approve').expect(200);
    });

    it('replays a transition retried with the same Idempotency-Key', async () => {
      const { order } = await orderIn('placed');
      const send = () =>
        transition(app.http, lister, order.id, 'approve').set('Idempotency-Key', `approve-${order.id}`);
      const first = await send().expect(200);
      const retry = await send().expect(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
    });
  });

  describe('the pet of an open order', () => {
    it.each(['placed', 'approved'] as const)(
      'while %s, refuses a PATCH of its status and its DELETE with 409 pet_has_open_order',
      async (status) => {
        const { order } = await orderIn(status);
        const patch = await app.http
          .patch(`/v1/pets/${order.petId}`)
          .set(lister.auth)
          .send({ status: 'available' })
          .expect(409);
        expect(patch.body).toEqual({ code: 'pet_has_open_order', message: expect.any(String), status: 409 });
        const removal = await app.http.delete(`/v1/pets/${order.petId}`).set(lister.auth).expect(409);
        expect(removal.body).toMatchObject({ code: 'pet_has_open_order' });
        expect(await petStatus(app.http, lister, order.petId)).toBe(status === 'placed' ? 'pending' : 'sold');
        // Its other fields stay the lister's to change.
        await app.http.patch(`/v1/pets/${order.petId}`).set(lister.auth).send({ name: 'Renamed' }).expect(200);
      },
    );

    it.each(['delivered', 'cancelled'] as const)(
      'once %s, lets the lister change its status and remove it',
      async (status) => {
        const { order } = await orderIn(status);
        await app.http.patch(`/v1/pets/${order.petId}`).set(lister.auth).send({ status: 'pending' }).expect(200);
        await app.http.delete(`/v1/pets/${order.petId}`).set(lister.auth).expect(204);
        // The order outlives its pet.
        expect((await app.http.get(`/v1/store/orders/${order.id}`).set(lister.auth).expect(200)).body).toMatchObject({
          status,
          petId: order.petId,
        });
      },
    );

    it('moves the pet’s updatedAt with each transition', async () => {
      const { order, adopter } = await orderIn('placed');
      const before = (await app.http.get(`/v1/pets/${order.petId}`).set(adopter.auth).expect(200)).body.updatedAt;
      await transition(app.http, lister, order.id, 'approve').expect(200);
      const after = (await app.http.get(`/v1/pets/${order.petId}`).set(adopter.auth).expect(200)).body.updatedAt;
      expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
    });
  });

  describe('GET /v1/store/inventory (getInventory)', () => {
    const counted = () =>
      withDatabase(async (client) => {
        const { rows } = await client.query<{ status: string; n: string }>(
          'SELECT status, count(*) AS n FROM pets GROUP BY status',
        );
        const counts: Record<string, number> = { available: 0, pending: 0, sold: 0 };
        for (const row of rows) counts[row.status] = Number(row.n);
        return counts;
      }, suite.database.url);
    const inventory = async () => (await app.http.get('/v1/store/inventory').set(adopter.auth).expect(200)).body;

    it('counts the catalogue’s pets per status, following orders and the catalogue’s own changes', async () => {
      const before = await inventory();
      expect(before).toEqual(await counted());
      const { order, adopter } = await orderIn('placed');
      expect(await inventory()).toEqual({ ...before, pending: before.pending + 1 });
      await transition(app.http, lister, order.id, 'approve').expect(200);
      expect(await inventory()).toEqual({ ...before, sold: before.sold + 1 });
      await transition(app.http, adopter, order.id, 'cancel').expect(200);
      expect(await inventory()).toEqual({ ...before, available: before.available + 1 });
    });

    it('equals COUNT(*) per status after a concurrent mixed workload', async () => {
      const adopters = await Promise.all(Array.from({ length: 6 }, () => account()));
      const work = adopters.map(async (buyer, i) => {
        for (let round = 0; round < 3; round++) {
          const pet = await listPet(lister, ['available', 'pending', 'sold'][(i + round) % 3]);
          if (pet.status !== 'available') continue;
          const order = await placeOrder(app.http, buyer, pet.id);
          const steps = [['approve'], ['cancel'], ['approve', 'deliver', 'return'], ['approve', 'cancel']][
            (i + round) % 4
          ]!;
          for (const step of steps) await transition(app.http, lister, order.id, step).expect(200);
        }
      });
      // Meanwhile, whole batches of pets arrive.
      const creations = Array.from({ length: 30 }, (_, i) =>
        createPet(app.http, lister, { status: ['available', 'pending', 'sold'][i % 3] }),
      );
      await Promise.all([...work, ...creations]);
      expect(await inventory()).toEqual(await counted());
    });

    it('reads a few counter rows, whatever the catalogue’s size', async () => {
      await withDatabase(async (client) => {
        await client.query(
          `INSERT INTO pets (name, category_id, status) SELECT 'Bulk', 1, 'sold' FROM generate_series(1, 20000)`,
        );
        const plan = await client.query<{ 'QUERY PLAN': string }>(
          'EXPLAIN (ANALYZE, FORMAT JSON) SELECT sum(available), sum(pending), sum(sold) FROM pet_status_counts',
        );
        const root = (
          plan.rows[0]!['QUERY PLAN'] as unknown as Array<{ Plan: { Plans: Array<{ 'Actual Rows': number }> } }>
        )[0]!;
        expect(root.Plan.Plans[0]!['Actual Rows']).toBeLessThanOrEqual(32);
      }, suite.database.url);
      expect(await inventory()).toEqual(await counted());
    });

    it('is empty once the catalogue is truncated', async () => {
      await withDatabase((client) => client.query('TRUNCATE photos, pets'), suite.database.url);
      expect(await inventory()).toEqual({ available: 0, pending: 0, sold: 0 });
    });
  });

  describe('the document', () => {
    it('describes every store operation with its statuses, the Order schema and the transition table', async () => {
      const doc = (await app.http.get('/docs/openapi.json').expect(200)).body;
      const operations: Record<string, { path: string; responses: string[]; forbids: boolean; description: string }> =
        {};
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>))
        for (const operation of Object.values(item)) {
          const responses = operation.responses as Record<string, unknown>;
          operations[operation.operationId as string] = {
            path,
            responses: Object.keys(responses),
            // Every keyed operation answers 403 insufficient_scope; only the lister's transitions also forbid.
            forbids: JSON.stringify(responses['403'] ?? {}).includes('"forbidden"'),
            description: operation.description as string,
          };
        }
      expect(operations.placeOrder).toMatchObject({ path: '/store/orders' });
      expect(operations.placeOrder!.responses).toEqual(expect.arrayContaining(['201', '400', '403', '409']));
      expect(operations.listOrders!.path).toBe('/store/orders');
      expect(operations.getOrderById!.responses).toEqual(expect.arrayContaining(['200', '404']));
      expect(operations.getInventory!.path).toBe('/store/inventory');
      for (const t of Object.values(ORDER_TRANSITIONS).filter((t) => t.operationId)) {
        const described = operations[t.operationId!]!;
        expect(described.path).toBe(`/store/orders/{orderId}/${t.operation}`);
        expect(described.responses).toEqual(expect.arrayContaining(['200', '404', '409']));
        expect(described.forbids).toBe(!t.who.includes('adopter'));
        for (const row of Object.values(ORDER_TRANSITIONS)) expect(described.description).toContain(`→ \`${row.to}\``);
      }
      const schemas = doc.components.schemas;
      expect(schemas.OrderStatus.enum).toEqual(['placed', 'approved', 'delivered', 'cancelled', 'returned']);
      expect(schemas.OrderRole.enum).toEqual(['adopter', 'lister']);
      expect(schemas.Order.required).toEqual(['id', 'petId', 'status', 'role', 'createdAt', 'updatedAt']);
      expect(schemas.Inventory.required).toEqual(['available', 'pending', 'sold']);
    });
  });
});
