import { MESSAGE_SEQS_LOCK } from '@app/messaging';
import type { TestAccount } from '../support/factories';
import { shutInsertGate, withDatabase } from '../support/database';
import type { TestHttpApp } from '../support/http-app';
import { createAccount, createMessagesApp, ISO_UTC, useMessagesApp } from '../support/messages';
import { waitFor } from '../support/processes';

describe('the messages app: GET /messages/{id}, GET /messages and its document', () => {
  const suite = useMessagesApp();
  const send = (body: string | object, auth: Record<string, string> = suite.account.auth) =>
    suite.app.http.post('/messages').set(auth).send(body);

  describe('GET /messages/{id}', () => {
    it('returns the caller’s message with its current status', async () => {
      const sent = (await send({ message: 'fetch me' }).expect(202)).body;
      const response = await suite.app.http.get(`/messages/${sent.id}`).set(suite.account.auth).expect(200);
      expect(response.body).toEqual(sent);
    });

    it('answers 404 not_found for another account’s message', async () => {
      const sent = (await send({ message: 'mine only' }).expect(202)).body;
      const stranger = await createAccount(suite.app);
      const response = await suite.app.http.get(`/messages/${sent.id}`).set(stranger.auth).expect(404);
      expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
    });

    it.each(['msg_000000000000000000000000', 'not-an-id'])('answers 404 not_found for %s', async (id) => {
      const response = await suite.app.http.get(`/messages/${id}`).set(suite.account.auth).expect(404);
      expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('answers 401 without a key', async () => {
      await suite.app.http.get('/messages/msg_000000000000000000000000').expect(401);
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
        const response: { body: Array<{ id: string }>; headers: { link?: string } } = await suite.app.http
          .get(path)
          .set(auth)
          .expect(200);
        seen.push(...response.body.map((message) => message.id));
        path = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1];
      }
      return seen;
    };

    beforeAll(async () => {
      lister = await createAccount(suite.app);
      sentIds = [];
      for (let i = 0; i < 5; i++) {
        sentIds.push((await send({ message: `note ${i}` }, lister.auth).expect(202)).body.id);
      }
      await withDatabase((client) => client.query(`UPDATE messages SET status = 'failed' WHERE id = $1`, [sentIds[1]]));
    });

    it('lists only the caller’s messages, newest first', async () => {
      const response = await suite.app.http.get('/messages').set(lister.auth).expect(200);
      expect(response.body.map((message: { id: string }) => message.id)).toEqual([...sentIds].reverse());
      expect(response.body[0]).toEqual({
        id: sentIds[4],
        message: 'note 4',
        status: 'queued',
        createdAt: expect.stringMatching(ISO_UTC),
        attempts: 0,
        sentAt: null,
        lastError: null,
      });
      expect(response.headers.link).toBeUndefined();
    });

    it('paginates with Link rel="next", visiting every message once', async () => {
      const first = await suite.app.http.get('/messages?limit=2').set(lister.auth).expect(200);
      expect(first.body).toHaveLength(2);
      expect(first.headers.link).toMatch(/^<\/messages\?limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
      expect(await walk('/messages?limit=2')).toEqual([...sentIds].reverse());
    });

    it('filters by status and keeps the filter in the next link', async () => {
      const failed = await suite.app.http.get('/messages?status=failed').set(lister.auth).expect(200);
      expect(failed.body.map((message: { id: string }) => message.id)).toEqual([sentIds[1]]);
      const queued = await suite.app.http.get('/messages?status=queued&limit=1').set(lister.auth).expect(200);
      expect(queued.headers.link).toContain('status=queued');
      expect(await walk('/messages?status=queued&limit=1')).toEqual(
        [...sentIds].reverse().filter((id) => id !== sentIds[1]),
      );
    });

    it('lets a client that asks only for what is newer than it saw miss no message stored by another process', async () => {
      const reader = await createAccount(suite.app);
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
        const response = await suite.app.http.get(`/messages?${query}`).set(lister.auth).expect(400);
        expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
      },
    );

    it('answers 401 without a key', async () => {
      await suite.app.http.get('/messages').expect(401);
    });
  });

  describe('documentation', () => {
    it('serves its own OpenAPI document: sendMessage under the messages servers and the Message schema', async () => {
      const doc = (await suite.app.http.get('/docs/openapi.json').expect(200)).body;
      const sendMessage = doc.paths['/messages'].post;
      expect(sendMessage.operationId).toBe('sendMessage');
      expect(sendMessage.servers).toBeUndefined();
      expect(doc.servers[0]).toEqual({ url: 'http://localhost:3001', description: 'Production' });
      expect(Object.keys(sendMessage.responses)).toEqual(expect.arrayContaining(['202', '400', '401']));
      expect(doc.components.schemas.Message.required).toEqual([
        'id',
        'message',
        'status',
        'createdAt',
        'attempts',
        'sentAt',
        'lastError',
      ]);
      expect(doc.components.schemas.NewMessage.required).toEqual(['message']);
      expect((await suite.app.http.get('/docs').expect(200)).text).toContain('swagger-ui');
    });
  });
});
