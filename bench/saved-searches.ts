import { sql, SqlFragment } from '@app/database';
import type { PetDto } from '@app/pets';
import { petTerms, SavedSearchFilters, searchClauses, searchTerms } from '@app/saved-searches';
import type { Client } from 'pg';
import { CONNECTIONS } from './support/scenario';
import { createAccount, Stores, unmatchedPetEvents, withClient } from './support/database';
import { DIGEST_PERIOD, digestEmails } from './email';
import { startWorkers } from './support/drains';
import { measureInTurns } from './support/load';
import { ServerProcess, sleep, waitFor } from './support/processes';
import type { DigestEmailsResult, SavedSearchesResult } from './support/report';
import { createPet, json } from './support/requests';
import { toResult } from './support/results';
import { SqlCounter } from './support/sql-counter';

/** Cities the searches and pets gather around: most adopters search within 50 km of one. */
const CITIES: Array<[number, number]> = [
  [52.52, 13.405],
  [48.137, 11.575],
  [53.551, 9.993],
  [50.938, 6.96],
  [50.11, 8.682],
  [48.856, 2.352],
  [45.764, 4.835],
  [43.296, 5.37],
  [51.507, -0.128],
  [53.48, -2.242],
  [52.368, 4.904],
  [50.85, 4.352],
  [40.417, -3.704],
  [41.385, 2.173],
  [41.903, 12.496],
  [45.464, 9.19],
  [48.208, 16.373],
  [50.075, 14.438],
  [52.23, 21.012],
  [59.329, 18.069],
];
const TAGS = ['calm', 'playful', 'house-trained', 'good-with-kids', 'shy', 'senior', 'vaccinated', 'indoor'];
const WORDS = ['beagle', 'terrier', 'tabby', 'retriever', 'shepherd', 'siamese', 'collie', 'poodle'];
const AGE_GROUPS = ['baby', 'young', 'adult', 'senior'] as const;
const SIZES = ['small', 'medium', 'large', 'xlarge'] as const;

/** A deterministic pseudo-random sequence, so that two runs seed the same searches. */
function randomFrom(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  /** A point up to `km` from the city, four decimals as `near` is written. */
  const around = ([latitude, longitude]: [number, number], km: number) => ({
    latitude: Number((latitude + ((next() - 0.5) * 2 * km) / 111).toFixed(4)),
    longitude: Number((longitude + ((next() - 0.5) * 2 * km) / 70).toFixed(4)),
  });
  return { next, pick, around };
}

/**
 * A saved search as adopters make them: a place within 50 km of a city, most with a category, a third with a
 * tag or words. Each has a place: an adopter adopts within a drive, and a search without one would alert
 * about every dog of the continent (at 500 changes a second, dozens a second).
 */
function savedSearch(random: ReturnType<typeof randomFrom>, categories: number): SavedSearchFilters {
  const { next, pick, around } = random;
  const filters: SavedSearchFilters = {};
  if (next() < 0.85) filters.categoryId = 1 + Math.floor(next() * categories);
  const { latitude, longitude } = around(pick(CITIES), 20);
  filters.near = `${latitude},${longitude}`;
  filters.radiusKm = pick([10, 25, 50, 50, 50]);
  if (next() < 0.6) filters.status = ['available'];
  if (next() < 0.2) filters.ageGroup = pick(AGE_GROUPS);
  if (next() < 0.15) filters.size = pick(SIZES);
  const third = next();
  if (third < 0.2) filters.tag = pick(TAGS);
  else if (third < 0.33) filters.q = pick(WORDS);
  return filters;
}

/** A new pet as listers add them: near a city, of some category, a tag or two, a breed among the words. */
function newPet(random: ReturnType<typeof randomFrom>, categories: number, index: number) {
  const { next, pick, around } = random;
  return {
    name: `Bench ${index}`,
    categoryId: 1 + Math.floor(next() * categories),
    breed: pick(WORDS),
    ageGroup: pick(AGE_GROUPS),
    size: pick(SIZES),
    tags: [pick(TAGS), pick(TAGS)].filter((tag, i, all) => all.indexOf(tag) === i),
    location: around(pick(CITIES), 60),
  };
}

interface SavedSearchesOptions {
  stores: Stores;
  api: ServerProcess;
  apiUrl: string;
  /** A key whose limits never throttle the bench: it lists the pets. */
  key: string;
  searches: number;
  changes: number;
  rate: number;
  logDir: string;
  appEnv: Record<string, string>;
  timing: { warmUpSec: number; runSec: number; runs: number };
}

/** Runs a statement of the `sql` tag on a plain client. */
const run = <Row extends object>(client: Client, statement: SqlFragment) =>
  client.query<Row & Record<string, unknown>>(statement.text, [...statement.values]);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** One seeded search in this many has email alerts: its owner is emailed digests of its matches. */
const EMAIL_ALERTS_EVERY = 10;

/**
 * Seeds the searches through SQL, with the filters and terms the service would store for them. The searches
 * with email alerts had their last digests spread over the past digest period, as a worker running for longer
 * than one leaves them: a steady share of them comes due each second.
 */
async function seedSearches(stores: Stores, ownerId: number, count: number, categories: number): Promise<void> {
  const random = randomFrom(7);
  const minutes = Number(DIGEST_PERIOD.SAVED_SEARCH_EMAIL_MINUTES);
  await withClient(stores, async (client) => {
    for (let from = 0; from < count; from += 10_000) {
      const filters = Array.from({ length: Math.min(10_000, count - from) }, () => savedSearch(random, categories));
      const clauses = filters.map(searchClauses);
      await run(
        client,
        sql`INSERT INTO saved_searches (id, account_id, query, filters, terms, required, choices, email_alerts, emailed_at)
            SELECT 'srch_bench_' || (n + ${from}), ${ownerId}, 'bench', f::jsonb, string_to_array(t, ' '),
                   string_to_array(r, ' '), c::jsonb, emailed, CASE WHEN emailed THEN
                     now() - ((n + ${from}) / ${EMAIL_ALERTS_EVERY} % 3600) / 3600.0 * ${minutes} * interval '1 minute' END
              FROM unnest(${filters.map((f) => JSON.stringify(f))}::text[], ${filters.map((f) => searchTerms(f).join(' '))}::text[],
                          ${clauses.map((c) => c.required.join(' '))}::text[],
                          ${clauses.map((c) => c.choices && JSON.stringify(c.choices))}::text[])
                   WITH ORDINALITY AS s (f, t, r, c, n),
                   LATERAL (SELECT (n + ${from}) % ${EMAIL_ALERTS_EVERY} = 0 AS emailed) e`,
      );
    }
    await client.query('VACUUM ANALYZE saved_searches');
  });
}

/**
 * `POST /v1/pets` without the searches and with them, in turns: before each run without them they are moved
 * to a table aside, and back before each run with them (unmeasured). No worker runs meanwhile.
 */
async function measureCreatePet(options: SavedSearchesOptions): Promise<SavedSearchesResult['createPet']> {
  const move = (from: string, to: string) =>
    withClient(options.stores, async (client) => {
      await client.query(
        `WITH moved AS (DELETE FROM ${from} RETURNING id, account_id, name, query, filters, terms, created_at, required, choices,
                                               email_alerts, emailed_at)
         INSERT INTO ${to} (id, account_id, name, query, filters, terms, created_at, required, choices, email_alerts,
                            emailed_at)
         SELECT * FROM moved`,
      );
      await client.query(`VACUUM ANALYZE ${from}, ${to}`);
    });
  await withClient(options.stores, (client) =>
    client.query('CREATE TABLE bench_searches_aside (LIKE saved_searches INCLUDING GENERATED)'),
  );
  const spec = { url: options.apiUrl, connections: CONNECTIONS, requests: [createPet(options.key)] };
  const server = options.api;
  try {
    const [without, withSearches] = await measureInTurns(
      [
        { spec, server, prepare: () => move('saved_searches', 'bench_searches_aside') },
        { spec, server, prepare: () => move('bench_searches_aside', 'saved_searches') },
      ],
      options.timing,
    );
    const title = (variant: string) =>
      `POST /v1/pets ${variant} the ${options.searches.toLocaleString('en-US')} searches`;
    return {
      without: toResult({ name: 'create-pet-without-searches', title: title('without') }, without!, server.name),
      with: toResult({ name: 'create-pet-with-searches', title: title('with') }, withSearches!, server.name),
    };
  } finally {
    // A run that failed may have left the searches aside.
    await move('bench_searches_aside', 'saved_searches');
    await withClient(options.stores, (client) => client.query('DROP TABLE bench_searches_aside'));
  }
}

/** The searches a sample of new pets' states is evaluated against, counted by the matcher's own lookup. */
async function candidates(stores: Stores, categories: number): Promise<{ mean: number; p99: number }> {
  const random = randomFrom(11);
  const counts = await withClient(stores, async (client) => {
    const found: number[] = [];
    for (let i = 0; i < 300; i++) {
      const pet = { id: i, status: 'available', sex: 'unknown', ...newPet(random, categories, i) } as unknown as PetDto;
      const { rows } = await run<{ n: string }>(
        client,
        sql`SELECT count(*) AS n FROM saved_searches WHERE terms && ${petTerms(pet).lookup}::text[]`,
      );
      found.push(Number(rows[0]!.n));
    }
    return found.sort((a, b) => a - b);
  });
  return { mean: Math.round(counts.reduce((sum, n) => sum + n, 0) / counts.length), p99: percentile(counts, 0.99) };
}

/** Every third change sent changes a pet listed before (new tags, moved near another city). */
const LISTED_PET_CHANGED_EVERY = 3;

/**
 * Sends `count` pet changes, at most `rate` a second (as fast as the api takes them when 0), 32 at a time:
 * new pets, and every third a change of one sent before (its tags and place, as a transfer between shelters
 * makes them), which the matcher judges against the pet before it.
 */
async function sendChanges(options: SavedSearchesOptions, count: number, rate: number, categories: number) {
  const random = randomFrom(13 + count);
  const listed: number[] = [];
  const started = Date.now();
  let next = 0;
  const send = async (method: string, path: string, body: object, expected: number) => {
    const response = await fetch(`${options.apiUrl}${path}`, {
      method,
      headers: json(options.key),
      body: JSON.stringify(body),
    });
    if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}`);
    return (await response.json()) as { id: number };
  };
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let index = next++; index < count; index = next++) {
        if (rate > 0) await sleep(Math.max(0, started + (index * 1000) / rate - Date.now()));
        const pet = newPet(random, categories, index);
        if (index % LISTED_PET_CHANGED_EVERY === LISTED_PET_CHANGED_EVERY - 1 && listed.length > 0) {
          const id = listed[Math.floor(random.next() * listed.length)]!;
          await send('PATCH', `/v1/pets/${id}`, { tags: pet.tags, location: pet.location }, 200);
        } else {
          listed.push((await send('POST', '/v1/pets', pet, 201)).id);
        }
      }
    }),
  );
  return (count * 1000) / (Date.now() - started);
}

/** Makes the digest of every search with email alerts due, and answers when. */
const everyDigestDue = (stores: Stores) =>
  withClient(stores, async (client) => {
    await client.query('UPDATE saved_searches SET emailed_at = NULL WHERE email_alerts');
    return new Date();
  });

/** Searches whose digest is due and not yet written: never emailed, with pets that came to match. */
const digestsDue = (stores: Stores) =>
  withClient(stores, async (client) => {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM saved_searches s
        WHERE email_alerts AND emailed_at IS NULL
          AND EXISTS (SELECT FROM saved_search_email_matches m WHERE m.saved_search_id = s.id)`,
    );
    return Number(rows[0]!.n);
  });

const alertCount = (stores: Stores) =>
  withClient(stores, async (client) => {
    const { rows } = await client.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM events WHERE type = 'saved_search.matched')
            + (SELECT count(*) FROM saved_search_alerts) AS n`,
    );
    return Number(rows[0]!.n);
  });

/**
 * The saved-search bench: 100,000 saved searches, then a backlog of pet changes matched by one worker (changes
 * per second), then changes at a steady rate with the worker running (time from each change to its alert:
 * the alert's transaction start less the change's, so the batch's own commit comes on top), then
 * `POST /v1/pets` with the searches and without. A tenth of the searches have email alerts: the same worker
 * writes their digests and sends them to the bench's SMTP server, a steady share of them while it matches the
 * backlog, then all at once while it matches the steady changes; whether its outbox kept up is reported.
 */
export async function measureSavedSearches(options: SavedSearchesOptions): Promise<SavedSearchesResult> {
  const { stores } = options;
  const owner = await createAccount(stores, 'bench-searcher@bench.example');
  const categories = await withClient(stores, async (client) =>
    Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM categories')).rows[0]!.n),
  );
  await seedSearches(stores, owner.accountId, options.searches, categories);
  const candidatesPerChange = await candidates(stores, categories);

  // The backlog: changes made while no worker runs, then matched by one, its statements counted on the way.
  await sendChanges(options, options.changes, 0, categories);
  const database = new URL(stores.databaseUrl);
  const counter = new SqlCounter({ host: database.hostname, port: Number(database.port) });
  database.port = String(await counter.listen());
  const workerEnv = { ...options.appEnv, ...DIGEST_PERIOD, DATABASE_URL: database.toString(), LOG_LEVEL: 'warn' };
  const [worker] = await startWorkers(1, workerEnv, options.logDir).catch(async (error: unknown) => {
    await counter.close();
    throw error;
  });
  let steady: SavedSearchesResult['steady'];
  let matchedPerSecond: number;
  let email: DigestEmailsResult;
  let backlog: Pick<SavedSearchesResult, 'alertsPerChange' | 'statementsPerChange'>;
  try {
    // From the worker's readiness: its start-up is not matching, and the changes it matched meanwhile are
    // left out.
    const started = Date.now();
    const unmatched = await unmatchedPetEvents(stores);
    await waitFor(async () => (await unmatchedPetEvents(stores)) === 0, 600_000, 'the backlog to be matched');
    matchedPerSecond = (unmatched * 1000) / (Date.now() - started);
    backlog = {
      alertsPerChange: Number(((await alertCount(stores)) / options.changes).toFixed(1)),
      statementsPerChange: Number((counter.statements / options.changes).toFixed(2)),
    };

    // Then every digest due at once, as after the workers were down for longer than the digest period: the
    // next digest run writes one for every search that matched, while the steady changes below are matched.
    const burst = await everyDigestDue(stores);
    const since = new Date();
    // Four seconds at the rate: where the matcher keeps up, its latency is flat; where it does not, the
    // latency grows with the run's length and the backlog's rate above says so.
    const steadyChanges = Math.max(1, Math.round(options.rate * 4));
    const perSecond = await sendChanges(options, steadyChanges, options.rate, categories);
    await waitFor(async () => (await unmatchedPetEvents(stores)) === 0, 600_000, 'the steady changes to be matched');
    await waitFor(async () => (await digestsDue(stores)) === 0, 600_000, 'the digests due to be written');
    email = await digestEmails(stores, Math.floor(options.searches / EMAIL_ALERTS_EVERY), burst, new Date());
    const latencies = await withClient(stores, async (client) => {
      const { rows } = await run<{ ms: number }>(
        client,
        sql`SELECT extract(epoch FROM (alert.created_at - change.created_at)) * 1000 AS ms
              FROM saved_search_alerts alert JOIN events change ON change.id = alert.change_id
             WHERE alert.created_at >= ${since}
            UNION ALL
            SELECT extract(epoch FROM (alert.created_at - change.created_at)) * 1000
              FROM events alert JOIN events change
                ON change.type IN ('pet.created', 'pet.updated') AND change.object = alert.object -> 'pet'
             WHERE alert.type = 'saved_search.matched' AND alert.created_at >= ${since}`,
      );
      return rows.map((row) => Number(row.ms)).sort((a, b) => a - b);
    });
    steady = {
      changes: steadyChanges,
      perSecond: Math.round(perSecond),
      alertMedianMs: Math.round(percentile(latencies, 0.5)),
      alertP99Ms: Math.round(percentile(latencies, 0.99)),
    };
  } finally {
    await worker!.stop();
    await counter.close();
  }
  // Last, with no worker running: the pets it creates are left unmatched.
  const createPet = await measureCreatePet(options);
  return {
    searches: options.searches,
    createPet,
    candidatesPerChange,
    matchedPerSecond: Math.round(matchedPerSecond),
    ...backlog,
    steady,
    email,
  };
}
