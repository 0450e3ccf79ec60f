import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { enqueueEmails, settleEarlierEmails, testAddress, TestSmtpServer, unsubscribeUrlOf } from '../support/email';
import type { TestHttpApp } from '../support/http-app';
import { type AppProcess, onFreePorts, startServing } from '../support/processes';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
/** CI keeps these as artefacts; git ignores them. */
const SCREENSHOTS = join(__dirname, '..', '..', 'test-artifacts', 'browser');
/** With WRITE_DOCS_SCREENSHOTS=1, the HTML part's screenshot replaces the one docs/email.md shows. */
const DOCS_SCREENSHOT = join(__dirname, '..', '..', 'docs', 'email-message.png');

const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser)
  console.warn(`SKIPPED: the email browser suite needs Chromium at ${CHROMIUM} (apt-get install chromium).`);

const PETS = ['Biscuit', 'Pepper', 'Juniper & Sage <3'].map((name, index) => ({ id: 101 + index, name }));

(hasBrowser ? describe : describe.skip)(
  'an email’s HTML part and its unsubscribe page, in a real browser (Chromium)',
  () => {
    const smtp = new TestSmtpServer();
    let api: TestHttpApp;
    let worker: AppProcess | undefined;
    let context: BrowserContext;
    let page: Page;
    let profile: string;

    beforeAll(async () => {
      const [url] = await Promise.all([smtp.start(), settleEarlierEmails()]);
      await onFreePorts(1, async (apiPort) => {
        api = await createApiApp();
        await api.app.listen(apiPort, 'localhost');
        worker = await startServing('worker', {
          EMAIL_TRANSPORT: 'smtp',
          SMTP_URL: url,
          PUBLIC_BASE_URL_PRODUCTION: `http://localhost:${apiPort}/v1`,
        });
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
      await worker?.stop('SIGKILL');
      await api?.close();
      await smtp.stop();
    });

    it('shows the digest readably, its text escaped, with the unsubscribe link whose page changes nothing until pressed', async () => {
      const to = testAddress('browser');
      await enqueueEmails(api, [
        {
          to,
          list: { kind: 'saved_search', id: 'srch_browser' },
          template: 'saved_search_digest',
          data: {
            savedSearchId: 'srch_browser',
            searchName: 'Young dogs near Berlin',
            query: 'categoryId=1',
            pets: PETS,
            more: 4,
          },
        },
      ]);
      const [email] = await smtp.waitFor(to);
      const link = unsubscribeUrlOf(email!.raw);

      await page.setViewportSize({ width: 640, height: 340 });
      await page.setContent(email!.parsed.html as string);
      expect(await page.locator('h1').innerText()).toBe('New animals for your saved search');
      expect(await page.locator('li').allInnerTexts()).toEqual([
        'Biscuit (pet 101)',
        'Pepper (pet 102)',
        'Juniper & Sage <3 (pet 103)',
      ]);
      expect(await page.getByText('and 4 more.').isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Unsubscribe' }).getAttribute('href')).toBe(link);
      await page.screenshot({ path: join(SCREENSHOTS, 'email-message.png'), fullPage: true });
      if (process.env.WRITE_DOCS_SCREENSHOTS === '1') await page.screenshot({ path: DOCS_SCREENSHOT, fullPage: true });

      const unsubscribes = () =>
        withDatabase(
          async (client) =>
            (await client.query('SELECT list FROM email_unsubscribes WHERE address_key = lower($1)', [to])).rows,
        );
      await page.goto(link);
      expect(await page.locator('h1').innerText()).toBe('Unsubscribe?');
      expect(await page.locator('main').innerText()).toContain(to.toLowerCase());
      await page.screenshot({ path: join(SCREENSHOTS, 'unsubscribe-page.png') });
      expect(await unsubscribes()).toEqual([]);

      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await page.locator('h1', { hasText: 'You are unsubscribed' }).waitFor();
      expect(page.url()).toBe(link);
      expect(await unsubscribes()).toEqual([{ list: 'saved_search:srch_browser' }]);
    });
  },
);
