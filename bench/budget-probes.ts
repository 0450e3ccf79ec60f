import type { BudgetProbe } from './budget';
import { HTTP_SCENARIOS } from './scenarios';
import type { ScenarioContext } from './support/scenario';
import type { LoadRequest } from './support/load';

/** The requests whose round trips the budget scenario counts, each with the budget for it. */
export async function budgetProbes(context: ScenarioContext): Promise<BudgetProbe[]> {
  const scenario = (name: string) => HTTP_SCENARIOS.find((candidate) => candidate.name === name)!;
  const first = (name: string) => scenario(name).requests(context) as LoadRequest[];
  // Makes its publishable key through the api, which the budget's api shares the database with.
  const [publishable] = await scenario('list-20-publishable').requests(context);
  const read = '≤ 1 Redis round trip, 1 SQL statement, no SQL for the key';
  return [
    {
      name: 'GET /v1/pets?limit=20',
      server: 'api',
      request: first('list-20')[0]!,
      budget: read,
      maxSql: 1,
      maxRedis: 1,
    },
    {
      // The key's scopes, kind, origins and expiry come with its cached lookup.
      name: 'GET /v1/pets?limit=20 (publishable key, Origin)',
      server: 'api',
      request: publishable!,
      budget: read,
      maxSql: 1,
      maxRedis: 1,
    },
    {
      name: 'GET /v1/pets?status=available&limit=100',
      server: 'api',
      request: first('list-available-100')[0]!,
      budget: read,
      maxSql: 1,
      maxRedis: 1,
    },
    {
      name: 'POST /v1/pets',
      server: 'api',
      request: first('create-pet')[0]!,
      // The pet and its event commit together, in one statement that is its own transaction, so
      // that the change clock is held across no round trip (ADR 0061); requests made together share it.
      budget: '≤ 1 Redis round trip; one statement: the pets INSERT with its events INSERT',
      maxSql: 1,
      maxRedis: 1,
    },
    {
      name: '429 (free key, banned)',
      server: 'api',
      request: first('rate-limited')[0]!,
      budget: '≤ 1 Redis round trip, no SQL',
      maxSql: 0,
      maxRedis: 1,
      // Past the free plan's 60 a minute and the ban threshold, however the key was used before.
      warmUp: 120,
    },
    {
      name: 'POST /messages',
      server: 'messages',
      request: first('send-message')[0]!,
      budget: '≤ 1 round trip for limits + the enqueue; the INSERT, enqueued_at UPDATEs batched',
      maxSql: 2,
      maxRedis: 2,
    },
  ];
}
