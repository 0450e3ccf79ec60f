import { AccountsService } from '@app/accounts';
import fc from 'fast-check';
import { createPet, signUp, TestAccount } from '../support/factories';
import { closeHostileApp, expectWellFormed, fuzz, startHostileApp } from '../support/hostile';
import type { TestHttpApp } from '../support/http-app';
import { createAccount, createMessagesApp } from '../support/messages';
import { placeOrder } from '../support/orders';

/** A listing that pages with cursors, asked with the query that keeps its cursors valid. */
interface Listing {
  name: string;
  app: () => TestHttpApp;
  account: () => TestAccount;
  path: string;
}

/**
 * Cursors are opaque, but a client can forge them: every listing must answer a cursor it did not write
 * with 400, never let it reach PostgreSQL (a forged instant or number there is a 500). The suite mutates
 * real cursors of every sort and listing: one character of the text or of what it decodes to, the sort key
 * replaced with an out-of-range date or number, another listing's or sort's cursor, or anything at all.
 */
describe('hostile cursors (property-based)', () => {
  let api: TestHttpApp;
  let messages: TestHttpApp;
  let lister: TestAccount;
  let adopter: TestAccount;
  let sender: TestAccount;

  const listings: Listing[] = [
    ...['id', '-createdAt', 'updatedAt'].map((sort) => ({
      name: `pets by ${sort}`,
      app: () => api,
      account: () => lister,
      path: `/v1/pets?listedBy=me&sort=${sort}`,
    })),
    {
      name: 'pets by distance',
      app: () => api,
      account: () => lister,
      path: '/v1/pets?listedBy=me&near=52.5,13.4&radiusKm=500&sort=distance',
    },
    { name: 'orders', app: () => api, account: () => lister, path: '/v1/store/orders' },
    { name: 'events', app: () => api, account: () => lister, path: '/v1/events' },
    { name: 'messages', app: () => messages, account: () => sender, path: '/messages' },
  ];
  /** Per listing, the cursors its first pages' `Link` headers carry. */
  const cursors = new Map<string, string[]>();

  async function realCursors(listing: Listing): Promise<string[]> {
    const found: string[] = [];
    let path: string | undefined = `${listing.path}${listing.path.includes('?') ? '&' : '?'}limit=1`;
    while (path && found.length < 3) {
      const response: { headers: Record<string, string> } = await listing
        .app()
        .http.get(path)
        .set(listing.account().auth)
        .expect(200);
      path = /^<([^>]+)>; rel="next"$/.exec(response.headers.link ?? '')?.[1];
      const cursor = path && new URLSearchParams(path.split('?')[1]).get('cursor');
      if (cursor) found.push(cursor);
    }
    if (found.length === 0) throw new Error(`${listing.name} has no second page`);
    return found;
  }

  beforeAll(async () => {
    let account: TestAccount;
    ({ app: api, account } = await startHostileApp());
    lister = account;
    adopter = await signUp(api.http);
    messages = await createMessagesApp();
    sender = await createAccount(messages);
    await messages.app.get(AccountsService).setPlan(sender.email, 'enterprise', { perMinute: 1_000_000, perDay: 1e7 });
    const pets = [];
    for (const [latitude, longitude] of [
      [52.5, 13.4],
      [52.6, 13.5],
      [48.1, 11.6],
    ]) {
      pets.push(await createPet(api.http, lister, { location: { latitude, longitude } }));
    }
    for (const pet of pets.slice(0, 2)) await placeOrder(api.http, adopter, pet.id);
    for (const text of ['one', 'two', 'three']) {
      await messages.http.post('/messages').set(sender.auth).send({ message: text }).expect(202);
    }
    for (const listing of listings) cursors.set(listing.name, await realCursors(listing));
  });
  afterAll(async () => {
    await messages?.close();
    await closeHostileApp(api);
  });

  const decoded = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');
  const encoded = (text: string) => Buffer.from(text).toString('base64url');

  /** One character of `text` replaced by one a cursor could carry, or by any. */
  const oneCharacterChanged = (text: string) =>
    fc
      .tuple(
        fc.nat({ max: Math.max(text.length - 1, 0) }),
        fc.oneof(fc.constantFrom(...'0123456789|-:.TZe+_AZaz='), fc.string({ minLength: 1, maxLength: 1 })),
      )
      .map(([at, character]) => `${text.slice(0, at)}${character}${text.slice(at + 1)}`);

  const twoDigits = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
  /** Shaped as the service writes instants, with any values in each place. */
  const anyInstant = fc
    .tuple(fc.integer({ min: 0, max: 9999 }), twoDigits, twoDigits, twoDigits, twoDigits, twoDigits)
    .map(
      ([year, month, day, hour, minute, second]) =>
        `${String(year).padStart(4, '0')}-${month}-${day}T${hour}:${minute}:${second}.000000Z`,
    );
  const anyNumber = fc.oneof(
    fc.constantFrom('1e999', '1e-999', '-1', '0', 'NaN', 'Infinity', '9'.repeat(400), '1.7976931348623159e308'),
    fc.double().map(String),
    fc.bigInt().map(String),
  );
  /** The sort key (or the id) of a decoded cursor replaced. */
  const keyReplaced = (text: string) => {
    const parts = text.split(/([|:])/);
    return fc
      .tuple(fc.nat({ max: parts.length - 1 }), fc.oneof(anyInstant, anyNumber))
      .map(([at, value]) => parts.map((part, i) => (i === at && part !== '|' && part !== ':' ? value : part)).join(''));
  };

  const mutated = (cursor: string) =>
    fc.oneof(
      oneCharacterChanged(cursor),
      oneCharacterChanged(decoded(cursor)).map(encoded),
      keyReplaced(decoded(cursor)).map(encoded),
      fc.constantFrom(...[...cursors.values()].flat()),
      fc.string({ unit: 'binary', maxLength: 60 }).map(encoded),
    );

  it('answers every forged, altered or misplaced cursor of every listing with 200 or 400', async () => {
    const forged = fc
      .constantFrom(...listings)
      .chain((listing) =>
        fc
          .constantFrom(...cursors.get(listing.name)!)
          .chain((cursor) => mutated(cursor).map((c) => [listing, c] as const)),
      );
    await fc.assert(
      fc.asyncProperty(forged, async ([listing, cursor]) => {
        const separator = listing.path.includes('?') ? '&' : '?';
        const response = await listing
          .app()
          .http.get(`${listing.path}${separator}cursor=${encodeURIComponent(cursor)}`)
          .set(listing.account().auth);
        expectWellFormed(response, [200, 400]);
      }),
      fuzz(1400),
    );
  });
});
