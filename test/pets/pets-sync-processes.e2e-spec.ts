import { cli } from '../support/cli';
import { uniqueEmail } from '../support/factories';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { together } from '../support/rate-limiting';

const CALLERS = 20;

/**
 * "Retrying the same PUT never makes a second pet, also when the two arrive at once on
 * different processes". Retries of one sync, all at once, spread over two api processes.
 */
describe('PUT /v1/pets/external/{externalId} across processes', () => {
  const apis: Array<AppProcess & { baseUrl: string }> = [];
  let key: string;

  const put = async (i: number, externalId: string, name: string) => {
    const response = await fetch(`${apis[i % 2]!.baseUrl}/v1/pets/external/${externalId}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1, colors: ['Black'] }),
    });
    return { status: response.status, body: (await response.json()) as { id: number; name: string } };
  };

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) apis.push(await startServing('api', { MAX_CONNECTIONS_PER_CLIENT: '0' }));
    const email = uniqueEmail('sync-race');
    const response = await fetch(`${apis[0]!.baseUrl}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    key = ((await response.json()) as { apiKey: { key: string } }).apiKey.key;
    await cli('set-plan', email, 'business');
    for (const api of apis) {
      await waitFor(
        async () => {
          const account = await fetch(`${api.baseUrl}/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
          return ((await account.json()) as { plan: string }).plan === 'business';
        },
        10_000,
        'both processes to apply the plan',
      );
    }
    // Two processes start on a loaded machine.
  }, 180_000);
  afterAll(() => Promise.all(apis.map((api) => api.stop())));

  it(`makes one pet of ${CALLERS} concurrent PUTs of one external id: one 201, every other 200 on that pet`, async () => {
    const answers = await together(CALLERS, (i) => put(i, 'race-1', `Racer ${i}`));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(CALLERS - 1);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    const found = await fetch(`${apis[1]!.baseUrl}/v1/pets?listedBy=me&externalId=race-1`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(((await found.json()) as unknown[]).length).toBe(1);
  });
});
