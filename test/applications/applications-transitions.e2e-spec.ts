import { APPLICATION_STATUSES, APPLICATION_TRANSITIONS, type ApplicationDto } from '@app/applications';
import { OrdersService } from '@app/orders';
import { act, shown, submit, useApplicationsSuite } from '../support/applications';
import { withDatabase } from '../support/database';
import type { TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { petStatus, placeOrder } from '../support/orders';

const order = (app: TestHttpApp, by: TestAccount, orderId: number) =>
  app.http.get(`/v1/store/orders/${orderId}`).set(by.auth).expect(200);

describe('applications: transitions, and how they follow their orders and pets', () => {
  const suite = useApplicationsSuite({ ORDER_HOLD_SECONDS: '3600' });
  let app: TestHttpApp;
  let lister: TestAccount;
  let applicant: TestAccount;
  let stranger: TestAccount;
  beforeAll(() => ({ app, lister, applicant, stranger } = suite));

  for (const t of Object.values(APPLICATION_TRANSITIONS)) {
    const party = (): TestAccount => (t.who === 'lister' ? lister : applicant);
    const other = (): TestAccount => (t.who === 'lister' ? applicant : lister);
    for (const from of t.from) {
      it(`${t.operationId}: ${from} → ${t.to} by the ${t.who}, with its history entry`, async () => {
        const before = await suite.applicationIn(from);
        const body = t.takesReason ? { reason: '  Found another home.  ' } : undefined;
        const after: ApplicationDto = (await act(app.http, party(), before.id, t.operation, body).expect(200)).body;
        expect(after).toMatchObject({ id: before.id, status: t.to, role: t.who });
        expect(after.history).toEqual([
          ...before.history,
          { status: t.to, at: after.updatedAt, by: t.who, ...(body && { note: 'Found another home.' }) },
        ]);
        expect(await shown(app.http, party(), before.id)).toEqual(after);
      });
    }

    it(`${t.operationId}: asked again answers 200 unchanged; the other party 403, a stranger and no such id 404`, async () => {
      const reached = await suite.applicationIn(t.to);
      expect((await act(app.http, party(), reached.id, t.operation).expect(200)).body).toEqual(
        await shown(app.http, party(), reached.id),
      );
      const open = await suite.applicationIn(t.from[0]!);
      expect((await act(app.http, other(), open.id, t.operation).expect(403)).body.code).toBe('forbidden');
      await act(app.http, stranger, open.id, t.operation).expect(404);
      await act(app.http, party(), 'app_nothing', t.operation).expect(404);
      expect((await shown(app.http, party(), open.id)).status).toBe(t.from[0]);
    });

    const refused = APPLICATION_STATUSES.filter((status) => status !== t.to && !t.from.includes(status));
    for (const from of refused) {
      it(`${t.operationId}: refuses ${from} with 409 invalid_application_state, unchanged`, async () => {
        const before = await shown(app.http, party(), (await suite.applicationIn(from)).id);
        const answer = await act(app.http, party(), before.id, t.operation).expect(409);
        expect(answer.body.code).toBe('invalid_application_state');
        expect(await shown(app.http, party(), before.id)).toEqual(before);
      });
    }
  }

  it('refuses a reason of 501 characters, and unknown members', async () => {
    const open = await suite.applicationIn('submitted');
    await act(app.http, lister, open.id, 'decline', { reason: 'x'.repeat(501) }).expect(400);
    await act(app.http, applicant, open.id, 'withdraw', { why: 'x' }).expect(400);
    expect((await shown(app.http, applicant, open.id)).status).toBe('submitted');
  });

  describe('approval places the order', () => {
    it('in one transaction: orderId set, the pet pending, no note, outside the open-orders cap', async () => {
      // The suite allows one open order per account: the applicant's approvals are already several.
      const other = await suite.pet();
      const own = await placeOrder(app.http, applicant, other.id);
      const approved = await suite.applicationIn('approved');
      expect(approved.orderId).toEqual(expect.any(Number));
      const placed = (await order(app, applicant, approved.orderId!)).body;
      expect(placed).toMatchObject({ petId: approved.petId, status: 'placed', role: 'adopter' });
      expect(placed.note).toBeUndefined();
      expect(await petStatus(app.http, lister, approved.petId)).toBe('pending');
      expect((await placeOrder(app.http, await suite.account(), (await suite.pet()).id)).status).toBe('placed');
      await app.http.post(`/v1/store/orders/${own.id}/cancel`).set(applicant.auth).expect(200);
    });

    it('refuses a pet no longer available with 409 pet_not_available, the application unchanged', async () => {
      const reviewed = await suite.applicationIn('under_review');
      await placeOrder(app.http, await suite.account(), reviewed.petId);
      const refused = await act(app.http, lister, reviewed.id, 'approve').expect(409);
      expect(refused.body.code).toBe('pet_not_available');
      expect(await shown(app.http, lister, reviewed.id)).toEqual(reviewed);
    });

    it('of two for one pet, approves one; the other stays under review', async () => {
      const pet = await suite.pet();
      const [first, second] = [
        await suite.applicationIn('under_review', pet.id),
        await submit(app.http, applicant, pet.id),
      ];
      const secondReviewed = (await act(app.http, lister, second.body.id, 'review').expect(200)).body;
      const answers = await Promise.all([first, secondReviewed].map((a) => act(app.http, lister, a.id, 'approve')));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('pet_not_available');
    });
  });

  describe('withdrawal', () => {
    it('of an approved application cancels its order (application_withdrawn) and frees the pet', async () => {
      const approved = await suite.applicationIn('approved');
      const withdrawn = (await act(app.http, applicant, approved.id, 'withdraw').expect(200)).body;
      expect(withdrawn).toMatchObject({ status: 'withdrawn', orderId: approved.orderId });
      expect(withdrawn.closedReason).toBeUndefined();
      const cancelled = (await order(app, lister, approved.orderId!)).body;
      expect(cancelled).toMatchObject({ status: 'cancelled', cancellationReason: 'application_withdrawn' });
      expect(await petStatus(app.http, lister, approved.petId)).toBe('available');
    });
  });

  describe('following the order and the pet', () => {
    const lastEntry = (application: ApplicationDto) => application.history.at(-1);

    it('delivered: adopted, and the pet’s other open applications closed (adopted)', async () => {
      const pet = await suite.pet();
      const others = [
        (await submit(app.http, applicant, pet.id).expect(201)).body,
        await suite.applicationIn('under_review', pet.id),
      ];
      const declined = await suite.applicationIn('declined', pet.id);
      const approved = await suite.applicationIn('approved', pet.id);
      for (const step of ['approve', 'deliver'])
        await app.http.post(`/v1/store/orders/${approved.orderId}/${step}`).set(lister.auth).expect(200);
      const adopted = await shown(app.http, applicant, approved.id);
      expect(adopted.status).toBe('adopted');
      expect(lastEntry(adopted)).toEqual({ status: 'adopted', at: adopted.updatedAt, by: 'service' });
      for (const other of others)
        expect(await shown(app.http, lister, other.id)).toMatchObject({ status: 'closed', closedReason: 'adopted' });
      expect((await shown(app.http, lister, declined.id)).status).toBe('declined');
    });

    it('cancelled by either party: closed (order_cancelled)', async () => {
      for (const by of [lister, applicant]) {
        const approved = await suite.applicationIn('approved');
        await app.http.post(`/v1/store/orders/${approved.orderId}/cancel`).set(by.auth).expect(200);
        const closed = await shown(app.http, applicant, approved.id);
        expect(closed).toMatchObject({ status: 'closed', closedReason: 'order_cancelled' });
        expect(lastEntry(closed)!.by).toBe('service');
      }
    });

    it('its hold expired: closed (order_cancelled)', async () => {
      const approved = await suite.applicationIn('approved');
      await withDatabase((client) =>
        client.query(`UPDATE orders SET expires_at = now() - interval '1 second' WHERE id = $1`, [approved.orderId]),
      );
      await app.app.get(OrdersService).expire(approved.orderId!);
      expect((await order(app, applicant, approved.orderId!)).body.cancellationReason).toBe('expired');
      expect(await shown(app.http, applicant, approved.id)).toMatchObject({
        status: 'closed',
        closedReason: 'order_cancelled',
      });
    });

    it('the pet removed: its open applications closed (pet_removed), the final ones unchanged', async () => {
      const pet = await suite.pet();
      const open = [
        (await submit(app.http, applicant, pet.id).expect(201)).body,
        await suite.applicationIn('under_review', pet.id),
      ];
      const withdrawn = await suite.applicationIn('withdrawn', pet.id);
      await app.http.delete(`/v1/pets/${pet.id}`).set(lister.auth).expect(204);
      for (const application of open) {
        const closed = await shown(app.http, applicant, application.id);
        expect(closed).toMatchObject({ status: 'closed', closedReason: 'pet_removed' });
        expect(lastEntry(closed)!.by).toBe('service');
      }
      expect(await shown(app.http, applicant, withdrawn.id)).toEqual(withdrawn);
    });
  });
});
