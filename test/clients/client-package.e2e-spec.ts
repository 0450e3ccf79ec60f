import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPetAdoptionClient, SERVERS } from '@app/client';
import { createApiApp } from '../support/api-app';
import { uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const CLIENT_DOCS = readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8');

/**
 * The environment without the `npm_*` variables that an `npm test` around jest sets, which would point the
 * npm run here at the repository's own package.
 */
function npmFreeEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

/** `names` and everything they need at run time, as installed in the repository's node_modules. */
function runtimeClosure(names: string[], seen = new Set<string>()): Set<string> {
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    runtimeClosure(Object.keys(manifest.dependencies ?? {}), seen);
  }
  return seen;
}

/** A first integration, as a project that installed the tarball writes it: sign up, add a pet, read it back. */
const CONSUMER = `import { createPetAdoptionClient, paginate, type ApiComponents } from '@pet-adoption/client';

const baseUrl = process.env.API_URL;
const signUp = await createPetAdoptionClient({ baseUrl }).api.POST('/accounts', { body: { email: process.env.EMAIL! } });
if (!signUp.data) throw new Error(\`sign-up answered \${signUp.response.status}\`);
const client = createPetAdoptionClient({ baseUrl, apiKey: signUp.data.apiKey.key });
const created = await client.api.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
const listed: ApiComponents['schemas']['Pet'][] = [];
for await (const pet of paginate((cursor) => client.api.GET('/pets', { params: { query: { listedBy: 'me', cursor } } })))
  listed.push(pet);
console.log(JSON.stringify({ created: created.data, etag: created.response.headers.get('ETag'), listed }));
`;

/**
 * The TypeScript blocks of docs/client.md, in order, as one module: they share their variables, and the clients
 * they take as given (`adopter`, `lister`) are declared.
 */
function documentedExamples(): string {
  const blocks = [...CLIENT_DOCS.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return [
    "import type { PetAdoptionClient } from '@pet-adoption/client';",
    'declare const adopter: PetAdoptionClient, lister: PetAdoptionClient;',
    ...blocks,
  ].join('\n');
}

describe('the typed client as a package, installed from its tarball by a project outside the repository', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'client-package-'));
  const project = join(scratch, 'project');
  let tarballName: string;
  let api: TestHttpApp;
  let apiUrl: string;

  beforeAll(async () => {
    const env = npmFreeEnv();
    // The documented script: builds libs/client (JavaScript and declarations) and packs it.
    await run('npm', ['run', 'client:pack', '--', '--pack-destination', scratch], { cwd: ROOT, env });
    tarballName = readdirSync(scratch).find((file) => file.endsWith('.tgz'))!;
    const tarball = join(scratch, tarballName);

    // Its dependencies come packed from the repository's node_modules, so the install needs no network; they are
    // installed unsaved first, so that the project's package.json and lockfile name the client alone.
    const client = JSON.parse(readFileSync(join(ROOT, 'libs', 'client', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const dependencies = join(scratch, 'dependencies');
    mkdirSync(dependencies);
    const folders = [...runtimeClosure(Object.keys(client.dependencies))].map((name) =>
      join(ROOT, 'node_modules', name),
    );
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dependencies, ...folders], { env });

    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const offline = ['--offline', '--no-audit', '--no-fund', '--no-update-notifier'];
    const packed = readdirSync(dependencies).map((file) => join(dependencies, file));
    await run('npm', ['install', ...offline, '--no-save', ...packed], { cwd: project, env });
    await run('npm', ['install', ...offline, tarball], { cwd: project, env });

    api = await createApiApp();
    await api.app.listen(0, '127.0.0.1');
    apiUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}/v1`;
  }, 180000);
  afterAll(async () => {
    await api?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('is the tarball docs/client.md names, and installs with every package it needs declared', async () => {
    expect(CLIENT_DOCS).toContain(`npm install /path/to/clone/${tarballName}`);
    const { stdout } = await run('npm', ['ls', '--all', '--offline', '--json'], { cwd: project, env: npmFreeEnv() });
    const tree = JSON.parse(stdout) as { dependencies: Record<string, { dependencies?: Record<string, unknown> }> };
    expect(Object.keys(tree.dependencies)).toEqual(['@pet-adoption/client']);
    expect(Object.keys(tree.dependencies['@pet-adoption/client']!.dependencies ?? {})).toEqual(['openapi-fetch']);
  });

  it('type-checks a first integration and the documented examples with tsc, then runs the integration', async () => {
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    writeFileSync(join(project, 'documented-examples.ts'), documentedExamples());
    // A Node project's settings, strict, checking the package's declarations too (no skipLibCheck). Only the
    // compiler and Node's types come from the repository.
    const compilerOptions = {
      target: 'ES2023',
      module: 'nodenext',
      lib: ['ES2023'],
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
      strict: true,
    };
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: ['consumer.ts', 'documented-examples.ts'] }),
    );
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]);

    const email = uniqueEmail('client-package');
    const { stdout } = await run(process.execPath, ['consumer.js'], {
      cwd: project,
      env: { ...npmFreeEnv(), API_URL: apiUrl, EMAIL: email },
    });
    const { created, etag, listed } = JSON.parse(stdout) as {
      created: { id: number };
      etag: string;
      listed: Array<{ id: number }>;
    };
    expect(created).toMatchObject({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(etag).toMatch(/^"\d+"$/);
    expect(listed).toEqual([created]);
  });

  it('sends, without a base URL, to the addresses docs/client.md names', async () => {
    const sent: string[] = [];
    const client = createPetAdoptionClient({
      retry: false,
      fetch: async (input) => (sent.push((input as Request).url), new Response('[]')),
    });
    await client.api.GET('/categories');
    await client.messages.GET('/messages');
    expect(sent).toEqual([`${SERVERS.production.api}/categories`, `${SERVERS.production.messages}/messages`]);
    expect(CLIENT_DOCS).toContain(`\`${SERVERS.production.api}\``);
    expect(CLIENT_DOCS).toContain(`\`${SERVERS.production.messages}\``);
  });
});
