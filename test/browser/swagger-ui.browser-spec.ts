import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createApiApp } from '../support/api-app';
import { uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createMessagesApp } from '../support/messages';
import { onFreePorts } from '../support/processes';

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

/** Opens an operation in Swagger UI, tries it out with `body` (when given), and answers the status shown. */
async function execute(page: Page, tag: string, operationId: string, body?: object): Promise<string> {
  const operation = page.locator(`#operations-${tag}-${operationId}`);
  if (!(await operation.locator('button.try-out__btn').isVisible()))
    await operation.locator('.opblock-summary').click();
  const tryOut = operation.locator('button.try-out__btn');
  if ((await tryOut.textContent())?.trim() === 'Try it out') await tryOut.click();
  if (body) await operation.locator('textarea.body-param__text').fill(JSON.stringify(body));
  await operation.locator('button.execute').click();
  const status = operation.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 15000 });
  return (await status.textContent())!.trim();
}

/** Enters the key in the Authorize dialog. */
async function authorize(page: Page, key: string): Promise<void> {
  await page.locator('.scheme-container button.authorize').click();
  await page.locator('.modal-ux input').fill(key);
  await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
  await page.locator('.modal-ux button.btn-done').click();
}

(hasBrowser ? describe : describe.skip)('Swagger UI in a real browser (Chromium)', () => {
  let api: TestHttpApp;
  let messages: TestHttpApp;
  let apiUrl: string;
  let messagesUrl: string;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let key: string;

  beforeAll(async () => {
    // The documents publish these addresses, so Swagger UI sends its requests to these apps.
    await onFreePorts(2, async (apiPort, messagesPort) => {
      apiUrl = `http://localhost:${apiPort}`;
      messagesUrl = `http://localhost:${messagesPort}`;
      const env = { PUBLIC_BASE_URL_PRODUCTION: `${apiUrl}/v1`, PUBLIC_MESSAGES_URL: messagesUrl };
      [api, messages] = await Promise.all([createApiApp({ env }), createMessagesApp({ env })]);
      await api.app.listen(apiPort, 'localhost');
      await messages.app.listen(messagesPort, 'localhost');
    });
    const signUp = await fetch(`${apiUrl}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('browser') }),
    });
    key = ((await signUp.json()) as { apiKey: { key: string } }).apiKey.key;
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

  it('authorizes with a key, then lists and adds animals from the api’s UI', async () => {
    await page.goto(`${apiUrl}/docs`);
    await page.locator('#operations-pets-listPets').waitFor();
    await authorize(page, key);
    expect(await execute(page, 'pets', 'listPets')).toBe('200');
    expect(await execute(page, 'pets', 'createPet', { name: 'Rex', categoryId: 1 })).toBe('201');
  });

  it('sends a message from the messages app’s own UI', async () => {
    await page.goto(`${messagesUrl}/docs`);
    await page.locator('#operations-messages-sendMessage').waitFor();
    await authorize(page, key);
    expect(await execute(page, 'messages', 'sendMessage', { message: 'Sent from its own UI' })).toBe('202');
  });

  it('sends a message from the api’s UI, which offers the messages document', async () => {
    await page.goto(`${apiUrl}/docs`);
    await page.locator('.topbar select').selectOption({ label: 'Messages' });
    await page.locator('#operations-messages-sendMessage').waitFor();
    expect(await execute(page, 'messages', 'sendMessage', { message: 'Sent from the api’s UI' })).toBe('202');
  });

  it('still holds the key after a reload', async () => {
    await page.goto(`${apiUrl}/docs`);
    await page.locator('#operations-pets-listPets').waitFor();
    await page.reload();
    await page.locator('#operations-pets-listPets').waitFor();
    await expect(page.locator('.scheme-container button.authorize.locked').count()).resolves.toBe(1);
    expect(await execute(page, 'pets', 'listPets')).toBe('200');
  });
});
