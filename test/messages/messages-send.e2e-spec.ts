import { SqlCounter } from '../../bench/support/sql-counter';
import { withDatabase } from '../support/database';
import {
  createAccount,
  ISO_UTC,
  MESSAGE_ID,
  storedMessage,
  useMessagesApp,
  waitForEnqueued,
} from '../support/messages';
import { windowWithRoom } from '../support/rate-limiting';
import { TEST_DATABASE_URL } from '../support/test-env';

describe('the messages app: POST /messages', () => {
  // The app's statements, counted on the wire between it and PostgreSQL.
  const database = new URL(TEST_DATABASE_URL);
  const sql = new SqlCounter({ host: database.hostname, port: Number(database.port) });
  const suite = useMessagesApp(async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.port = String(await sql.listen());
    return { env: { DATABASE_URL: url.toString() } };
  });
  afterAll(() => sql.close());

  const send = (body: string | object, auth: Record<string, string> = suite.account.auth) =>
    suite.app.http.post('/messages').set(auth).send(body);
  const countStored = (accountId: number) =>
    withDatabase(async (client) => {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM messages WHERE account_id = $1', [accountId]);
      return rows[0].n as number;
    });

  describe('POST /messages (sendMessage)', () => {
    it('answers 202 with Location and the Message, stored before the answer, then enqueued', async () => {
      const response = await send({ message: 'Rex has found a home!' }).expect(202);
      expect(response.body).toEqual({
        id: expect.stringMatching(MESSAGE_ID),
        message: 'Rex has found a home!',
        status: 'queued',
        createdAt: expect.stringMatching(ISO_UTC),
        attempts: 0,
        sentAt: null,
        lastError: null,
      });
      expect(response.headers.location).toBe(`/messages/${response.body.id}`);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const stored = await storedMessage(response.body.id);
      expect(stored).toMatchObject({
        account_id: String(suite.account.accountId),
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
      const anonymous = await suite.app.http.post('/messages').send({ message: 'no key' }).expect(401);
      expect(anonymous.headers['x-ratelimit-limit']).toBeDefined();
    });

    it('replays a retry with the same Idempotency-Key without storing a second message', async () => {
      const before = await countStored(suite.account.accountId);
      const first = await send({ message: 'exactly once' }).set('Idempotency-Key', 'message-retry-1').expect(202);
      const retry = await send({ message: 'exactly once' }).set('Idempotency-Key', 'message-retry-1').expect(202);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.location).toBe(first.headers.location);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(await countStored(suite.account.accountId)).toBe(before + 1);
      const reused = await send({ message: 'something else' }).set('Idempotency-Key', 'message-retry-1').expect(422);
      expect(reused.body).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    });

    it('stores and enqueues each of many messages sent at once in shared statements, each answered with its own', async () => {
      // Two accounts sending together, so that requests of both share the store's batches.
      const senders = [suite.account, await createAccount(suite.app)];
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
      const response = await suite.app.http
        .post('/messages')
        .set(suite.account.auth)
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
      const before = await countStored(suite.account.accountId);
      const response = await send(body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(response.body.message).toContain(field);
      expect(await countStored(suite.account.accountId)).toBe(before);
    });

    it('rejects a JSON body that is not an object with validation_failed', async () => {
      const response = await send(['hi']).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('rejects a request without a body with validation_failed', async () => {
      const response = await suite.app.http.post('/messages').set(suite.account.auth).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('rejects malformed JSON with invalid_json', async () => {
      const response = await suite.app.http
        .post('/messages')
        .set(suite.account.auth)
        .set('Content-Type', 'application/json')
        .send('{"message": "hi"')
        .expect(400);
      expect(response.body).toEqual({ code: 'invalid_json', message: expect.any(String), status: 400 });
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp'])(
      'rejects Content-Type %s with unsupported_content_type',
      async (contentType) => {
        const response = await suite.app.http
          .post('/messages')
          .set(suite.account.auth)
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
      const response = await suite.app.http.post('/messages').set(auth).set('Content-Type', 'text/plain').send('hi');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });
  });
});
