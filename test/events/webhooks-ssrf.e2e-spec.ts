import { lookup } from 'node:dns/promises';
import { HOST_RESOLVER, type HostResolver } from '@app/events';
import { createApiApp } from '../support/api-app';
import { signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { PRODUCTION_ENV } from '../support/test-env';

/** Names this suite's resolver answers; any other name is resolved by the system (`localhost`). */
const NAMES: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'private.example.com': ['10.0.0.7'],
  'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'compatible.example.com': ['::7f00:1'],
  'metadata.example.com': ['169.254.169.254'],
};
const resolver: HostResolver = async (host) =>
  NAMES[host] ?? (await lookup(host, { all: true })).map((entry) => entry.address);

describe('webhook URLs outside development (APP_ENV=production)', () => {
  let app: TestHttpApp;
  let account: TestAccount;

  const create = (url: string) =>
    app.http
      .post('/v1/webhook-endpoints')
      .set(account.auth)
      .send({ url, events: ['*'] });

  beforeAll(async () => {
    app = await createApiApp({
      env: PRODUCTION_ENV,
      providers: [{ provide: HOST_RESOLVER, useValue: resolver }],
    });
    account = await signUp(app.http);
  });
  afterAll(() => app.close());

  it('accepts an https URL whose host resolves only to public addresses', async () => {
    await create('https://hooks.example.com/events').expect(201);
    await create('https://93.184.216.34/events').expect(201);
    // Translated to a public IPv4 address, an IPv6 address is as public as it.
    await create('https://[64:ff9b::93.184.216.34]/events').expect(201);
  });

  it('refuses http', async () => {
    const response = await create('http://hooks.example.com/events').expect(400);
    expect(response.body).toMatchObject({ code: 'validation_failed', status: 400, message: 'url must use https' });
  });

  it.each([
    ['IPv4 loopback', 'https://127.0.0.1/'],
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv4 private 10/8', 'https://10.1.2.3/'],
    ['IPv4 private 172.16/12', 'https://172.16.5.4/'],
    ['IPv4 private 192.168/16', 'https://192.168.1.1/'],
    ['IPv4 link-local', 'https://169.254.169.254/latest/meta-data'],
    ['IPv6 link-local', 'https://[fe80::1]/'],
    ['IPv6 unique-local', 'https://[fd00::1]/'],
    ['IPv4 multicast', 'https://224.0.0.251/'],
    ['IPv6 multicast', 'https://[ff02::1]/'],
    ['IPv4 unspecified', 'https://0.0.0.0/'],
    ['IPv6 unspecified', 'https://[::]/'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/'],
    ['IPv4-compatible loopback', 'https://[::127.0.0.1]/'],
    ['IPv4-compatible private', 'https://[::a00:1]/'],
    ['IPv4-compatible metadata address', 'https://[::a9fe:a9fe]/'],
    ['IPv4-compatible public address (deprecated)', 'https://[::8.8.8.8]/'],
    ['IPv4-translated loopback', 'https://[::ffff:0:127.0.0.1]/'],
    ['NAT64 loopback', 'https://[64:ff9b::127.0.0.1]/'],
    ['6to4 of the metadata address', 'https://[2002:a9fe:a9fe::1]/'],
    ['Teredo with a loopback server', 'https://[2001:0:7f00:1::1]/'],
    ['Teredo with a private client', 'https://[2001:0:808:808::f5ff:fffe]/'],
    ['localhost (resolved by the system)', 'https://localhost/'],
    ['a name resolving to a private address', 'https://private.example.com/'],
    ['a name with one private address among public ones', 'https://mixed.example.com/'],
    ['a name resolving to an IPv4-mapped loopback', 'https://mapped.example.com/'],
    ['a name resolving to an IPv4-compatible loopback', 'https://compatible.example.com/'],
    ['a name resolving to the link-local metadata address', 'https://metadata.example.com/'],
    ['a name that does not resolve', 'https://nowhere.invalid/'],
  ])('refuses %s with 400', async (_case, url) => {
    const response = await create(url).expect(400);
    expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(response.body.message).toMatch(/^url is refused: host .* (resolves to .*, a \w+ address|does not resolve)/);
  });

  it('refuses a PATCH to a non-public URL and leaves the endpoint as it was', async () => {
    const { id } = (await create('https://hooks.example.com/events').expect(201)).body as { id: number };
    await app.http
      .patch(`/v1/webhook-endpoints/${id}`)
      .set(account.auth)
      .send({ url: 'https://10.0.0.1/' })
      .expect(400);
    const current = await app.http.get(`/v1/webhook-endpoints/${id}`).set(account.auth).expect(200);
    expect(current.body.url).toBe('https://hooks.example.com/events');
  });
});
