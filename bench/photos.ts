// `npm run bench:photos [-- --uploads N] [--concurrency N] [--megabytes N] [--redis-db N]`: photo uploads and their
// processing. The api, alone, takes `--uploads` JPEGs of about `--megabytes` MB through `--concurrency`
// connections (its CPU and peak RSS per upload, against its idle RSS); then a worker, started once every
// upload is stored, renders them all (photos per second, its peak RSS). Targets: the api's peak
// RSS within 1.5× its idle RSS at 10 concurrent uploads, the worker at least 5 photos/s per core.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { createAccount, resetStores, storesFor, withClient } from './support/database';
import { ServerProcess, startServiceApp, waitFor, watchProcesses } from './support/processes';

const WORKER_CONCURRENCY = 2;

const { values: flags } = parseArgs({
  options: {
    uploads: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '10' },
    megabytes: { type: 'string', default: '3' },
    // The Redis db it empties first: another than any other bench's or test's running meanwhile.
    'redis-db': { type: 'string', default: '13' },
  },
});
const STORES = storesFor('pet_adoption_photos_bench', Number(flags['redis-db']));
const uploads = Number(flags.uploads);
const concurrency = Number(flags.concurrency);
const megabytes = Number(flags.megabytes);
for (const [name, value] of Object.entries({ uploads, concurrency, megabytes })) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number above 0`);
}

/**
 * A JPEG of about `megabytes` MB: noise compresses badly, so its size follows its pixel count (about 0.8
 * bytes a pixel at quality 90), as a camera's photo of fur and grass does.
 */
async function photoOf(megabytes: number): Promise<Buffer> {
  const pixels = Math.round((megabytes * 1024 * 1024) / 0.8);
  const width = Math.round(Math.sqrt((pixels * 4) / 3));
  const height = Math.round((width * 3) / 4);
  return sharp({
    create: { width, height, channels: 3, background: '#7a6', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function main(): Promise<void> {
  const logDir = mkdtempSync(join(tmpdir(), 'photos-bench-'));
  const photos = join(logDir, 'photos');
  const env = {
    DATABASE_URL: STORES.databaseUrl,
    REDIS_URL: STORES.redisUrl,
    DATABASE_MIGRATE_ON_START: 'true',
    PHOTO_STORAGE_DIR: photos,
    PHOTO_WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
  };
  await resetStores(STORES);
  const start = (name: 'api' | 'worker') => startServiceApp(name, { env, logFile: join(logDir, `${name}.log`) });
  const stopAll: ServerProcess[] = [];
  try {
    const api = await start('api');
    stopAll.push(api);
    const account = await createAccount(STORES, 'photos-bench@example.com', { perMinute: 1e9, perDay: 2e9 });
    const headers = { Authorization: `Bearer ${account.key}` };
    // Ten photos per pet at most.
    const petIds: number[] = [];
    for (let count = 0; count < Math.ceil(uploads / 10); count++) {
      const response = await fetch(`${api.url}/v1/pets`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `Bench ${count}`, categoryId: 1 }),
      });
      petIds.push(((await response.json()) as { id: number }).id);
    }
    const image = await photoOf(megabytes);
    const idleRssMiB = api.rssMiB();

    const watched = watchProcesses([api]);
    const started = performance.now();
    let next = 0;
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let index = next++; index < uploads; index = next++) {
          const response = await fetch(`${api.url}/v1/pets/${petIds[Math.floor(index / 10)]}/photos`, {
            method: 'POST',
            headers: { ...headers, 'Content-Type': 'image/jpeg' },
            body: new Uint8Array(image),
          });
          await response.arrayBuffer();
          if (response.status !== 202) failures.push(String(response.status));
        }
      }),
    );
    const uploadSec = (performance.now() - started) / 1000;
    const apiUsage = watched.stop();
    if (failures.length > 0) throw new Error(`uploads not accepted: ${failures.join(', ')}`);

    const worker = await start('worker');
    stopAll.push(worker);
    const processing = watchProcesses([worker]);
    const workStarted = performance.now();
    const pending = () =>
      withClient(STORES, async (client) =>
        Number((await client.query(`SELECT count(*) FROM photos WHERE status = 'processing'`)).rows[0].count),
      );
    await waitFor(async () => (await pending()) === 0, 30 * 60_000, 'every photo to be processed');
    const workSec = (performance.now() - workStarted) / 1000;
    const workerUsage = processing.stop();
    // libvips renders on threads of its own: the cores the worker kept busy, whatever its concurrency.
    const cores = workerUsage.cpuSec.worker! / workSec;

    const apiPeak = apiUsage.peakRssMiB.api!;
    const rate = uploads / workSec;
    console.log(`| measure | value | target | met |\n|---|---|---|---|`);
    console.log(
      `| upload | ${(image.length / 1024 / 1024).toFixed(2)} MiB JPEG, ${uploads} uploads, ${concurrency} at once | | |`,
    );
    console.log(`| api uploads/s | ${(uploads / uploadSec).toFixed(1)} | | |`);
    console.log(`| api CPU per upload | ${((apiUsage.cpuSec.api! / uploads) * 1000).toFixed(1)} ms | | |`);
    console.log(
      `| api peak RSS | ${apiPeak.toFixed(0)} MiB (idle ${idleRssMiB.toFixed(0)} MiB: ${(apiPeak / idleRssMiB).toFixed(2)}×, ${((apiPeak - idleRssMiB) / concurrency).toFixed(1)} MiB per connection) | ≤ 1.5× idle | ${apiPeak <= 1.5 * idleRssMiB ? 'yes' : 'NO'} |`,
    );
    console.log(
      `| worker photos/s | ${rate.toFixed(2)} (${(rate / cores).toFixed(2)} per core busy, ${cores.toFixed(2)} cores) | ≥ 5 per core | ${rate / cores >= 5 ? 'yes' : 'NO'} |`,
    );
    console.log(`| worker peak RSS | ${workerUsage.peakRssMiB.worker!.toFixed(0)} MiB | | |`);
  } finally {
    for (const server of stopAll.reverse()) await server.stop();
    rmSync(photos, { recursive: true, force: true });
    console.error(`logs in ${logDir}`);
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
