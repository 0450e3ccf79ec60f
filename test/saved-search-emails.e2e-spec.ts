import { randomUUID } from 'node:crypto';
import { createApiApp } from './support/api-app';
import { withDatabase } from './support/database';
import { settleEarlierEmails, TestSmtpServer } from './support/email';
import { createPet, signUp, type TestAccount } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { startWorker } from './support/messages';
import { type AppProcess, waitFor } from './support/processes';

/** Six seconds between two digests of a search: long enough to tell, short enough to wait for. */
const DIGEST_MINUTES = 0.1;

describe('saved searches with email alerts, digested by a real worker to a real SMTP server', () => {
  const smtp = new TestSmtpServer();
  let app: TestHttpApp;
  let worker: AppProcess;
  let lister: TestAccount;

  /** A search of its own tag, so that no other suite's pets match it. */
  const save = async (account: TestAccount, body: Record<string, unknown> = {}) => {
    const tag = `mail${randomUUID().slice(0, 8)}`;
    const response = await app.http
      .post('/v1/saved-searches')
      .set(account.auth)
      .send({ name: 'Calm ones', query: `tag=${tag}`, ...body })
      .expect(201);
    return { search: response.body as { id: string; emailAlerts: boolean }, tag };
  };
  /** The times the outbox wrote the digests to an address, oldest first. */
  const digestTimes = (address: string) =>
    withDatabase(async (client) =>
      (
        await client.query<{ created_at: Date }>(
          `SELECT created_at FROM email_notifications WHERE address = $1 ORDER BY created_at`,
          [address],
        )
      ).rows.map((row) => row.created_at.getTime()),
    );

  beforeAll(async () => {
    const [url] = await Promise.all([smtp.start(), settleEarlierEmails()]);
    app = await createApiApp();
    worker = await startWorker({
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: url,
      EMAIL_BACKOFF_MS: '200',
      SAVED_SEARCH_MATCH_INTERVAL_MS: '100',
      SAVED_SEARCH_EMAIL_MINUTES: String(DIGEST_MINUTES),
    });
    lister = await signUp(app.http);
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await app?.close();
    await smtp.stop();
  });
  beforeEach(() => {
    smtp.refuseRecipient = () => undefined;
  });

  it('takes emailAlerts on POST (false by default) and PATCH, with the name, for the owner only', async () => {
    const adopter = await signUp(app.http);
    const { search: plain } = await save(adopter);
    expect(plain.emailAlerts).toBe(false);
    const patched = await app.http
      .patch(`/v1/saved-searches/${plain.id}`)
      .set(adopter.auth)
      .send({ emailAlerts: true })
      .expect(200);
    expect(patched.body).toMatchObject({ id: plain.id, name: 'Calm ones', emailAlerts: true });
    const renamed = await app.http
      .patch(`/v1/saved-searches/${plain.id}`)
      .set(adopter.auth)
      .send({ name: 'Renamed' })
      .expect(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', emailAlerts: true });
    const read = await app.http.get(`/v1/saved-searches/${plain.id}`).set(adopter.auth).expect(200);
    expect(read.body).toEqual(renamed.body);

    const bad = await app.http
      .patch(`/v1/saved-searches/${plain.id}`)
      .set(adopter.auth)
      .send({ emailAlerts: 'yes' })
      .expect(400);
    expect(bad.body.code).toBe('validation_failed');
    await app.http.patch(`/v1/saved-searches/${plain.id}`).set(adopter.auth).send({ query: 'tag=x' }).expect(400);
    const other = await signUp(app.http);
    await app.http.patch(`/v1/saved-searches/${plain.id}`).set(other.auth).send({ emailAlerts: false }).expect(404);
  });

  it('emails the first match within the minute, then at most one digest per interval listing what matched since', async () => {
    const adopter = await signUp(app.http);
    const { tag } = await save(adopter, { emailAlerts: true });
    // The same search without email alerts: never emailed.
    await save(adopter, { name: 'Silent', query: `tag=${tag}` });
    const first = await createPet(app.http, lister, { name: 'Biscuit', tags: [tag] });
    const [email] = await smtp.waitFor(adopter.email, 1, 60_000);
    expect(email!.parsed.subject).toBe('1 new animal matches “Calm ones”');
    expect(email!.parsed.text).toContain(`Biscuit (pet ${first.id})`);
    expect(email!.parsed.text).toContain('/v1/unsubscribe/');

    const second = await createPet(app.http, lister, { name: 'Pepper', tags: [tag] });
    const third = await createPet(app.http, lister, { name: 'Juniper', tags: [tag] });
    const emails = await smtp.waitFor(adopter.email, 2, 60_000);
    const digest = emails[1]!.parsed;
    expect(digest.subject).toBe('2 new animals match “Calm ones”');
    expect(digest.text).toContain(`Pepper (pet ${second.id})`);
    expect(digest.text).toContain(`Juniper (pet ${third.id})`);
    expect(digest.text).not.toContain('Biscuit');
    const [firstAt, secondAt] = await digestTimes(adopter.email);
    expect(secondAt! - firstAt!).toBeGreaterThanOrEqual(DIGEST_MINUTES * 60_000);
    expect(await digestTimes(adopter.email)).toHaveLength(2);
    expect(smtp.to(adopter.email).map((sent) => sent.parsed.subject)).toEqual([
      expect.stringContaining('Calm ones'),
      expect.stringContaining('Calm ones'),
    ]);
  });

  it('asks again after a permanent refusal when email alerts are turned on again', async () => {
    const adopter = await signUp(app.http);
    const { search, tag } = await save(adopter, { emailAlerts: true });
    smtp.refuseRecipient = (address) =>
      address === adopter.email ? { code: 550, message: 'No such user' } : undefined;
    await createPet(app.http, lister, { name: 'Bounced', tags: [tag] });
    await waitForSuppression(adopter.email);
    smtp.refuseRecipient = () => undefined;

    await app.http.patch(`/v1/saved-searches/${search.id}`).set(adopter.auth).send({ emailAlerts: true }).expect(200);
    await createPet(app.http, lister, { name: 'Welcome', tags: [tag] });
    const [email] = await smtp.waitFor(adopter.email, 1, 60_000);
    expect(email!.parsed.text).toContain('Welcome');
  });
});

/** Waits until an address is suppressed. */
async function waitForSuppression(address: string): Promise<void> {
  await waitFor(
    () =>
      withDatabase(
        async (client) =>
          (await client.query('SELECT FROM email_suppressions WHERE address_key = lower($1)', [address])).rowCount ===
          1,
      ),
    60_000,
    `${address} to be suppressed`,
  );
}
