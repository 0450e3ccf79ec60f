// The `write-order` scenario: what the pets' write order (ADR 0004, 0021) caps, measured so that it can be
// compared with what the same PostgreSQL writes without it.
//
// Every pet insert and change takes the one row of `pet_change_clock`, held until its commit, on every
// process: writes of pets run one statement at a time across the whole service, and more api processes add
// batching, not parallel writes. The scenario starts 4 api processes and loads each
// with creates (POST /v1/pets) and changes (PATCH of pets of its own, so that no two processes change one
// pet), all at once, and sums the writes per second answered. It does so twice: with the real api, then
// with the api whose write order is taken out (bench/no-write-order.ts: the same statements, the clock
// row replaced by `clock_timestamp()`). The second is the ceiling of these statements on this PostgreSQL; the
// gap between the two is what the write order costs. On a machine with fewer cores than 4 api processes,
// PostgreSQL and the load generator need, both variants are capped by the CPU instead: run it where they
// are not (`npm run bench -- --scenario write-order`; `--quick` for a short run).
import { join } from 'node:path';
import { createAccount, listSeededPets, Stores, withClient } from './support/database';
import { LoadRequest, LoadResult, medianBy, runLoad } from './support/load';
import { BUILD_ROOT, machineCpuTicks, ServerProcess, startServiceApp } from './support/processes';
import { createPet, json } from './support/requests';

const API_PROCESSES = 4;
/** Connections per api process: enough that each process's batches fill while the lock is held elsewhere. */
const CONNECTIONS_PER_PROCESS = 16;
/** Pets each process changes in turn. */
const PETS_PER_PROCESS = 500;

export interface WriteOrderVariant {
  variant: string;
  /** Writes (201s and 200s) per second over all processes, each run. */
  runs: number[];
  median: number;
  /** Answers other than 201 and 200, over all runs: a variant that fails is no ceiling. */
  failed: number;
  /**
   * The share of the machine's CPU busy during the runs, and that CPU per write: a variant held back by
   * waiting leaves CPU idle; one held back by its work spends more CPU per write.
   */
  machineBusy: number;
  machineCpuMicrosPerWrite: number;
}

interface WriteOrderOptions {
  stores: Stores;
  appEnv: Record<string, string>;
  logDir: string;
  warmUpSec: number;
  runSec: number;
  runs: number;
}

const VARIANTS = [
  { variant: 'with the write order (pet_change_clock)', preload: undefined },
  { variant: 'without it: the same statements, the clock row not taken', preload: 'no-write-order.js' },
] as const;

/** One process's load: creates and changes of its own pets in turn. */
function requests(key: string, petIds: number[]): LoadRequest[] {
  return petIds.flatMap((petId) => [
    createPet(key),
    {
      method: 'PATCH',
      path: `/v1/pets/${petId}`,
      headers: json(key),
      body: JSON.stringify({ description: 'Changed by the write-order bench' }),
    },
  ]);
}

/** Runs every process's load at once for `durationSec`; the writes per second they answered together. */
async function loadAll(urls: string[], loads: LoadRequest[][], durationSec: number): Promise<LoadResult[]> {
  return Promise.all(
    urls.map((url, index) =>
      runLoad({ url, connections: CONNECTIONS_PER_PROCESS, durationSec, requests: loads[index]! }),
    ),
  );
}

const written = (result: LoadResult) => (result.statuses['201'] ?? 0) + (result.statuses['200'] ?? 0);

/** The clock row's time: it moves with every ordered change, and stands still without the write order. */
const clockTime = (stores: Stores) =>
  withClient(stores, async (client) => {
    const { rows } = await client.query<{ at: string }>('SELECT changed_at::text AS at FROM pet_change_clock');
    return rows[0]!.at;
  });

export async function measureWriteOrder(options: WriteOrderOptions): Promise<WriteOrderVariant[]> {
  const { stores, appEnv, logDir } = options;
  const account = await createAccount(stores, 'bench-write-order@bench.example', {
    perMinute: 1_000_000_000,
    perDay: 2_000_000_000,
  });
  const pets = await listSeededPets(stores, account.accountId, API_PROCESSES * PETS_PER_PROCESS);
  const loads = Array.from({ length: API_PROCESSES }, (_, index) =>
    requests(account.key, pets.slice(index * PETS_PER_PROCESS, (index + 1) * PETS_PER_PROCESS)),
  );
  const results: WriteOrderVariant[] = [];
  for (const { variant, preload } of VARIANTS) {
    const servers: ServerProcess[] = [];
    try {
      const urls: string[] = [];
      for (let index = 0; index < API_PROCESSES; index++) {
        const server = await startServiceApp('api', {
          name: `write-order-api-${index}`,
          env: appEnv,
          logFile: join(logDir, `write-order-${preload ? 'unordered' : 'ordered'}-${index}.log`),
          nodeFlags: preload ? ['--require', join(BUILD_ROOT, 'bench', preload)] : [],
        });
        servers.push(server);
        urls.push(server.url);
      }
      await loadAll(urls, loads, options.warmUpSec);
      const clockBefore = await clockTime(stores);
      const runs: number[] = [];
      let failed = 0;
      let writes = 0;
      const cpuBefore = machineCpuTicks();
      for (let run = 0; run < options.runs; run++) {
        const answered = await loadAll(urls, loads, options.runSec);
        runs.push(answered.reduce((total, result) => total + written(result) / result.seconds, 0));
        writes += answered.reduce((total, result) => total + written(result), 0);
        failed += answered.reduce((total, result) => total + result.requests - written(result), 0);
      }
      const cpuAfter = machineCpuTicks();
      const busyTicks = cpuAfter.busy - cpuBefore.busy;
      // Without this, a preload that stopped patching would have both variants measure the same thing.
      const clockMoved = (await clockTime(stores)) !== clockBefore;
      if (clockMoved !== !preload) {
        throw new Error(`write-order: the clock row ${clockMoved ? 'moved' : 'stood still'} ${variant}`);
      }
      results.push({
        variant,
        runs,
        median: medianBy(runs, (rate) => rate),
        failed,
        machineBusy: busyTicks / (cpuAfter.all - cpuBefore.all),
        // A tick is 10 ms of one core's time.
        machineCpuMicrosPerWrite: (busyTicks * 10_000) / writes,
      });
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  return results;
}
