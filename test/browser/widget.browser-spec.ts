import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import { AccountsService } from '@app/accounts';
import sharp from 'sharp';
import { createApiApp } from '../support/api-app';
import { signUp, type TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { waitForProcessed } from '../support/photos';
import { type AppProcess, onFreePorts, startServing } from '../support/processes';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
/** CI keeps these as artefacts; git ignores them. */
const SCREENSHOTS = join(__dirname, '..', '..', 'test-artifacts', 'browser');
/** Where the shelter's organisation sends adopters. */
const ADOPTION_URL = 'https://happypaws.example/adopt';

const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser)
  console.warn(`SKIPPED: the widget browser suite needs Chromium at ${CHROMIUM} (apt-get install chromium).`);

/** Text for an HTML attribute's value between double quotes. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * A shelter's page that embeds the widget, as docs/widget.md shows it: in the language `lang` (English
 * unless given), with the widget in a `<section>` of the language `section` if given, and each `data-…`
 * option an attribute of the widget's element. Its own "Home" link is the page's, not the widget's.
 */
function shelterPage(apiUrl: string, key: string, organization: string, options: URLSearchParams): string {
  const attributes = [...options]
    .filter(([name]) => name.startsWith('data-'))
    .map(([name, value]) => ` ${name}="${attribute(value)}"`)
    .join('');
  const widget = `<div data-pet-adoption data-key="${key}" data-organization="${organization}"${attributes}></div>`;
  const section = options.get('section');
  return `<!doctype html><html lang="${attribute(options.get('lang') ?? 'en')}"><head><meta charset="utf-8">
<title>Our animals</title></head>
<body><h1>Happy Paws Shelter</h1><p><a id="home" href="#">Home</a></p>
${section ? `<section lang="${attribute(section)}">${widget}</section>` : widget}
<script src="${apiUrl}/widget.js" async></script></body></html>`;
}

/**
 * Serves `/<key>?<options>` as a shelter's page embedding the widget with that key and the organisation
 * `organization()` names, on its own loopback port.
 */
function servePages(apiUrl: string, port: number, organization: () => string): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://page');
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.end(shelterPage(apiUrl, decodeURIComponent(url.pathname.slice(1)), organization(), url.searchParams));
  });
  return new Promise((resolve, reject) =>
    server.listen(port, '127.0.0.1', () => resolve(server)).once('error', reject),
  );
}

(hasBrowser ? describe : describe.skip)('the widget on a shelter’s website, in a real browser (Chromium)', () => {
  let api: TestHttpApp;
  let apiUrl: string;
  let site: { server: Server; origin: string };
  let elsewhere: { server: Server; origin: string };
  let shelter: TestAccount;
  let organizationId: string;
  let worker: AppProcess | undefined;
  let photos: string;
  let publishableKey: string;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  /** Every request the page made, by URL. */
  let requests: string[];
  const run = randomUUID().slice(0, 8);
  const dogs = Array.from({ length: 23 }, (_, index) => `Dog ${run} ${index + 1}`);
  const cats = [`Cat ${run} 1`, `Cat ${run} 2`];
  /** Another shelter's animals, also published and available: never in this shelter's widget. */
  const others = [`Other ${run} 1`, `Other ${run} 2`];
  const organizationName = `Happy Paws ${run}`;

  beforeAll(async () => {
    photos = mkdtempSync(join(tmpdir(), 'widget-photos-'));
    const organization = () => organizationId;
    await onFreePorts(3, async (apiPort, sitePort, elsewherePort) => {
      apiUrl = `http://localhost:${apiPort}`;
      // Photos are stored in a directory of the suite's and their renditions served by this api under /media.
      const env = { PHOTO_STORAGE_DIR: photos, PHOTO_PUBLIC_BASE_URL: `${apiUrl}/media` };
      api = await createApiApp({ env });
      await api.app.listen(apiPort, 'localhost');
      worker = await startServing('worker', env);
      site = { server: await servePages(apiUrl, sitePort, organization), origin: `http://127.0.0.1:${sitePort}` };
      elsewhere = {
        server: await servePages(apiUrl, elsewherePort, organization),
        origin: `http://127.0.0.1:${elsewherePort}`,
      };
    });
    shelter = await signUp(api.http);
    await api.app.get(AccountsService).setPlan(shelter.email, 'enterprise');
    const published = await api.http
      .put('/v1/organization')
      .set(shelter.auth)
      .send({ name: organizationName, adoptionUrl: ADOPTION_URL })
      .expect(201);
    organizationId = published.body.id;
    expect(organizationId).toMatch(/^org_/);
    const made = await api.http
      .post('/v1/keys')
      .set(shelter.auth)
      .send({ name: 'website', kind: 'publishable', allowedOrigins: [site.origin] })
      .expect(201);
    publishableKey = made.body.key;
    for (const name of dogs) {
      await api.http
        .post('/v1/pets')
        .set(shelter.auth)
        .send({ name, categoryId: 1, breed: 'Labrador', ageGroup: 'young', size: 'large', sex: 'female' })
        .expect(201);
    }
    // The first cat is an adult female of medium size, described in the words that agree with her.
    for (const [index, name] of cats.entries()) {
      const traits = index === 0 ? { ageGroup: 'adult', size: 'medium', sex: 'female' } : {};
      await api.http
        .post('/v1/pets')
        .set(shelter.auth)
        .send({ name, categoryId: 2, breed: 'Siamese', ...traits })
        .expect(201);
    }
    // The first dog's photo, uploaded and processed by the worker into renditions the api serves.
    const firstDog = (await api.http.get(`/v1/pets?organizationId=${organizationId}&limit=100`).set(shelter.auth))
      .body as Array<{ id: number; name: string }>;
    const dog = firstDog.find((pet) => pet.name === dogs[0])!;
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c08040' } })
      .jpeg()
      .toBuffer();
    const accepted = await api.http
      .post(`/v1/pets/${dog.id}/photos`)
      .set(shelter.auth)
      .set('Content-Type', 'image/jpeg')
      .send(jpeg)
      .expect(202);
    const photo = await waitForProcessed(api.http, shelter.auth, accepted.headers.location!);
    expect(photo).toMatchObject({ status: 'ready' });
    expect(photo.urls!.medium.startsWith(`${apiUrl}/media/`)).toBe(true);

    const other = await signUp(api.http);
    await api.app.get(AccountsService).setPlan(other.email, 'enterprise');
    await api.http
      .put('/v1/organization')
      .set(other.auth)
      .send({ name: `Elsewhere ${run}` })
      .expect(201);
    for (const name of others) {
      await api.http
        .post('/v1/pets')
        .set(other.auth)
        .send({ name, categoryId: 1, breed: 'Labrador', ageGroup: 'young', size: 'large', sex: 'female' })
        .expect(201);
    }
    mkdirSync(SCREENSHOTS, { recursive: true });
    profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
    });
  });
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    site?.server.close();
    elsewhere?.server.close();
    await worker?.stop('SIGKILL');
    await api?.close();
    if (photos) rmSync(photos, { recursive: true, force: true });
  });

  beforeEach(async () => {
    page = await context.newPage();
    requests = [];
    page.on('request', (request: Request) => requests.push(request.url()));
  });
  afterEach(async () => {
    const name = expect
      .getState()
      .currentTestName!.replace(/[^a-z0-9]+/gi, '-')
      .slice(0, 80);
    await page.screenshot({ path: join(SCREENSHOTS, `widget-${name}.png`), fullPage: true });
    await page.close();
  });

  const cards = () => page.locator('[data-pet-adoption] li');
  const cardNames = () => page.locator('[data-pet-adoption] li h3').allTextContents();
  const apiRequests = () => requests.filter((url) => url.startsWith(`${apiUrl}/v1/`));
  const widget = () => page.locator('[data-pet-adoption]');
  /** The shelter's page on `origin` with `key`, in the language and with the widget attributes of `options`. */
  const pageUrl = (origin: string, key: string, options: Record<string, string> = {}) =>
    `${origin}/${key}?${new URLSearchParams(options)}`;
  /** The card of the animal named `name`. */
  const card = (name: string) => cards().filter({ has: page.getByRole('heading', { name, exact: true }) });
  /** What the focused element's focus ring is made of, as the browser draws it. */
  const focusRing = () =>
    page.locator(':focus').evaluate((node) => {
      const style = node.ownerDocument.defaultView!.getComputedStyle(node);
      return {
        focusVisible: node.matches(':focus-visible'),
        outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
        boxShadow: style.boxShadow,
      };
    });
  /** The widget's own ring: 3 px of blue outside a white edge. */
  const WIDGET_RING = {
    focusVisible: true,
    outline: 'solid 3px rgb(26, 95, 180)',
    boxShadow: 'rgb(255, 255, 255) 0px 0px 0px 2px',
  };

  it('shows the available animals with their photos, 20 at a time, and pages with “more” from the keyboard', async () => {
    await page.goto(`${site.origin}/${publishableKey}`);
    await cards().first().waitFor();
    await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
      `Animals for adoption at ${organizationName}`,
    );
    await cards().nth(19).waitFor();
    expect(await cards().count()).toBe(20);
    // The photo has loaded, and says whom it shows.
    const first = page
      .locator('[data-pet-adoption] li')
      .filter({ has: page.getByRole('heading', { name: dogs[0], exact: true }) });
    const photo = first.getByRole('img', { name: `${dogs[0]}, Labrador`, exact: true });
    await photo.waitFor();
    await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await photo.elementHandle());
    await expect(first.locator('p').first().textContent()).resolves.toBe('Labrador · Young · Large · Female');
    // An animal without a photo has a placeholder that says so.
    const placeholder = card(dogs[1]!).getByRole('img', { name: `No photo of ${dogs[1]} yet`, exact: true });
    await expect(placeholder.textContent()).resolves.toBe('No photo yet');
    await expect(widget().getAttribute('lang')).resolves.toBe('en');
    await expect(page.getByRole('status').textContent()).resolves.toBe('The first 20 animals are shown.');
    // Each animal links to the organisation's adoptionUrl.
    await expect(first.getByRole('link', { name: `Adopt ${dogs[0]}`, exact: true }).getAttribute('href')).resolves.toBe(
      ADOPTION_URL,
    );
    const links = await page.locator('[data-pet-adoption] li a').all();
    expect(links).toHaveLength(20);
    for (const link of links) await expect(link.getAttribute('href')).resolves.toBe(ADOPTION_URL);

    const more = page.getByRole('button', { name: 'More animals' });
    const shown = new Set<string>(await cardNames());
    for (let pages = 0; (await more.isVisible()) && pages < 50; pages++) {
      const before = await cards().count();
      await more.focus();
      await page.keyboard.press('Enter');
      await cards().nth(before).waitFor();
      // Keyboard users go on from the first animal the button brought.
      await expect(page.locator('[data-pet-adoption] li h3:focus').count()).resolves.toBe(1);
      for (const name of await cardNames()) shown.add(name);
    }
    expect([...dogs, ...cats].filter((name) => !shown.has(name))).toEqual([]);
    await expect(page.getByRole('status').textContent()).resolves.toBe('25 animals shown.');
    // Only this organisation's animals: another account's are not shown.
    expect([...shown].filter((name) => ![...dogs, ...cats].includes(name))).toEqual([]);
    expect(apiRequests().filter((url) => url.includes('/v1/pets?'))).toEqual(
      expect.arrayContaining([expect.stringContaining(`organizationId=${organizationId}`)]),
    );
    // Only the api and the page itself were asked for anything; no cookie was set.
    expect(requests.filter((url) => !url.startsWith(`${apiUrl}/`) && !url.startsWith(`${site.origin}/`))).toEqual([]);
    expect(requests).toContain(`${apiUrl}/widget.js`);
    await expect(context.cookies()).resolves.toEqual([]);
  });

  it('filters by category', async () => {
    await page.goto(`${site.origin}/${publishableKey}`);
    await cards().first().waitFor();
    await page.getByLabel('Category').selectOption({ label: 'Cats' });
    await page.locator('[data-pet-adoption] li', { hasText: cats[0]! }).waitFor();
    await page.getByRole('status').filter({ hasNotText: 'Loading' }).waitFor();
    const names = await cardNames();
    expect(names).toEqual(expect.arrayContaining(cats));
    expect(names.filter((name) => name.startsWith('Dog '))).toEqual([]);
    expect(apiRequests().some((url) => url.includes('categoryId=2'))).toBe(true);
  });

  it('tells a site whose origin the key does not allow, and asks nothing more', async () => {
    await page.goto(`${elsewhere.origin}/${publishableKey}`);
    const message = page.getByRole('alert');
    await expect(message.textContent()).resolves.toContain(`This website (${elsewhere.origin}) is not allowed`);
    // The widget stopped at its first refusal and left nothing that could ask again.
    expect(apiRequests()).toEqual([`${apiUrl}/v1/categories`]);
    expect(await page.locator('[data-pet-adoption] select, [data-pet-adoption] button').count()).toBe(0);
  });

  it('refuses to run with a secret key, sending it nowhere', async () => {
    await page.goto(`${site.origin}/${shelter.key}`);
    const message = page.getByRole('alert');
    await expect(message.textContent()).resolves.toContain('refuses to run with a secret key');
    expect(apiRequests()).toEqual([]);
    expect(requests.filter((url) => url.includes(shelter.key))).toEqual([`${site.origin}/${shelter.key}`]);
  });
  it('speaks French on a lang="fr" page, and shows a placeholder for an animal without a photo', async () => {
    await page.goto(pageUrl(site.origin, publishableKey, { lang: 'fr' }));
    await cards().nth(19).waitFor();
    await expect(widget().getAttribute('lang')).resolves.toBe('fr');
    await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
      `Animaux à adopter chez ${organizationName}`,
    );
    const category = page.getByLabel('Catégorie');
    await expect(category.locator('option').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['Tous les animaux', 'Chiens', 'Chats', 'Lapins', 'Petits mammifères']),
    );
    await expect(page.getByRole('list', { name: 'Animaux', exact: true }).count()).resolves.toBe(1);
    const first = card(dogs[0]!);
    await expect(first.getByRole('img', { name: `${dogs[0]}, Labrador`, exact: true }).count()).resolves.toBe(1);
    await expect(first.locator('p').first().textContent()).resolves.toBe('Labrador · Jeune · Grande taille · Femelle');
    await expect(
      first.getByRole('link', { name: `Adopter ${dogs[0]}`, exact: true }).getAttribute('href'),
    ).resolves.toBe(ADOPTION_URL);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Les 20 premiers animaux sont affichés.');
    await expect(page.getByRole('button', { name: 'Voir plus d’animaux', exact: true }).isVisible()).resolves.toBe(
      true,
    );

    // The placeholder is a picture of its own: it says, in French, that there is no photo yet.
    const placeholder = card(dogs[1]!).getByRole('img', { name: `Pas encore de photo pour ${dogs[1]}`, exact: true });
    await expect(placeholder.textContent()).resolves.toBe('Pas encore de photo');
    const look = await placeholder.evaluate((node) => {
      const style = node.ownerDocument.defaultView!.getComputedStyle(node);
      const box = node.getBoundingClientRect();
      return { background: style.backgroundColor, color: style.color, ratio: box.width / box.height };
    });
    expect(look).toEqual({ background: 'rgb(243, 239, 231)', color: 'rgb(74, 64, 54)', ratio: expect.any(Number) });
    expect(look.ratio).toBeCloseTo(4 / 3, 1);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-fr-first-page.png'), fullPage: true });

    // The first cat is a female: her words agree with her, and neither cat has a photo.
    await category.selectOption({ label: 'Chats' });
    await page.getByRole('status').filter({ hasText: '2 animaux affichés.' }).waitFor();
    await expect(card(cats[0]!).locator('p').first().textContent()).resolves.toBe(
      'Siamese · Adulte · Taille moyenne · Femelle',
    );
    for (const name of cats) {
      await expect(
        page.getByRole('img', { name: `Pas encore de photo pour ${name}`, exact: true }).count(),
      ).resolves.toBe(1);
    }
  });

  it('follows the closest lang, falls back from fr-CA to fr and from a language it lacks to English, and data-lang overrides both', async () => {
    const cases: Array<{ options: Record<string, string>; lang: string; heading: string; more: string }> = [
      { options: { lang: 'fr-CA' }, lang: 'fr-CA', heading: 'Animaux à adopter chez', more: 'Voir plus d’animaux' },
      {
        options: { lang: 'en', section: 'es' },
        lang: 'es',
        heading: 'Animales en adopción en',
        more: 'Ver más animales',
      },
      { options: { lang: 'ja' }, lang: 'en', heading: 'Animals for adoption at', more: 'More animals' },
      {
        options: { lang: 'fr', 'data-lang': 'de' },
        lang: 'de',
        heading: 'Tiere zur Vermittlung bei',
        more: 'Weitere Tiere',
      },
    ];
    for (const expected of cases) {
      await page.goto(pageUrl(site.origin, publishableKey, expected.options));
      await cards().first().waitFor();
      await expect(widget().getAttribute('lang')).resolves.toBe(expected.lang);
      await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
        `${expected.heading} ${organizationName}`,
      );
      await expect(page.getByRole('button', { name: expected.more, exact: true }).isVisible()).resolves.toBe(true);
    }
    // German, from data-lang on a French page: every word of a card.
    const first = card(dogs[0]!);
    await expect(first.locator('p').first().textContent()).resolves.toBe('Labrador · Jung · Groß · Weiblich');
    await expect(first.getByRole('link', { name: `${dogs[0]} adoptieren`, exact: true }).count()).resolves.toBe(1);
    await expect(
      card(dogs[1]!)
        .getByRole('img', { name: `Noch kein Foto von ${dogs[1]}`, exact: true })
        .textContent(),
    ).resolves.toBe('Noch kein Foto');
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-de-on-a-fr-page.png'), fullPage: true });

    // Spanish agrees with a female animal.
    await page.goto(pageUrl(site.origin, publishableKey, { lang: 'es' }));
    await cards().first().waitFor();
    await page.getByLabel('Categoría').selectOption({ label: 'Gatos' });
    await page.getByRole('status').filter({ hasText: 'Se muestran 2 animales.' }).waitFor();
    await expect(card(cats[0]!).locator('p').first().textContent()).resolves.toBe(
      'Siamese · Adulta · Mediana · Hembra',
    );

    // Its refusals too are in the page's language.
    await page.goto(pageUrl(elsewhere.origin, publishableKey, { lang: 'de' }));
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      `Diese Website (${elsewhere.origin}) darf diese Tiere nicht zeigen`,
    );
    await page.goto(pageUrl(site.origin, shelter.key, { lang: 'es-MX' }));
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'Este widget se niega a funcionar con una clave secreta',
    );
  });

  it('takes the site’s own wording for any label, in any language', async () => {
    await page.goto(
      pageUrl(site.origin, publishableKey, {
        lang: 'fr',
        'data-label-heading-at': 'Nos pensionnaires chez {organization}',
        'data-label-adopt': 'Rencontrer {name}',
        'data-label-category-cats': 'Chats et chatons',
        'data-label-shown-first-other': '{count} premiers compagnons',
      }),
    );
    await cards().nth(19).waitFor();
    await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
      `Nos pensionnaires chez ${organizationName}`,
    );
    await expect(
      card(dogs[0]!)
        .getByRole('link', { name: `Rencontrer ${dogs[0]}`, exact: true })
        .count(),
    ).resolves.toBe(1);
    await expect(page.getByRole('status').textContent()).resolves.toBe('20 premiers compagnons');
    await expect(page.getByLabel('Catégorie').locator('option').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['Chats et chatons', 'Chiens']),
    );
    // What the site did not reword stays French.
    await expect(page.getByRole('button', { name: 'Voir plus d’animaux', exact: true }).isVisible()).resolves.toBe(
      true,
    );
  });

  it('draws a focus ring of its own from the keyboard, on links and headings, and leaves the page’s own alone', async () => {
    await page.goto(pageUrl(site.origin, publishableKey));
    await cards().nth(19).waitFor();
    // From the category filter, Tab reaches the first animal's link.
    await page.getByLabel('Category').focus();
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus').textContent()).resolves.toBe(`Adopt ${dogs[0]}`);
    await expect(focusRing()).resolves.toEqual(WIDGET_RING);
    await card(dogs[0]!).screenshot({ path: join(SCREENSHOTS, 'widget-focus-link.png') });

    // The page's own link keeps the browser's ring: the widget's style does not reach it.
    await page.locator('#home').focus();
    const home = await focusRing();
    expect(home.focusVisible).toBe(true);
    expect(home.outline).not.toBe(WIDGET_RING.outline);

    // "More animals" from the keyboard: the heading it moves the focus to has the widget's ring.
    await page.getByRole('button', { name: 'More animals' }).focus();
    await page.keyboard.press('Enter');
    await cards().nth(20).waitFor();
    await expect(page.locator(':focus').textContent()).resolves.toBe((await cardNames())[20]);
    await expect(focusRing()).resolves.toEqual(WIDGET_RING);
    await cards()
      .nth(20)
      .screenshot({ path: join(SCREENSHOTS, 'widget-focus-heading.png') });
  });
});
