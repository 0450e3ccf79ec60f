import { AccountsService } from '@app/accounts';
import type { ApplicationDto } from '@app/applications';
import { act, newContact, shown, submit } from '../support/applications';
import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { digestOf, enqueueEmails } from '../support/email';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { propose, step } from '../support/meetings';
import { AppProcess, startServing, waitFor } from '../support/processes';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The applications of an account, both roles, with their conversations, read in PostgreSQL. */
async function stored(ids: string[]): Promise<Json[]> {
  return withDatabase(async (client) => {
    const { rows } = await client.query(
      `SELECT a.id, a.status, a.closed_reason, a.contact, a.contact_email_canonical, a.answers,
              (SELECT json_agg(json_build_object('sender', m.sender, 'body', m.body) ORDER BY m.seq)
                 FROM application_messages m WHERE m.application_id = a.id) AS messages,
              (SELECT json_agg(mt.status) FROM meetings mt WHERE mt.application_id = a.id) AS meetings
         FROM applications a WHERE a.id = ANY($1) ORDER BY a.seq`,
      [ids],
    );
    return rows;
  });
}

async function formsOf(accountId: number): Promise<number> {
  return withDatabase(async (client) =>
    Number(
      (await client.query('SELECT count(*) FROM application_forms WHERE account_id = $1', [accountId])).rows[0].count,
    ),
  );
}

async function emailsOf(accountId: number): Promise<string[]> {
  return withDatabase(async (client) =>
    (await client.query('SELECT id FROM email_notifications WHERE account_id = $1 ORDER BY id', [accountId])).rows.map(
      (row) => row.id,
    ),
  );
}

describe('personal data of applications and email: GET /v1/account/export and DELETE /v1/account', () => {
  let app: TestHttpApp;
  let worker: AppProcess;

  const account = async () => {
    const created = await signUp(app.http);
    await app.app.get(AccountsService).setPlan(created.email, 'enterprise');
    return created;
  };
  const message = (by: TestAccount, id: string, body: string) =>
    app.http.post(`/v1/applications/${id}/messages`).set(by.auth).send({ body }).expect(201);
  const exported = async (owner: TestAccount) =>
    (await app.http.get('/v1/account/export').set(owner.auth).expect(200)).body as Json;

  beforeAll(async () => {
    app = await createApiApp();
    worker = await startServing('worker');
  });
  afterAll(async () => {
    await Promise.all([app?.close(), worker?.stop()]);
  });

  /**
   * `leaving` lists two pets and applies for two of `other`'s: on each side one application under review
   * with a message of each party and a meeting, one submitted (the other side's contact unseen by a
   * lister), and on its applicant side one approved, whose order holds `other`'s pet.
   */
  async function bothSides() {
    const leaving = await account();
    const other = await account();
    await app.http
      .put('/v1/application-form')
      .set(leaving.auth)
      .send({ fields: [{ name: 'garden', label: 'A garden?', type: 'yesno' }], notifyEmail: 'staff@shelter.example' })
      .expect(200);
    const [ownPet, ownSecond] = [await createPet(app.http, leaving), await createPet(app.http, leaving)];
    const [othersPet, othersSecond, othersThird] = [
      await createPet(app.http, other),
      await createPet(app.http, other),
      await createPet(app.http, other),
    ];
    const apply = async (by: TestAccount, petId: number, body: Record<string, unknown> = {}) =>
      (await submit(app.http, by, petId, body).expect(201)).body as ApplicationDto;
    const received = await apply(other, ownPet.id, { answers: { garden: true }, contact: newContact('kept') });
    await act(app.http, leaving, received.id, 'review').expect(200);
    const receivedSubmitted = await apply(other, ownSecond.id);
    const receivedApproved = await apply(other, (await createPet(app.http, leaving)).id);
    await act(app.http, leaving, receivedApproved.id, 'review').expect(200);
    await act(app.http, leaving, receivedApproved.id, 'approve').expect(200);
    const made = await apply(leaving, othersPet.id, { contact: newContact('erased') });
    await act(app.http, other, made.id, 'review').expect(200);
    const madeSubmitted = await apply(leaving, othersSecond.id);
    const madeApproved = await apply(leaving, othersThird.id);
    await act(app.http, other, madeApproved.id, 'review').expect(200);
    const approved = (await act(app.http, other, madeApproved.id, 'approve').expect(200)).body as ApplicationDto;
    for (const [lister, applicant, id] of [
      [leaving, other, received.id],
      [other, leaving, made.id],
    ] as const) {
      await message(applicant, id, `From the applicant of ${id}`);
      await message(lister, id, `From the lister of ${id}`);
      const meeting = (await propose(app.http, lister, id).expect(201)).body;
      await step(app.http, applicant, meeting, 'accept').expect(200);
    }
    return { leaving, other, received, receivedSubmitted, receivedApproved, made, madeSubmitted, approved, ownPet };
  }

  it('exports the form and the applications of both roles with their messages and meetings', async () => {
    const { leaving, received, receivedSubmitted, receivedApproved, made, madeSubmitted, approved } = await bothSides();
    const document = await exported(leaving);
    expect(document.applicationForm).toMatchObject({ version: 1, notifyEmail: 'staff@shelter.example' });
    const byId = new Map<string, Json>(document.applications.map((application: Json) => [application.id, application]));
    expect([...byId.keys()].sort()).toEqual(
      [received.id, receivedSubmitted.id, receivedApproved.id, made.id, madeSubmitted.id, approved.id].sort(),
    );
    // The applicant's contact where the lister may see it: from under review on, never while submitted.
    expect(byId.get(received.id)).toMatchObject({ role: 'lister', contact: received.contact });
    expect(byId.get(receivedSubmitted.id)).toMatchObject({ role: 'lister' });
    expect(byId.get(receivedSubmitted.id)).not.toHaveProperty('contact');
    expect(byId.get(madeSubmitted.id)).toMatchObject({ role: 'applicant', contact: madeSubmitted.contact });
    for (const id of [received.id, made.id]) {
      expect(byId.get(id)!.messages.map((m: Json) => [m.sender, m.body])).toEqual([
        ['applicant', `From the applicant of ${id}`],
        ['lister', `From the lister of ${id}`],
      ]);
      expect(byId.get(id)!.meetings).toEqual([expect.objectContaining({ applicationId: id, status: 'accepted' })]);
    }
    expect(byId.get(approved.id)).toMatchObject({ status: 'approved', orderId: approved.orderId, messages: [] });
  }, 60_000);

  it('withdraws what it made, closes what it received with its pets, erases its data and keeps the other party’s', async () => {
    const { leaving, other, received, receivedSubmitted, receivedApproved, made, madeSubmitted, approved, ownPet } =
      await bothSides();
    await app.http.delete('/v1/account').set(leaving.auth).send({ confirm: leaving.email }).expect(202);
    await waitFor(
      async () =>
        (await withDatabase((c) => c.query('SELECT erased_at FROM accounts WHERE id = $1', [leaving.accountId])))
          .rows[0].erased_at !== null,
      60_000,
      'the account to be erased',
    );

    const rows = new Map(
      (
        await stored([received.id, receivedSubmitted.id, receivedApproved.id, made.id, madeSubmitted.id, approved.id])
      ).map((row) => [row.id, row]),
    );
    // What it made: withdrawn, its contact, answers and own messages erased; the lister's words stay theirs.
    for (const id of [made.id, madeSubmitted.id, approved.id]) {
      expect(rows.get(id)).toMatchObject({
        status: 'withdrawn',
        contact: null,
        contact_email_canonical: null,
        answers: [],
      });
    }
    expect(rows.get(made.id)!.messages).toEqual([
      { sender: 'applicant', body: null },
      { sender: 'lister', body: `From the lister of ${made.id}` },
    ]);
    expect(rows.get(made.id)!.meetings).toEqual(['cancelled']);
    // Its approved application's order was cancelled as a withdrawal cancels it, and the pet is free.
    const order = (await app.http.get(`/v1/store/orders/${approved.orderId}`).set(other.auth).expect(200)).body;
    expect(order).toMatchObject({ status: 'cancelled', cancellationReason: 'application_withdrawn' });
    // What it received: closed with its pets, the applicant's contact and answers kept, its own messages erased.
    for (const id of [received.id, receivedSubmitted.id]) {
      expect(rows.get(id)).toMatchObject({ status: 'closed', closed_reason: 'pet_removed' });
      expect(rows.get(id)!.contact).not.toBeNull();
    }
    expect(rows.get(received.id)).toMatchObject({ contact: received.contact, answers: received.answers });
    expect(rows.get(received.id)!.messages).toEqual([
      { sender: 'applicant', body: `From the applicant of ${received.id}` },
      { sender: 'lister', body: null },
    ]);
    expect(rows.get(received.id)!.meetings).toEqual(['cancelled']);
    // One it approved follows its order, cancelled because the account was deleted.
    expect(rows.get(receivedApproved.id)).toMatchObject({ status: 'closed', closed_reason: 'order_cancelled' });
    const itsOrder = (await shown(app.http, other, receivedApproved.id)).orderId!;
    expect((await app.http.get(`/v1/store/orders/${itsOrder}`).set(other.auth).expect(200)).body).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'account_deleted',
    });
    expect(await formsOf(leaving.accountId)).toBe(0);
    await app.http.get(`/v1/pets/${ownPet.id}`).set(other.auth).expect(404);

    // The other party keeps its records, as it reads them.
    expect(await shown(app.http, other, received.id)).toMatchObject({
      status: 'closed',
      closedReason: 'pet_removed',
      contact: received.contact,
    });
    expect(await shown(app.http, other, made.id)).toMatchObject({ status: 'withdrawn', answers: [] });
    expect(await shown(app.http, other, made.id)).not.toHaveProperty('contact');
  }, 120_000);

  it('exports the email sent to addresses the account gave, and erases it, sent or still pending', async () => {
    const leaving = await account();
    const other = await account();
    const [toItself, toItsStaff] = await enqueueEmails(app, [
      { ...digestOf(leaving.email, 'srch_own'), accountId: leaving.accountId },
      { ...digestOf('staff@shelter.example', 'srch_staff'), accountId: leaving.accountId },
    ]);
    const [othersEmail] = await enqueueEmails(app, [
      { ...digestOf(other.email, 'srch_other'), accountId: other.accountId },
    ]);
    const document = await exported(leaving);
    expect(document.emails.map((email: Json) => [email.id, email.to, email.template])).toEqual(
      expect.arrayContaining([
        [toItself, leaving.email, 'saved_search_digest'],
        [toItsStaff, 'staff@shelter.example', 'saved_search_digest'],
      ]),
    );
    expect(document.emails).toHaveLength(2);

    await app.http.delete('/v1/account').set(leaving.auth).send({ confirm: leaving.email }).expect(202);
    await waitFor(
      async () =>
        (await withDatabase((c) => c.query('SELECT erased_at FROM accounts WHERE id = $1', [leaving.accountId])))
          .rows[0].erased_at !== null,
      60_000,
      'the account to be erased',
    );
    // Gone, so that one not yet sent never is; another account's stays.
    expect(await emailsOf(leaving.accountId)).toEqual([]);
    expect(await emailsOf(other.accountId)).toEqual([othersEmail]);
  }, 60_000);
});
