import { MESSAGE_SEQS_LOCK } from '@app/messaging';
import { SqlCounter } from '../bench/support/sql-counter';
import type { TestAccount } from './support/factories';
import { shutInsertGate, withDatabase } from './support/database';
import type { TestHttpApp } from './support/http-app';
import {
  createAccount,
  createMessagesApp,
  startWorker,
  storedMessage,
  waitForEnqueued,
  waitForStatus,
} from './support/messages';
import { AppProcess, waitFor } from './support/processes';
import { windowWithRoom } from './support/rate-limiting';
import { TEST_DATABASE_URL } from './support/test-env';

const MESSAGE_ID = /^msg_[0-9A-Za-z]{24}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('the messages app (POST /messages, GET /messages/{id}, GET /messages)', () => {
  let app: TestHttpApp;
  let account: TestAccount;
  // The app's statements, counted on the wire between it and PostgreSQL.
  let sql: SqlCounter;

  const send = (body: string | object, auth: Record<string, string> = account.auth) =>
    app.http.post('/messages').set(auth).send(body);
  const countStored = (accountId: number) =>
    withDatabase(async (client) => {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM messages WHERE account_id = $1', [accountId]);
      return rows[0].n as number;
    });

  beforeAll(async () => {
    const url = new URL(TEST_DATABASE_URL);
    sql = new SqlCounter({ host: url.hostname, port: Number(url.port) });
    url.port = String(await sql.listen());
    app = await createMessagesApp({ env: { DATABASE_URL: url.toString() } });
    account = await createAccount(app);
  });
  afterAll(async () => {
    await app.close();
    await sql.close();
  });

  describe('POST /messages (sendMessage)', () => {
    it('answers 202 with Location and the Message, stored before the answer, then enqueued', async () => {
      const response = await send({ message: 'Rex has found a home!' }).expect(202);
      expect(response.body).toEqual({
        id: expect.stringMatching(MESSAGE_ID),
        message: 'Rex has found a home!',
        status: 'queued',
        createdAt: expect.stringMatching(ISO_UTC),
      });
      expect(response.headers.location).toBe(`/messages/${response.body.id}`);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const stored = await storedMessage(response.body.id);
      expect(stored).toMatchObject({
        account_id: String(account.accountId),
        message: 'Rex has found a home!',
        attempts: 0,
        last_error: null,
      });
      expect(stored!.created_at.toISOString()).toBe(response.body.createdAt);
      // Enqueued then: `enqueued_at` is recorded once Redis has taken the job, which may be after the answer.
      await waitForEnqueued(response.body.id);
    });

    it('is rate limited like every operation: the account’s headers on success and errors', async () => {
      await windowWithRoom(60, 5000);
      const accepted = await send({ message: 'counted' }).expect(202);
      expect(accepted.headers['x-ratelimit-limit']).toBeDefined();
      expect(Number(accepted.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      const refused = await send({ message: '' }).expect(400);
      expect(Number(refused.headers['x-ratelimit-remaining'])).toBe(
        Number(accepted.headers['x-ratelimit-remaining']) - 1,
      );
      const anonymous = await app.http.post('/messages').send({ message: 'no key' }).expect(401);
      expect(anonymous.headers['x-ratelimit-limit']).toBeDefined();
    });

    it('replays a retry with the same Idempotency-Key without storing a second message', async () => {
      const before = await countStored(account.accountId);
      const first = await send({ message: 'exactly once' }).set('Idempotency-Key', 'message-retry-1').expect(202);
      const retry = await send({ message: 'exactly once' }).set('Idempotency-Key', 'message-retry-1').expect(202);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.location).toBe(first.headers.location);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(await countStored(account.accountId)).toBe(before + 1);
      const reused = await send({ message: 'something else' }).set('Idempotency-Key', 'message-retry-1').expect(422);
      expect(reused.body).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    });

    it('stores and enqueues each of many messages sent at once in shared statements, each answered with its own', async () => {
      // Two accounts sending together, so that requests of both share the store's batches.
      const senders = [account, await createAccount(app)];
      const sent = senders.flatMap((sender) =>
        Array.from({ length: 20 }, (_, i) => ({ sender, text: `together ${sender.accountId}/${i}` })),
      );
      sql.reset();
      const answers = await Promise.all(sent.map(({ sender, text }) => send({ message: text }, sender.auth)));
      const inserts = sql.countOf('INSERT INTO messages');
      // Requests that arrive while a batch is written go together in the next one.
      expect(inserts).toBeGreaterThan(0);
      expect(inserts).toBeLessThan(sent.length);
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(sent.length);
      for (const [i, { sender, text }] of sent.entries()) {
        expect(answers[i]!.status).toBe(202);
        expect(answers[i]!.body).toMatchObject({ message: text, status: 'queued' });
        expect(answers[i]!.headers.location).toBe(`/messages/${answers[i]!.body.id}`);
        const stored = await waitForEnqueued(answers[i]!.body.id);
        expect(stored).toMatchObject({ account_id: String(sender.accountId), message: text });
        expect(stored.created_at.toISOString()).toBe(answers[i]!.body.createdAt);
      }
    });

    it('accepts a message of whitespace only, stored exactly as sent', async () => {
      const response = await send({ message: ' \n\t ' }).expect(202);
      expect(response.body.message).toBe(' \n\t ');
      expect((await storedMessage(response.body.id))!.message).toBe(' \n\t ');
    });

    it('accepts a charset parameter and 1600 characters, counting an emoji as one', async () => {
      const message = '🐶'.repeat(1600);
      const response = await app.http
        .post('/messages')
        .set(account.auth)
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ message }))
        .expect(202);
      expect(response.body.message).toBe(message);
      expect((await storedMessage(response.body.id))!.message).toBe(message);
    });

    it.each([
      ['a missing message', {}, 'message'],
      ['an empty message', { message: '' }, 'message'],
      ['a number as message', { message: 42 }, 'message'],
      ['null as message', { message: null }, 'message'],
      ['an array as message', { message: ['hi'] }, 'message'],
      ['a message over 1600 characters', { message: 'x'.repeat(1601) }, 'message'],
      ['a message with a NUL character', { message: 'a\u0000b' }, 'message'],
      ['a message with an unpaired surrogate', { message: 'a\ud800b' }, 'message'],
      // 1601 characters to PostgreSQL, which counts each variation selector.
      ['a message over 1600 characters with variation selectors', { message: `${'❤\ufe0f'.repeat(800)}x` }, 'message'],
      ['an unknown field', { message: 'hi', priority: 'high' }, 'priority'],
    ])('rejects %s with 400 validation_failed naming the field, storing nothing', async (_case, body, field) => {
      const before = await countStored(account.accountId);
      const response = await send(body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(response.body.message).toContain(field);
      expect(await countStored(account.accountId)).toBe(before);
    });

    it('rejects a JSON body that is not an object with validation_failed', async () => {
      const response = await send(['hi']).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('rejects a request without a body with validation_failed', async () => {
      const response = await app.http.post('/messages').set(account.auth).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('rejects malformed JSON with invalid_json', async () => {
      const response = await app.http
        .post('/messages')
        .set(account.auth)
        .set('Content-Type', 'application/json')
        .send('{"message": "hi"')
        .expect(400);
      expect(response.body).toEqual({ code: 'invalid_json', message: expect.any(String), status: 400 });
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp'])(
      'rejects Content-Type %s with unsupported_content_type',
      async (contentType) => {
        const response = await app.http
          .post('/messages')
          .set(account.auth)
          .set('Content-Type', contentType)
          .send('message=hi')
          .expect(400);
        expect(response.body).toMatchObject({ code: 'unsupported_content_type', status: 400 });
      },
    );

    it.each([
      ['no Authorization header', {}],
      ['an unknown key', { Authorization: 'Bearer pet_test_0000000000000000000000000000000000000000' }],
      ['another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }],
    ])('answers 401 unauthorized with %s, before looking at the body', async (_case, auth) => {
      const response = await app.http.post('/messages').set(auth).set('Content-Type', 'text/plain').send('hi');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });
  });

  describe('GET /messages/{id}', () => {
    it('returns the caller’s message with its current status', async () => {
      const sent = (await send({ message: 'fetch me' }).expect(202)).body;
      const response = await app.http.get(`/messages/${sent.id}`).set(account.auth).expect(200);
      expect(response.body).toEqual(sent);
    });

    it('answers 404 not_found for another account’s message', async () => {
      const sent = (await send({ message: 'mine only' }).expect(202)).body;
      const stranger = await createAccount(app);
      const response = await app.http.get(`/messages/${sent.id}`).set(stranger.auth).expect(404);
      expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
    });

    it.each(['msg_000000000000000000000000', 'not-an-id'])('answers 404 not_found for %s', async (id) => {
      const response = await app.http.get(`/messages/${id}`).set(account.auth).expect(404);
      expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('answers 401 without a key', async () => {
      await app.http.get('/messages/msg_000000000000000000000000').expect(401);
    });
  });

  describe('GET /messages', () => {
    let lister: TestAccount;
    let sentIds: string[];

    /** Follows `Link: <…>; rel="next"` from the first page to the last. */
    const walk = async (firstPath: string, auth = lister.auth) => {
      const seen: string[] = [];
      let path: string | undefined = firstPath;
      while (path) {
        const response: { body: Array<{ id: string }>; headers: { link?: string } } = await app.http
          .get(path)
          .set(auth)
          .expect(200);
        seen.push(...response.body.map((message) => message.id));
        path = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1];
      }
      return seen;
    };

    beforeAll(async () => {
      lister = await createAccount(app);
      sentIds = [];
      for (let i = 0; i < 5; i++) {
        sentIds.push((await send({ message: `note ${i}` }, lister.auth).expect(202)).body.id);
      }
      await withDatabase((client) => client.query(`UPDATE messages SET status = 'failed' WHERE id = $1`, [sentIds[1]]));
    });

    it('lists only the caller’s messages, newest first', async () => {
      const response = await app.http.get('/messages').set(lister.auth).expect(200);
      expect(response.body.map((message: { id: string }) => message.id)).toEqual([...sentIds].reverse());
      expect(response.body[0]).toEqual({
        id: sentIds[4],
        message: 'note 4',
        status: 'queued',
        createdAt: expect.stringMatching(ISO_UTC),
      });
      expect(response.headers.link).toBeUndefined();
    });

    it('paginates with Link rel="next", visiting every message once', async () => {
      const first = await app.http.get('/messages?limit=2').set(lister.auth).expect(200);
      expect(first.body).toHaveLength(2);
      expect(first.headers.link).toMatch(/^<\/messages\?limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
      expect(await walk('/messages?limit=2')).toEqual([...sentIds].reverse());
    });

    it('filters by status and keeps the filter in the next link', async () => {
      const failed = await app.http.get('/messages?status=failed').set(lister.auth).expect(200);
      expect(failed.body.map((message: { id: string }) => message.id)).toEqual([sentIds[1]]);
      const queued = await app.http.get('/messages?status=queued&limit=1').set(lister.auth).expect(200);
      expect(queued.headers.link).toContain('status=queued');
      expect(await walk('/messages?status=queued&limit=1')).toEqual(
        [...sentIds].reverse().filter((id) => id !== sentIds[1]),
      );
    });

    it('lets a client that asks only for what is newer than it saw miss no message stored by another process', async () => {
      const reader = await createAccount(app);
      const gate = await shutInsertGate('messages', 'message', 'Late commit');
      let otherProcess: TestHttpApp | undefined;
      try {
        // A second messages process, with its own batches and connections.
        otherProcess = await createMessagesApp();
        // then() sends it now: supertest sends a request only once it is awaited.
        const late = send({ message: 'Late commit' }, reader.auth)
          .expect(202)
          .then((response) => response.body.id as string);
        await waitFor(() => gate.isHolding(), 10000, "the late message's INSERT at the gate");

        // The client lists its messages as soon as the other process has accepted a later one…
        let listed = false;
        const firstListing = otherProcess.http
          .post('/messages')
          .set(reader.auth)
          .send({ message: 'Early commit' })
          .expect(202)
          .then(async () => {
            const ids = await walk('/messages?limit=100', reader.auth);
            listed = true;
            return ids;
          });
        // Open the gate once the listing is over, or once the later message is seen waiting for the late one.
        await waitFor(
          async () => listed || (await gate.waitsForLock(MESSAGE_SEQS_LOCK)),
          10000,
          'the listing or a waiting INSERT',
        );
        await gate.open();
        const [lateId, listedFirst] = await Promise.all([late, firstListing]);

        // …and later takes only the messages above the newest it had seen.
        const newer: string[] = [];
        for (const id of await walk('/messages?limit=100', reader.auth)) {
          if (id === listedFirst[0]) break;
          newer.push(id);
        }
        expect([...newer, ...listedFirst]).toContain(lateId);
      } finally {
        // The gate first: the other process may be waiting for the gated INSERT.
        try {
          await gate.remove();
        } finally {
          await otherProcess?.close();
        }
      }
    });

    it.each(['limit=0', 'limit=101', 'limit=ten', 'status=lost', 'cursor=not-a-cursor', 'unknown=1'])(
      'rejects %s with 400 validation_failed',
      async (query) => {
        const response = await app.http.get(`/messages?${query}`).set(lister.auth).expect(400);
        expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
      },
    );

    it('answers 401 without a key', async () => {
      await app.http.get('/messages').expect(401);
    });
  });

  describe('delivery by a real worker process (log transport)', () => {
    let worker: AppProcess & { baseUrl: string };

    beforeAll(async () => {
      worker = await startWorker({ LOG_LEVEL: 'info' });
    });
    afterAll(() => worker.stop());

    it('takes a message from queued to sent and writes it as one structured log line', async () => {
      const accepted = (await send({ message: 'to the log' }).expect(202)).body;
      const stored = await waitForStatus(accepted.id, 'sent');
      expect(stored).toMatchObject({ attempts: 1, last_error: null, failed_at: null });
      expect(stored.sending_at).toBeInstanceOf(Date);
      expect(stored.sent_at).toBeInstanceOf(Date);
      const current = await app.http.get(`/messages/${accepted.id}`).set(account.auth).expect(200);
      expect(current.body).toEqual({ ...accepted, status: 'sent' });

      const logged = () => worker.logLines().find((line) => line.messageId === accepted.id);
      await waitFor(async () => logged() !== undefined, 5000, 'the log line');
      expect(logged()).toMatchObject({ msg: 'message sent', message: 'to the log', createdAt: accepted.createdAt });
    });

    it('exposes Prometheus metrics: jobs, delivery latency and queue depth', async () => {
      const metric = async (pattern: RegExp) =>
        Number(pattern.exec(await (await fetch(`${worker.baseUrl}/metrics`)).text())?.[1] ?? NaN);
      const completed = /^message_jobs_total\{result="completed"[^}]*\} (\d+)$/m;
      const delivered = /^message_delivery_seconds_count(?:\{[^}]*\})? (\d+)$/m;
      const before = { completed: (await metric(completed)) || 0, delivered: (await metric(delivered)) || 0 };

      const accepted = (await send({ message: 'measured' }).expect(202)).body;
      await waitForStatus(accepted.id, 'sent');
      // At least: a job left in the shared queue by an earlier suite may complete meanwhile.
      await waitFor(async () => (await metric(completed)) >= before.completed + 1, 5000, 'the job counter');
      expect(await metric(delivered)).toBeGreaterThanOrEqual(before.delivered + 1);
      expect(await metric(/^message_queue_jobs\{state="waiting"[^}]*\} (\d+)$/m)).toBeGreaterThanOrEqual(0);
      expect(await metric(/^process_resident_memory_bytes(?:\{[^}]*\})? (\d+)$/m)).toBeGreaterThan(0);
    });
  });

  describe('documentation', () => {
    it('serves its own OpenAPI document: sendMessage with the messages servers entry and the Message schema', async () => {
      const doc = (await app.http.get('/docs/openapi.json').expect(200)).body;
      const sendMessage = doc.paths['/messages'].post;
      expect(sendMessage.operationId).toBe('sendMessage');
      expect(sendMessage.servers).toEqual([{ url: 'http://localhost:3001', description: expect.any(String) }]);
      expect(Object.keys(sendMessage.responses)).toEqual(expect.arrayContaining(['202', '400', '401']));
      expect(doc.paths['/messages/{id}'].get.servers).toEqual(sendMessage.servers);
      expect(doc.components.schemas.Message.required).toEqual(['id', 'message', 'status', 'createdAt']);
      expect(doc.components.schemas.NewMessage.required).toEqual(['message']);
      expect((await app.http.get('/docs').expect(200)).text).toContain('swagger-ui');
    });
  });
});
