import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountsService } from '@app/accounts';
import { EmailSettings } from '@app/email';
import { ORDER_TRANSITIONS, type OrderStatus } from '@app/orders';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createApiApp } from '../support/api-app';
import { uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createMessagesApp } from '../support/messages';
import { tinyJpeg } from '../support/photos';
import { onFreePorts } from '../support/processes';
import { UnsubscribeTokens } from '../../libs/email/src/unsubscribe-tokens';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** CI keeps these as artefacts; git ignores them. */
const SCREENSHOTS = join(__dirname, '..', '..', 'test-artifacts', 'browser');

const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser)
  console.warn(`SKIPPED: the Swagger UI browser suite needs Chromium at ${CHROMIUM} (apt-get install chromium).`);

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The order operations run in: what creates before what reads or changes, what removes last, so that an
 * operation on a singleton of the caller's (its organisation's profile) finds it made.
 */
const METHOD_ORDER = ['POST', 'PUT', 'GET', 'PATCH', 'DELETE'];
/** The steps of an application that its applicant takes; the lister takes the others. */
const APPLICANT_STEPS = new Set(['withdrawApplication', 'acceptMeeting', 'declineMeeting']);
/** The steps that start from a submitted application; the others need it under review. */
const SUBMITTED_STEPS = new Set(['reviewApplication', 'declineApplication', 'withdrawApplication']);
/** When the meetings the walk proposes start. */
const TOMORROW = Date.now() + 24 * 3600_000;

/** One operation of a served document, as Swagger UI shows it. */
interface Operation {
  method: string;
  path: string;
  operationId: string;
  tag: string;
  /** The parameters Swagger UI marks required: the only ones filled in. */
  required: Array<{ name: string; in: string }>;
  /** The required fields of its JSON request body. */
  requiredBody: Array<{ name: string; format?: string }>;
  /** Whether it takes a JSON body, which Swagger UI pre-fills in a text area (a form body shows its fields). */
  hasBody: boolean;
  /** Whether its body is a form whose required field is a file (a photo): chosen, not typed. */
  fileBody: boolean;
}

function operationsOf(doc: Doc): Operation[] {
  const schemaOf = (node: Doc | undefined): Doc =>
    node?.$ref ? doc.components.schemas[node.$ref.split('/').pop()] : (node ?? {});
  return Object.entries<Doc>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Doc>(item).map(([method, operation]) => {
      const [mediaType, content] = Object.entries<Doc>(operation.requestBody?.content ?? {})[0] ?? [];
      const body = schemaOf(content?.schema);
      return {
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        tag: operation.tags[0],
        required: (operation.parameters ?? []).filter((parameter: Doc) => parameter.required),
        requiredBody: (body.required ?? []).map((name: string) => ({ name, format: body.properties[name].format })),
        hasBody: mediaType === 'application/json',
        fileBody: mediaType === 'multipart/form-data',
      };
    }),
  );
}

/** Enters the key in the Authorize dialog. */
async function authorize(page: Page, key: string): Promise<void> {
  await page.locator('.scheme-container button.authorize').click();
  await page.locator('.modal-ux input').fill(key);
  await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
  await page.locator('.modal-ux button.btn-done').click();
}

interface Answer {
  status: number;
  body: unknown;
  url: string;
  /** The body the form sent. */
  sent?: Record<string, unknown>;
}

/**
 * Whether a refusal is explained by what the form sent: a conflict (409) that names a value of the body, as
 * a unique field whose example an earlier operation of the form already used.
 */
function explainedByInputs(answer: Answer): boolean {
  const message = (answer.body as { message?: string } | undefined)?.message ?? '';
  const values = Object.values(answer.sent ?? {}).filter((value): value is string => typeof value === 'string');
  return answer.status === 409 && values.some((value) => message.includes(value));
}

/**
 * Opens an operation in Swagger UI, presses "Try it out", fills in only the required parameters and the
 * required fields of the body it pre-filled, presses Execute, and answers what the service sent.
 */
async function execute(
  page: Page,
  operation: Operation,
  parameters: Record<string, string>,
  bodyFields: Record<string, unknown> = {},
): Promise<Answer> {
  const block = page.locator(`#operations-${operation.tag}-${operation.operationId}`);
  if (!(await block.locator('button.try-out__btn').isVisible())) await block.locator('.opblock-summary').click();
  const tryOut = block.locator('button.try-out__btn');
  if ((await tryOut.textContent())?.trim() === 'Try it out') await tryOut.click();
  for (const parameter of operation.required)
    await block
      .locator(`tr[data-param-name="${parameter.name}"][data-param-in="${parameter.in}"] input`)
      .fill(parameters[parameter.name]!);
  let sent: Record<string, unknown> | undefined;
  if (operation.fileBody) {
    const file = { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await tinyJpeg() };
    await block.locator('.opblock-section-request-body input[type="file"]').setInputFiles(file);
  } else if (operation.hasBody) {
    const textarea = block.locator('textarea.body-param__text');
    sent = { ...(JSON.parse(await textarea.inputValue()) as Record<string, unknown>), ...bodyFields };
    await textarea.fill(JSON.stringify(sent));
  }
  const answered = page.waitForResponse(
    (response) =>
      response.request().method() === operation.method && !new URL(response.url()).pathname.startsWith('/docs'),
  );
  await block.locator('button.execute').click();
  const response = await answered;
  const text = response.status() === 204 ? '' : await response.text();
  // Cleared for the next run of the same operation, and folded: a page of open operations slows Swagger UI.
  await block.locator('button.btn-clear').click();
  await block.locator('.opblock-summary').click();
  // An HTML page (the unsubscribe link's) is a body the checks below do not read.
  const json = text !== '' && (response.headers()['content-type'] ?? '').startsWith('application/json');
  return { status: response.status(), body: json ? JSON.parse(text) : undefined, url: response.url(), sent };
}

(hasBrowser ? describe : describe.skip)('Swagger UI in a real browser (Chromium)', () => {
  let api: TestHttpApp;
  let messages: TestHttpApp;
  let apiUrl: string;
  let messagesUrl: string;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  /** The caller of the UI, and another account, whose pets the caller orders. */
  const keys = { me: '', other: '' };
  const emails = { me: '', other: '' };

  /** A call outside the browser, to make what an operation acts on. */
  async function call(who: keyof typeof keys, method: string, url: string, body?: object): Promise<Doc> {
    const response = await fetch(url, {
      method,
      headers: { Authorization: `Bearer ${keys[who]}`, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? {} : ((await response.json()) as Doc);
  }

  const newPet = async (who: keyof typeof keys) =>
    (await call(who, 'POST', `${apiUrl}/v1/pets`, { name: 'Fixture', categoryId: 1 })).id as number;

  // Subscribed to a type no fixture makes, so that no delivery to it is under way (redelivery waits for one).
  const newEndpoint = async () =>
    (
      await call('me', 'POST', `${apiUrl}/v1/webhook-endpoints`, {
        url: 'https://shelter.example/hooks',
        events: ['message.failed'],
      })
    ).id as number;

  /** The shortest run of the caller's (the lister's) transitions from `placed` to one of `targets`. */
  function pathTo(targets: readonly OrderStatus[]): string[] {
    const queue: Array<{ status: OrderStatus; path: string[] }> = [{ status: 'placed', path: [] }];
    for (let at = queue.shift(); at; at = queue.shift()) {
      if (targets.includes(at.status)) return at.path;
      for (const transition of Object.values(ORDER_TRANSITIONS))
        if (transition.operationId && transition.who.includes('lister') && transition.from.includes(at.status))
          queue.push({ status: transition.to, path: [...at.path, transition.operation] });
    }
    throw new Error(`no transition leads to ${targets.join(' or ')}`);
  }

  /**
   * What a path parameter names, by the collection before it: a new resource of the caller's, in the state
   * the operation needs (an order placed by the other account on the caller's pet, moved along the state
   * machine to where the operation's transition starts).
   */
  const pathResources: Record<string, (operation: Operation, made: Record<string, string>) => Promise<string>> = {
    // One applies for another account's pet, whose form the example's answers are for.
    pets: async (operation) => String(await newPet(operation.operationId === 'submitApplication' ? 'other' : 'me')),
    applications: async (operation) => {
      const applicant = APPLICANT_STEPS.has(operation.operationId) ? 'me' : 'other';
      const lister = applicant === 'me' ? 'other' : 'me';
      const application = await call(applicant, 'POST', `${apiUrl}/v1/pets/${await newPet(lister)}/applications`, {
        answers: {},
        contact: { name: 'Fixture', email: uniqueEmail('swagger-ui-applicant') },
      });
      if (!SUBMITTED_STEPS.has(operation.operationId))
        await call(lister, 'POST', `${apiUrl}/v1/applications/${application.id}/review`, {});
      return application.id as string;
    },
    // A meeting the lister of the application made before it proposes.
    meetings: async (operation, made) => {
      const lister = APPLICANT_STEPS.has(operation.operationId) ? 'other' : 'me';
      const meeting = await call(lister, 'POST', `${apiUrl}/v1/applications/${made.applicationId}/meetings`, {
        startsAt: new Date(TOMORROW).toISOString(),
        endsAt: new Date(TOMORROW + 3600_000).toISOString(),
      });
      return meeting.id as string;
    },
    // A link as an email to the caller carries it, signed with the app's key.
    unsubscribe: async () =>
      new UnsubscribeTokens(
        Object.assign(new EmailSettings(), { EMAIL_UNSUBSCRIBE_KEY: process.env.EMAIL_UNSUBSCRIBE_KEY }),
      ).sign({ addressKey: emails.me, list: 'lister:1' }),
    orders: async (operation) => {
      const order = await call('other', 'POST', `${apiUrl}/v1/store/orders`, { petId: await newPet('me') });
      const transition = Object.values(ORDER_TRANSITIONS).find((each) => each.operationId === operation.operationId);
      for (const step of pathTo(transition?.from ?? ['placed']))
        await call('me', 'POST', `${apiUrl}/v1/store/orders/${order.id}/${step}`, {});
      return String(order.id);
    },
    keys: async () => String((await call('me', 'POST', `${apiUrl}/v1/keys`, { name: 'Fixture' })).id),
    events: async () => (await call('me', 'GET', `${apiUrl}/v1/events?limit=1`))[0].id as string,
    'webhook-endpoints': async () => String(await newEndpoint()),
    messages: async () => (await call('me', 'POST', `${messagesUrl}/messages`, { message: 'Fixture' })).id as string,
    // An address of the caller's own that no animal has yet: the operation creates it.
    external: async () => `fixture-${randomUUID()}`,
    organizations: async () =>
      (await call('other', 'PUT', `${apiUrl}/v1/organization`, { name: 'Fixture' })).id as string,
    'saved-searches': async () =>
      String((await call('me', 'POST', `${apiUrl}/v1/saved-searches`, { query: 'categoryId=1' })).id),
    // A photo of the pet the operation names (made before it: it comes first in the path).
    photos: async (_operation, made) => {
      const response = await fetch(`${apiUrl}/v1/pets/${made.petId}/photos`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.me}`, 'Content-Type': 'image/jpeg' },
        body: new Uint8Array(await tinyJpeg()),
      });
      if (!response.ok) throw new Error(`POST photos: ${response.status} ${await response.text()}`);
      return ((await response.json()) as Doc).id as string;
    },
  };

  /**
   * What a required body field refers to: a pet of the other account (one orders another's pet), a category,
   * an event of the caller's that has been dispatched (with no worker here, a test event: only a dispatched
   * event can be sent again).
   */
  const bodyReferences: Record<string, () => Promise<unknown>> = {
    petId: () => newPet('other'),
    categoryId: async () => (await call('me', 'GET', `${apiUrl}/v1/categories`))[0].id,
    eventId: async () => {
      const test = await call('me', 'POST', `${apiUrl}/v1/webhook-endpoints/${await newEndpoint()}/test`);
      return test.eventId as string;
    },
  };

  /** Required body fields whose examples cannot be sent as they are: a past time, another account's email. */
  const bodyValues: Record<string, string> = {
    get startsAt() {
      return new Date(TOMORROW).toISOString();
    },
    get endsAt() {
      return new Date(TOMORROW + 3600_000).toISOString();
    },
    get confirm() {
      return emails.me;
    },
  };

  /** Signs `who` up (again, with the same email, after the deletion), on a plan with room for the whole walk. */
  async function signUp(who: keyof typeof keys): Promise<void> {
    const email = emails[who] || uniqueEmail(`browser-${who}`);
    const created = await fetch(`${apiUrl}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    keys[who] = ((await created.json()) as { apiKey: { key: string } }).apiKey.key;
    emails[who] = email;
    // Room for every operation and the resources they act on, within a minute.
    await api.app.get(AccountsService).setPlan(email, 'enterprise', { perMinute: 100_000, perDay: 1_000_000 });
  }

  async function valuesFor(operation: Operation) {
    const parameters: Record<string, string> = {};
    for (const parameter of operation.required) {
      const segments = operation.path.split('/');
      const collection = segments[segments.indexOf(`{${parameter.name}}`) - 1]!;
      const make = pathResources[collection];
      if (!make)
        throw new Error(`no value for ${parameter.name} of ${operation.operationId}: add one to pathResources`);
      parameters[parameter.name] = await make(operation, parameters);
    }
    const body: Record<string, unknown> = {};
    for (const field of operation.requiredBody) {
      if (field.name in bodyValues) body[field.name] = bodyValues[field.name];
      else if (field.format === 'email') body[field.name] = uniqueEmail('swagger-ui');
      else if (field.name.endsWith('Id')) {
        const reference = bodyReferences[field.name];
        if (!reference) throw new Error(`no value for ${field.name} of ${operation.operationId}: add one`);
        body[field.name] = await reference();
      }
    }
    return { parameters, body };
  }

  /**
   * Runs every operation of the document served at `baseUrl`, and lists what went wrong: any answer but a
   * 2xx that the form's values do not explain, and a list left empty by the form's pre-filled values (the same
   * list without them has items).
   */
  async function walk(baseUrl: string): Promise<string[]> {
    const document = (await (await fetch(`${baseUrl}/docs/openapi.json`)).json()) as Doc;
    await page.goto(`${baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
    await authorize(page, keys.me);
    const failures: string[] = [];
    // The account's deletion comes last: it ends the caller's key.
    const rank = (operation: Operation) =>
      operation.operationId === 'deleteAccount' ? METHOD_ORDER.length : METHOD_ORDER.indexOf(operation.method);
    const ordered = operationsOf(document).sort((a, b) => rank(a) - rank(b));
    for (const operation of ordered) {
      const values = await valuesFor(operation);
      const answer = await execute(page, operation, values.parameters, values.body);
      // The deletion freed the caller's email: it signs up again, for the suites after this one.
      if (operation.operationId === 'deleteAccount' && answer.status === 202) {
        await signUp('me');
        // The page keeps the deleted key: forgotten, and the new one given.
        await page.evaluate(() => localStorage.clear());
        await page.reload();
        await page.locator('.opblock').first().waitFor();
        await authorize(page, keys.me);
      }
      if ((answer.status < 200 || answer.status > 299) && !explainedByInputs(answer)) {
        failures.push(`${operation.operationId}: ${answer.status} ${JSON.stringify(answer.body)}`);
      } else if (Array.isArray(answer.body) && answer.body.length === 0) {
        const url = new URL(answer.url);
        const unfiltered = await call('me', 'GET', `${url.origin}${url.pathname}`);
        if (unfiltered.length > 0) failures.push(`${operation.operationId}: [] with the form's values (${url.search})`);
      }
    }
    return failures;
  }

  beforeAll(async () => {
    // Ports other than the defaults, and no public address configured: the documents' servers must follow.
    await onFreePorts(2, async (apiPort, messagesPort) => {
      apiUrl = `http://localhost:${apiPort}`;
      messagesUrl = `http://localhost:${messagesPort}`;
      const env = { PORT: String(apiPort), MESSAGES_PORT: String(messagesPort) };
      [api, messages] = await Promise.all([createApiApp({ env }), createMessagesApp({ env })]);
      await api.app.listen(apiPort, 'localhost');
      await messages.app.listen(messagesPort, 'localhost');
    });
    for (const who of ['me', 'other'] as const) await signUp(who);
    // The form the documents' example answers are for: applications are made to the other account's pets.
    await call('other', 'PUT', `${apiUrl}/v1/application-form`, {
      fields: [{ name: 'housing', label: 'Where do you live?', type: 'choice', options: ['A flat', 'A house'] }],
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
    profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
    });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await api?.close();
    await messages?.close();
  });

  afterEach(async () => {
    const name = expect
      .getState()
      .currentTestName!.replace(/[^a-z0-9]+/gi, '-')
      .slice(0, 80);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  });

  it('runs every operation of the api’s UI with the form as it opens, filling only what is required', async () => {
    expect(await walk(apiUrl)).toEqual([]);
  }, 600_000);

  it('runs every operation of the messages app’s UI with the form as it opens', async () => {
    expect(await walk(messagesUrl)).toEqual([]);
  }, 120_000);

  it('sends a message from the api’s UI, which offers the messages document of the messages app’s port', async () => {
    await page.goto(`${apiUrl}/docs`);
    await page.locator('.topbar select').selectOption({ label: 'Messages' });
    await page.locator('#operations-messages-sendMessage').waitFor();
    const document = (await (await fetch(`${messagesUrl}/docs/openapi.json`)).json()) as Doc;
    const sendMessage = operationsOf(document).find((operation) => operation.operationId === 'sendMessage')!;
    const answer = await execute(page, sendMessage, {});
    expect(answer.status).toBe(202);
    expect(new URL(answer.url).origin).toBe(messagesUrl);
  });

  it('still holds the key after a reload', async () => {
    await page.goto(`${apiUrl}/docs`);
    await page.locator('#operations-pets-listPets').waitFor();
    await page.reload();
    await page.locator('#operations-pets-listPets').waitFor();
    await expect(page.locator('.scheme-container button.authorize.locked').count()).resolves.toBe(1);
    const document = (await (await fetch(`${apiUrl}/docs/openapi.json`)).json()) as Doc;
    const listPets = operationsOf(document).find((operation) => operation.operationId === 'listPets')!;
    expect((await execute(page, listPets, {})).status).toBe(200);
  });
});
