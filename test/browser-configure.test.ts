/**
 * The configure page in a real browser (Debian's Chromium through playwright-core): a person
 * fills every field type by its label and the keyboard, fixes a missing required field, gets an
 * install link whose config segment is an encrypted token, and reconfigures from that link. The
 * values the add-on's handler receives over HTTP are checked, typed, after each step.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAddon } from '../src/addon/index.js';
import {
  createRequestHandler,
  createTokenCodec,
  generateKeyRing,
  listen,
  type RunningServer,
} from '../src/server/index.js';
import { launchBrowser, type TestBrowser, watchPage } from './helpers/browser.js';
import { type HostedUnderTest, type SourceServer, startHosted, startSourceServer } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';
import { describeWith } from './helpers/tools.js';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');

const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128"><rect width="128" height="128" rx="24" fill="#7b5bf5"/>' +
  '<text x="64" y="84" fill="#fff" font-family="sans-serif" font-size="56" font-weight="700" text-anchor="middle">CC</text></svg>';
/** The logo on a server of its own: a page takes http(s) logos only (a data: one is refused). */
const logoServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(LOGO_SVG));
await new Promise<void>((resolve) => logoServer.listen(0, '127.0.0.1', resolve));
const LOGO = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}/logo.svg`;

const MANIFEST = {
  id: 'org.marquee.browser-test',
  version: '1.2.0',
  name: 'Cinema Club',
  description: 'Hand-picked films from your cinema club, in the region and picture quality you choose.',
  logo: LOGO,
  resources: ['catalog'],
  types: ['movie'],
  catalogs: [{ type: 'movie', id: 'picks', name: 'Club picks' }],
  config: [
    { key: 'account', type: 'text', title: 'Account name', required: true },
    { key: 'password', type: 'password', title: 'Password', required: true },
    { key: 'rows', type: 'number', title: 'Films per row', default: '20', required: true },
    {
      key: 'region',
      type: 'select',
      title: 'Region',
      options: ['Europe', 'North America', 'Asia & Pacific'],
      default: 'Europe',
    },
    { key: 'hd', type: 'checkbox', title: 'Prefer HD streams', default: 'checked' },
  ],
  behaviorHints: { configurable: true },
} as const;

/** A password with every character a URL or a form would mangle if it travelled in clear text. */
const PASSWORD = 'pä55 w/ord?&=#%+';

const codec = createTokenCodec(generateKeyRing('k1'), MANIFEST.id);
/** What the catalog handler was called with, in order. */
const received: Record<string, unknown>[] = [];
const addon = createAddon({
  manifest: MANIFEST,
  configCodec: codec,
  handlers: {
    catalog: ({ config }) => {
      received.push({ ...config });
      return { metas: [{ id: 'cc:1', type: 'movie', name: `${config.rows} picks for ${config.account}` }] };
    },
  },
});

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let watch: ReturnType<typeof watchPage>;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await listen(createRequestHandler(addon), { port: 0 });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  watch = watchPage(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  logoServer.closeAllConnections();
  await new Promise((resolve) => logoServer.close(resolve));
});

/** The id of the focused element, or its text when it has none (the submit button). */
async function focused(p: Page): Promise<string | null> {
  const element = p.locator(':focus');
  return (await element.getAttribute('id')) ?? (await element.textContent());
}

/** The config segment of a manifest URL, percent-decoded. */
function segmentOf(manifestUrl: string): string {
  const match = /^(?:https?|stremio):\/\/[^/]+\/([^/]+)\/manifest\.json$/.exec(manifestUrl);
  if (!match) throw new Error(`not a configured manifest URL: ${manifestUrl}`);
  return decodeURIComponent(match[1]!);
}

/**
 * The install link of a server on plain HTTP on this machine: the address to paste and the
 * Stremio Web link (no stremio:// link, which the client would open as https).
 */
async function installLinks(p: Page): Promise<{ web: string; http: string }> {
  const web = await p.getByRole('link', { name: 'Open in Stremio Web' }).getAttribute('href');
  const http = await p
    .getByLabel('Or paste this address into the add-on search of the Stremio app on this computer:')
    .inputValue();
  expect(await p.getByRole('link', { name: 'Install in Stremio' }).count()).toBe(0);
  return { web: web ?? '', http };
}

let firstLink: { web: string; http: string };

describeWith(['chromium'], 'the configure page in Chromium', () => {
  it('sends / to /configure and serves the page with CSP, nosniff and no framing', async () => {
    const root = await httpRequest(server.url, '/');
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe(`${server.url}/configure`);

    const res = await httpRequest(server.url, '/configure');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(res.text()).toContain(`<script nonce="${nonce}">`);
    const again = await httpRequest(server.url, '/configure');
    expect(again.headers['content-security-policy']).not.toBe(csp);

    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${server.url}/configure`);
    expect(await page.title()).toBe('Configure Cinema Club');
  });

  it('shows one labelled field per config entry with its default', async () => {
    expect(await page.getByLabel('Account name').inputValue()).toBe('');
    expect(await page.getByLabel('Account name').getAttribute('required')).not.toBeNull();
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
    expect(await page.getByLabel('Films per row').getAttribute('type')).toBe('number');
    expect(await page.getByLabel('Films per row').inputValue()).toBe('20');
    expect(await page.getByLabel('Region').inputValue()).toBe('Europe');
    expect(await page.getByLabel('Region').locator('option').allTextContents()).toEqual([
      'Europe',
      'North America',
      'Asia & Pacific',
    ]);
    expect(await page.getByLabel('Prefer HD streams').isChecked()).toBe(true);
  });

  it('explains a missing required field and keeps the other values (the password is not echoed)', async () => {
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Films per row').fill('35');
    await page.getByLabel('Region').selectOption('Asia & Pacific');
    await page.getByLabel('Prefer HD streams').uncheck();
    // Enter in a field submits the form, as it does for anyone using the keyboard.
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByLabel('Films per row').press('Enter'),
    ]);
    expect(response.status()).toBe(400);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Account name is required');
    // The problem is tied to its field for screen readers, and the summary's link moves focus there.
    const account = page.getByLabel('Account name');
    expect(await account.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await account.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('Account name is required');
    await page.screenshot({ path: join(ARTIFACTS, 'configure-errors.png'), fullPage: true });
    await alert.getByRole('link', { name: 'Account name' }).click();
    expect(await focused(page)).toBe('field-account');
    expect(await page.getByLabel('Films per row').inputValue()).toBe('35');
    expect(await page.getByLabel('Region').inputValue()).toBe('Asia & Pacific');
    expect(await page.getByLabel('Prefer HD streams').isChecked()).toBe(false);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await page.getByText('Passwords are not shown again: please type it once more.').isVisible()).toBe(true);
    expect(await page.content()).not.toContain('pä55');
    expect(received).toHaveLength(0);
  });

  it('walks the form with the keyboard alone and produces an install link', async () => {
    await page.getByLabel('Account name').focus();
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('field-password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('field-rows');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('24');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('field-region');
    await page.getByLabel('Region').selectOption('North America');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('field-hd');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Create install link');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.keyboard.press('Enter'),
    ]);
    expect(response.status()).toBe(200);
    await page.getByRole('heading', { name: 'Ready to install' }).waitFor();

    firstLink = await installLinks(page);
    expect(firstLink.http).toMatch(new RegExp(`^${server.url}/[^/]+/manifest\\.json$`));
    expect(firstLink.web).toBe(`https://web.stremio.com/#/addons?addon=${encodeURIComponent(firstLink.http)}`);

    // The page's own script (allowed by its nonce) copies the address.
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor({ timeout: 5_000 });

    await page.screenshot({ path: join(ARTIFACTS, 'configure.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, 'configure-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1024, height: 900 });
  });

  it('puts an encrypted token in the URL, never the password', async () => {
    const segment = segmentOf(new URL(firstLink.web.replace('#/addons', '/addons')).searchParams.get('addon')!);
    expect(segment).toBe(segmentOf(firstLink.http));
    expect(segment).toMatch(/^v1\.k1\.[A-Za-z0-9_-]+$/);
    for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), 'Ada', 'North']) {
      expect(firstLink.http).not.toContain(secret);
    }
    const sealed = Buffer.from(segment.split('.')[2]!, 'base64url');
    expect(sealed.includes(Buffer.from(PASSWORD))).toBe(false);
    expect(codec.decode(segment)).toEqual({
      account: 'Ada Lovelace',
      password: PASSWORD,
      rows: 24,
      region: 'North America',
      hd: true,
    });
  });

  it('serves the manifest and a catalog with that config, typed', async () => {
    const path = new URL(firstLink.http).pathname;
    const manifest = await httpRequest(server.url, path);
    expect(manifest.status).toBe(200);
    expect(manifest.json().id).toBe(MANIFEST.id);
    expect(manifest.json().behaviorHints.configurable).toBe(true);

    const catalog = await httpRequest(server.url, path.replace(/manifest\.json$/, 'catalog/movie/picks.json'));
    expect(catalog.status).toBe(200);
    expect(catalog.json().metas[0].name).toBe('24 picks for Ada Lovelace');
    const config = received.at(-1)!;
    expect(config).toEqual({
      account: 'Ada Lovelace',
      password: PASSWORD,
      rows: 24,
      region: 'North America',
      hd: true,
    });
    expect(typeof config.rows).toBe('number');
    expect(typeof config.hd).toBe('boolean');
  });

  it('reopens pre-filled from the link; an empty password keeps the old one', async () => {
    const segment = new URL(firstLink.http).pathname.split('/')[1]!;
    const response = await page.goto(`${server.url}/${segment}/configure`);
    expect(response?.status()).toBe(200);
    expect(await page.getByLabel('Account name').inputValue()).toBe('Ada Lovelace');
    expect(await page.getByLabel('Films per row').inputValue()).toBe('24');
    expect(await page.getByLabel('Region').inputValue()).toBe('North America');
    expect(await page.getByLabel('Prefer HD streams').isChecked()).toBe(true);
    const password = page.getByLabel('Password');
    expect(await password.inputValue()).toBe('');
    expect(await password.getAttribute('placeholder')).toBe('unchanged');
    expect(await page.content()).not.toContain('pä55');

    await page.getByLabel('Films per row').fill('12');
    await page.getByLabel('Prefer HD streams').uncheck();
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 200),
      page.getByRole('button', { name: 'Update install link' }).click(),
    ]);
    await page.getByRole('heading', { name: 'Ready to install' }).waitFor();
    const updated = await installLinks(page);
    expect(updated.http).not.toBe(firstLink.http);

    const path = new URL(updated.http).pathname.replace(/manifest\.json$/, 'catalog/movie/picks.json');
    expect((await httpRequest(server.url, path)).status).toBe(200);
    expect(received.at(-1)).toEqual({
      account: 'Ada Lovelace',
      password: PASSWORD,
      rows: 12,
      region: 'North America',
      hd: false,
    });
    // The first install link still works: reconfiguring makes a new link, it does not revoke the old.
    const old = new URL(firstLink.http).pathname.replace(/manifest\.json$/, 'catalog/movie/picks.json');
    const oldCatalog = await httpRequest(server.url, old);
    expect(oldCatalog.status).toBe(200);
    expect(oldCatalog.json().metas[0].name).toBe('24 picks for Ada Lovelace');
  });

  it('answers 404 to a tampered or unknown-key token', async () => {
    const segment = segmentOf(firstLink.http);
    const [version, keyId, sealed] = segment.split('.') as [string, string, string];
    const flipped = sealed.slice(0, 20) + (sealed[20] === 'A' ? 'B' : 'A') + sealed.slice(21);
    const calls = received.length;
    for (const bad of [`${version}.${keyId}.${flipped}`, `${version}.k2.${sealed}`, `${version}.${keyId}.${sealed}x`]) {
      const encoded = encodeURIComponent(bad);
      expect((await httpRequest(server.url, `/${encoded}/configure`)).status).toBe(404);
      expect((await httpRequest(server.url, `/${encoded}/manifest.json`)).status).toBe(404);
      expect((await httpRequest(server.url, `/${encoded}/catalog/movie/picks.json`)).status).toBe(404);
    }
    expect(received.length).toBe(calls);
  });

  it('ran only its own script: no dialogs, no page errors, no CSP violations', () => {
    expect(watch.dialogs).toEqual([]);
    expect(watch.errors).toEqual([]);
    // The 400 of the first submit is the only failed load: no favicon request, no blocked resource.
    expect(watch.consoleErrors).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
  });
});

const HOSTILE = {
  name: '<script>alert("name")</script> & Co',
  description: '<img src=x onerror="alert(\'description\')"> films',
  title: 'Nickname <script>alert("title")</script>',
  option: '"><script>alert("option")</script>',
  value: '"><script>alert("value")</script><b>bold</b>',
};

describeWith(['chromium'], 'strings from the manifest and the user are shown as text', () => {
  let hostileServer: RunningServer;
  let hostilePage: Page;
  let hostileWatch: ReturnType<typeof watchPage>;

  beforeAll(async () => {
    const hostile = createAddon({
      manifest: {
        id: 'org.marquee.hostile',
        version: '1.0.0',
        name: HOSTILE.name,
        description: HOSTILE.description,
        resources: ['catalog'],
        types: ['movie'],
        catalogs: [{ type: 'movie', id: 'all', name: 'All' }],
        config: [
          { key: 'nick', type: 'text', title: HOSTILE.title },
          { key: 'pick', type: 'select', title: 'Pick <i>one</i>', options: [HOSTILE.option, 'plain'] },
        ],
        behaviorHints: { configurable: true },
      },
      configCodec: createTokenCodec(generateKeyRing(), 'org.marquee.hostile'),
      handlers: { catalog: () => ({ metas: [] }) },
    });
    hostileServer = await listen(createRequestHandler(hostile), { port: 0 });
    hostilePage = await browser.context.newPage();
    hostileWatch = watchPage(hostilePage);
  });

  afterAll(async () => {
    await hostilePage?.close();
    await hostileServer?.close();
  });

  /** Only the page's own nonce script exists, and no markup from the strings became elements. */
  async function expectInert(p: Page) {
    expect(await p.locator('script').count()).toBe(1);
    expect(await p.locator('main b, main i, main img:not(header img)').count()).toBe(0);
    expect(await p.locator('h1').textContent()).toBe(HOSTILE.name);
    expect(await p.locator('.lead').textContent()).toBe(HOSTILE.description);
  }

  it('escapes the name, description, titles, options and a submitted value', async () => {
    expect((await hostilePage.goto(`${hostileServer.url}/configure`))?.status()).toBe(200);
    await expectInert(hostilePage);
    expect(await hostilePage.title()).toBe(`Configure ${HOSTILE.name}`);
    const pick = hostilePage.getByLabel('Pick <i>one</i>');
    expect(await pick.locator('option').allTextContents()).toEqual([HOSTILE.option, 'plain']);

    await hostilePage.getByLabel(HOSTILE.title).fill(HOSTILE.value);
    await pick.selectOption(HOSTILE.option);
    await Promise.all([
      hostilePage.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 200),
      hostilePage.getByRole('button', { name: 'Create install link' }).click(),
    ]);
    await hostilePage.getByRole('heading', { name: 'Ready to install' }).waitFor();
    await expectInert(hostilePage);
    expect(await hostilePage.getByLabel(HOSTILE.title).inputValue()).toBe(HOSTILE.value);
    expect(await pick.inputValue()).toBe(HOSTILE.option);

    const link = await installLinks(hostilePage);
    expect((await hostilePage.goto(link.http.replace(/manifest\.json$/, 'configure')))?.status()).toBe(200);
    await expectInert(hostilePage);
    expect(await hostilePage.getByLabel(HOSTILE.title).inputValue()).toBe(HOSTILE.value);
    expect(await hostilePage.getByLabel('Pick <i>one</i>').inputValue()).toBe(HOSTILE.option);

    expect(hostileWatch.dialogs).toEqual([]);
    expect(hostileWatch.errors).toEqual([]);
    expect(hostileWatch.consoleErrors).toEqual([]);
  });
});

describeWith(
  ['chromium'],
  'a hosted instance in Chromium: forms from other sites are refused, its own page works',
  () => {
    let sources: SourceServer;
    let hosted: HostedUnderTest;
    let foreign: Server;
    let foreignUrl: string;
    let hostedPage: Page;
    let dir: string;

    beforeAll(async () => {
      sources = await startSourceServer();
      dir = mkdtempSync(join(tmpdir(), 'marquee-browser-hosted-'));
      hosted = await startHosted(dir, generateKeyRing(), { sourceOptions: { allowPrivate: true } });
      // Another site: a page that posts a form to the instance as soon as it loads, as any web page can.
      foreign = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><title>Free TV</title><form method="post" action="${hosted.url}/configure">` +
            `<input name="cfg_playlist" value="${sources.url}/a.m3u?from=evil"></form>` +
            '<script>document.forms[0].submit()</script>',
        );
      });
      await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
      // localhost and 127.0.0.1 are two hosts to the browser: the page's Origin names the other one.
      foreignUrl = `http://localhost:${(foreign.address() as AddressInfo).port}/`;
      hostedPage = await browser.context.newPage();
    });

    afterAll(async () => {
      await hostedPage?.close();
      await hosted?.close();
      foreign?.closeAllConnections();
      await new Promise((resolve) => foreign?.close(resolve));
      await sources?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("refuses the other site's form with 403 and fetches nothing", async () => {
      const [response] = await Promise.all([
        hostedPage.waitForResponse((r) => r.request().method() === 'POST'),
        hostedPage.goto(foreignUrl),
      ]);
      expect(response.request().headers().origin).toBe(foreignUrl.replace(/\/$/, ''));
      expect(response.status()).toBe(403);
      expect((await response.json()).error.code).toBe('CROSS_SITE_REQUEST');
      expect(sources.hits.get('/a.m3u?from=evil')).toBeUndefined();
      expect(hosted.service.list()).toEqual([]);
    });

    it('takes its own form, posted from its own page (same site)', async () => {
      expect((await hostedPage.goto(`${hosted.url}/configure`))?.status()).toBe(200);
      await hostedPage.getByLabel('Playlist (M3U URL)').fill(`${sources.url}/a.m3u?from=own-page`);
      await hostedPage.getByLabel('Guide (XMLTV URL, optional)').fill(`${sources.url}/guide.xml`);
      const [response] = await Promise.all([
        hostedPage.waitForResponse((r) => r.request().method() === 'POST'),
        hostedPage.getByRole('button', { name: 'Create install link' }).click(),
      ]);
      expect(response.request().headers().origin).toBe(hosted.url);
      expect([200, 202]).toContain(response.status());
      // Plain HTTP on loopback: no stremio:// button (it would open https://), Stremio Web instead.
      await hostedPage.getByRole('link', { name: 'Open in Stremio Web' }).waitFor({ timeout: 15_000 });
      expect(await hostedPage.content()).toContain('3 channels, 3 with a guide');
      expect(sources.hits.get('/a.m3u?from=own-page')).toBe(1);
    });
  },
);
