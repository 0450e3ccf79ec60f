import { Sql } from '@app/database';
import { EmailOutbox } from '@app/email';
import { createApiApp } from '../support/api-app';
import { cli } from '../support/cli';
import { withDatabase } from '../support/database';
import {
  digestOf,
  enqueueEmails,
  headerLines,
  settleEarlierEmails,
  storedEmail,
  testAddress,
  TestSmtpServer,
  unsubscribeUrlOf,
  waitForEmailStatus,
} from '../support/email';
import type { TestHttpApp } from '../support/http-app';
import { startWorker } from '../support/messages';
import type { AppProcess } from '../support/processes';

/** Short enough for tests, same semantics. */
const EMAIL_TEST_ENV = { EMAIL_BACKOFF_MS: '200', EMAIL_FROM: 'Pet Adoption <pets@mail.test>' };

describe('email delivery by a real worker process to a real SMTP server', () => {
  const smtp = new TestSmtpServer();
  let app: TestHttpApp;
  let worker: AppProcess;

  beforeAll(async () => {
    const [url] = await Promise.all([smtp.start(), settleEarlierEmails()]);
    app = await createApiApp({ env: EMAIL_TEST_ENV });
    worker = await startWorker({
      ...EMAIL_TEST_ENV,
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: url,
      PUBLIC_BASE_URL_PRODUCTION: 'https://pets.test/v1',
    });
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await app?.close();
    await smtp.stop();
  });
  beforeEach(() => {
    smtp.refuseRecipient = () => undefined;
    smtp.refuseMessage = () => undefined;
  });

  it('sends a multipart email with a Message-ID of its own and one-click unsubscribe headers', async () => {
    const to = testAddress('headers');
    const [first, second] = await enqueueEmails(app, [digestOf(to, 'srch_a', 'Rex'), digestOf(to, 'srch_b', 'Mia')]);
    const emails = await smtp.waitFor(to, 2);
    await waitForEmailStatus(first!, 'sent');
    await waitForEmailStatus(second!, 'sent');
    const byId = (id: string) => emails.find((email) => email.parsed.messageId === `<${id}@mail.test>`)!;
    const { parsed, raw } = byId(first!);
    expect(byId(second!).parsed.messageId).not.toBe(parsed.messageId);
    expect(parsed.from!.value).toEqual([{ name: 'Pet Adoption', address: 'pets@mail.test' }]);
    expect((parsed.to as { text: string }).text).toBe(to);
    expect(parsed.subject).toBe('1 new animal matches “Calm cats”');
    const url = unsubscribeUrlOf(raw);
    expect(url).toMatch(/^https:\/\/pets\.test\/v1\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(headerLines(raw)).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(headerLines(raw)).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(parsed.text).toContain('Rex (pet 7)');
    expect(parsed.text).toContain(`Unsubscribe: ${url}`);
    expect(parsed.html).toContain('<li>Rex (pet 7)</li>');
    expect(parsed.html).toContain(`href="${url}"`);
    expect(byId(second!).parsed.text).toContain('Mia (pet 7)');
  });

  it('writes nothing when the transaction rolls back, and refuses to write outside one', async () => {
    const to = testAddress('rollback');
    const sql = app.app.get(Sql);
    await expect(
      sql.transaction(async () => {
        await enqueueEmails(app, [digestOf(to, 'srch_r')]);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await expect(app.app.get(EmailOutbox).enqueue([digestOf(to, 'srch_r')])).rejects.toThrow(/inside the transaction/);
    const count = await withDatabase(
      async (client) =>
        (await client.query('SELECT count(*)::int AS n FROM email_notifications WHERE address = $1', [to])).rows[0].n,
    );
    expect(count).toBe(0);
  });

  it('retries after a 4xx with a growing delay, and sends once when accepted', async () => {
    const to = testAddress('deferred');
    const refusedAt: number[] = [];
    smtp.refuseMessage = (recipients) => {
      if (!recipients.includes(to) || refusedAt.length === 2) return undefined;
      refusedAt.push(Date.now());
      return { code: 451, message: 'Try again later' };
    };
    const [id] = await enqueueEmails(app, [digestOf(to, 'srch_d')]);
    const sent = await waitForEmailStatus(id!, 'sent');
    expect(sent.attempts).toBe(3);
    expect(smtp.to(to)).toHaveLength(1);
    // The second retry waits twice as long as the first (200 ms, then 400 ms).
    expect(refusedAt[1]! - refusedAt[0]!).toBeGreaterThanOrEqual(200);
  });

  it('suppresses an address after a permanent 5xx, until it asks again', async () => {
    const to = testAddress('bounced');
    smtp.refuseRecipient = (address) => (address === to ? { code: 550, message: 'No such user' } : undefined);
    const [bounced] = await enqueueEmails(app, [digestOf(to, 'srch_x')]);
    expect(await waitForEmailStatus(bounced!, 'bounced')).toMatchObject({
      attempts: 1,
      last_error: expect.stringContaining('550'),
    });
    smtp.refuseRecipient = () => undefined;
    // Any list: the address itself refused.
    const [stopped] = await enqueueEmails(app, [digestOf(to, 'srch_y')]);
    expect(await waitForEmailStatus(stopped!, 'suppressed')).toMatchObject({ attempts: 0 });
    expect(smtp.recipients.filter((address) => address === to)).toHaveLength(1);

    await app.app.get(EmailOutbox).askAgain([{ address: to, list: { kind: 'saved_search', id: 'srch_y' } }]);
    const [again] = await enqueueEmails(app, [digestOf(to, 'srch_y')]);
    await waitForEmailStatus(again!, 'sent');
    expect(smtp.to(to)).toHaveLength(1);
    expect((await storedEmail(stopped!))!.status).toBe('suppressed');
  });

  it('shows an operator what was sent to an address and why the rest stopped (the CLI’s email-history)', async () => {
    const to = testAddress('history');
    smtp.refuseRecipient = (address) => (address === to ? { code: 550, message: 'No such user' } : undefined);
    const [bounced] = await enqueueEmails(app, [digestOf(to, 'srch_h1')]);
    await waitForEmailStatus(bounced!, 'bounced');
    const [suppressed] = await enqueueEmails(app, [digestOf(to, 'srch_h2')]);
    await waitForEmailStatus(suppressed!, 'suppressed');

    const report = (await cli('email-history', to.toUpperCase())) as Record<string, unknown>;
    expect(report).toEqual({
      address: to,
      suppression: { reason: expect.stringContaining('550'), createdAt: expect.any(String) },
      unsubscribes: [],
      emails: [
        expect.objectContaining({ id: suppressed, list: 'saved_search:srch_h2', status: 'suppressed', attempts: 0 }),
        expect.objectContaining({ id: bounced, list: 'saved_search:srch_h1', status: 'bounced', attempts: 1 }),
      ],
    });
  });

  describe('the unsubscribe link', () => {
    /** The path of an email's link under the server's root, and its address's second email of the same list. */
    const linkOf = async (label: string) => {
      const to = testAddress(label);
      await enqueueEmails(app, [digestOf(to, `srch_${label}`)]);
      const [email] = await smtp.waitFor(to);
      return { to, path: new URL(unsubscribeUrlOf(email!.raw)).pathname };
    };

    it('shows a page whose button POSTs, and changes nothing by itself', async () => {
      const { to, path } = await linkOf('page');
      const page = await app.http.get(path).expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('<form method="post">');
      expect(page.text).toContain(to.toLowerCase());
      const [again] = await enqueueEmails(app, [digestOf(to, 'srch_page')]);
      await waitForEmailStatus(again!, 'sent');
    });

    it.each([
      ['the one-click form body', 'List-Unsubscribe=One-Click'],
      ['no body', undefined],
    ])('unsubscribes the address from that list only, with %s, harmlessly again', async (_label, body) => {
      const { to, path } = await linkOf(body ? 'form' : 'empty');
      const post = () => {
        const request = app.http.post(path);
        return body ? request.type('form').send(body) : request;
      };
      const answer = await post().expect(200);
      expect(answer.text).toContain('You are unsubscribed');
      await post().expect(200);
      const [stopped, other] = await enqueueEmails(app, [
        digestOf(to, `srch_${body ? 'form' : 'empty'}`),
        digestOf(to, 'srch_other'),
      ]);
      expect(await waitForEmailStatus(stopped!, 'unsubscribed')).toMatchObject({ attempts: 0 });
      await waitForEmailStatus(other!, 'sent');
      const { unsubscribes } = (await cli('email-history', to)) as { unsubscribes: Array<{ list: string }> };
      expect(unsubscribes).toEqual([expect.objectContaining({ list: `saved_search:srch_${body ? 'form' : 'empty'}` })]);
    });

    it('answers 404 for a token altered or not signed by the service', async () => {
      const { path } = await linkOf('tampered');
      const [payload, mac] = path.split('/').at(-1)!.split('.');
      const forged = Buffer.from(JSON.stringify(['someone@mail.test', 'saved_search:srch_tampered'])).toString(
        'base64url',
      );
      for (const token of [`${forged}.${mac}`, `${payload}.${mac!.slice(0, -2)}AA`, 'nonsense', `${payload}`]) {
        for (const request of [app.http.get(`/v1/unsubscribe/${token}`), app.http.post(`/v1/unsubscribe/${token}`)]) {
          const answer = await request.expect(404);
          expect(answer.body).toEqual({ code: 'not_found', status: 404, message: expect.any(String) });
        }
      }
    });

    it('refuses a body of another type', async () => {
      const { path } = await linkOf('types');
      const answer = await app.http.post(path).set('Content-Type', 'text/plain').send('List-Unsubscribe=One-Click');
      expect(answer.body).toMatchObject({ status: 400, code: 'unsupported_content_type' });
    });
  });
});
