/**
 * The front page in a real browser (Debian's Chromium): for `marquee serve` on the demo (a
 * configurable add-on: `/` goes to `/configure`, whose top is the front page) and for an SDK
 * add-on whose every string is hostile. Name, logo, description, install from this machine (Stremio
 * Web and the copyable address; test/browser-install.test.ts has every case), posters and "Now on" with
 * what the guide says is on; nothing a manifest or item says runs as markup; the CSP holds.
 * Requests the page makes to other hosts (posters on the internet) are aborted, never sent.
 * Screenshots: test-artifacts/front-page-demo.png and front-page-hostile.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAddon, programmeId } from '../src/addon/index.js';
import { DEMO_CHANNELS } from '../src/demo/index.js';
import { createRequestHandler, listen, type RunningServer } from '../src/server/index.js';
import { launchBrowser, type PageWatch, type TestBrowser, watchPage } from './helpers/browser.js';
import { type RunningCli, startCli } from './helpers/cli.js';
import { httpRequest } from './helpers/http.js';
import { describeWith } from './helpers/tools.js';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');

let browser: TestBrowser;
let cwd: string;
let demo: RunningCli;
let demoBase: string;

/** A page that may load only from 127.0.0.1 (and data: URLs): anything else is aborted before it leaves. */
async function localPage(): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.context.newPage();
  await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
  return { page, watch: watchPage(page) };
}

/** Console errors other than the aborted outside requests: CSP violations and script errors. */
const realErrors = (watch: PageWatch) => watch.consoleErrors.filter((e) => !/net::ERR_FAILED/.test(e));

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  cwd = mkdtempSync(join(tmpdir(), 'marquee-front-'));
  demo = startCli(['serve', '--port', '0', '--demo', '--quiet'], { cwd });
  await demo.waitForStdout(/^ {2}configure: \S+$/m, 60_000);
  demoBase = /manifest: +(\S+)\/manifest\.json/.exec(demo.stdout())![1]!;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  demo?.stop();
  await demo?.done;
  rmSync(cwd, { recursive: true, force: true });
});

describeWith(['chromium'], 'the demo front page in Chromium', () => {
  let page: Page;
  let watch: PageWatch;

  beforeAll(async () => {
    ({ page, watch } = await localPage());
    const response = await page.goto(`${demoBase}/`);
    expect(response?.status()).toBe(200);
    await page.screenshot({ path: join(ARTIFACTS, 'front-page-demo.png'), fullPage: true });
  });

  it('is the top of /configure, as the spec sends a configurable add-on there', () => {
    expect(page.url()).toBe(`${demoBase}/configure`);
  });

  it('names the add-on and says what it is', async () => {
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Marquee Demo');
    expect(await page.locator('.lead').textContent()).toMatch(/^Six live channels with a programme guide/);
  });

  it('installs with the default settings from this machine: Stremio Web and the address, no stremio:// link', async () => {
    const manifestUrl = `${demoBase}/manifest.json`;
    // Plain HTTP on 127.0.0.1: a stremio:// link would be opened as https://, so there is none.
    expect(await page.locator('a[href^="stremio:"]').count()).toBe(0);
    const web = await page.getByRole('link', { name: 'Open in Stremio Web' }).getAttribute('href');
    expect(web).toBe(`https://web.stremio.com/#/addons?addon=${encodeURIComponent(manifestUrl)}`);
    expect(
      await page
        .getByLabel('Or paste this address into the add-on search of the Stremio app on this computer:')
        .inputValue(),
    ).toBe(manifestUrl);
    expect(await page.locator('.install .why').textContent()).toMatch(/^No one-click install/);
    // The address answers: no field is required, so the defaults make a working add-on.
    const manifest = await httpRequest(demoBase, '/manifest.json');
    expect(manifest.status).toBe(200);
    expect(manifest.json().name).toBe('Marquee Demo');
  });

  it('copies the address with the Copy button', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demoBase });
    await page.getByRole('button', { name: 'Copy' }).first().click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${demoBase}/manifest.json`);
  });

  it('shows what is on now on each channel, as the guide says, with its progress', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const guide = (await httpRequest(demoBase, `/catalog/tv/mq-tv-channels/date=${day}.json`)).json();
    const strip = await page.locator('.now-on li').evaluateAll((items) =>
      items.map((li) => ({
        channel: li.querySelector('strong')?.textContent,
        title: li.querySelector('.programme')?.textContent,
        progress: Number(li.querySelector('progress')?.getAttribute('value')),
      })),
    );
    expect(strip.map((s) => s.channel)).toEqual(DEMO_CHANNELS.map((c) => c.name));
    const now = Date.now();
    for (const entry of strip) {
      const channel = guide.metasDetailed.find((m: { name: string }) => m.name === entry.channel);
      const on = channel.videos.find(
        (v: { startTime: string; endTime: string }) => Date.parse(v.startTime) <= now && now < Date.parse(v.endTime),
      );
      expect(entry.title).toBe(on.title);
      expect(entry.progress).toBeGreaterThanOrEqual(0);
      expect(entry.progress).toBeLessThanOrEqual(100);
    }
  });

  it('shows the catalogs with a few posters each', async () => {
    const headings = await page.locator('.catalogs h3').allTextContents();
    expect(headings).toEqual(['Movies (movie)', 'Series (series)']);
    const movies = await page.locator('.catalogs .posters').first().locator('li span').allTextContents();
    expect(movies.length).toBeGreaterThanOrEqual(3);
    expect(movies.length).toBeLessThanOrEqual(8);
    const feed = (await httpRequest(demoBase, '/catalog/movie/movies.json')).json();
    expect(movies).toEqual(feed.metas.slice(0, movies.length).map((m: { name: string }) => m.name));
  });

  it('keeps the settings form below, and breaks no CSP rule', async () => {
    expect(await page.getByRole('button', { name: 'Create install link' }).isVisible()).toBe(true);
    expect(realErrors(watch)).toEqual([]);
    expect(watch.errors).toEqual([]);
  });
});

describeWith(['chromium'], 'a non-configurable SDK add-on with hostile strings', () => {
  const EVIL = `"><img src=x onerror=alert('xss')><script>alert('xss')</script>`;
  let server: RunningServer;
  let page: Page;
  let watch: PageWatch;

  beforeAll(async () => {
    const now = Date.now();
    const start = now - 20 * 60_000;
    const end = now + 40 * 60_000;
    const addon = createAddon({
      manifest: {
        id: 'org.test.hostile',
        version: '1.0.0',
        name: `Hostile ${EVIL}`,
        description: `Description ${EVIL}`,
        // http(s) only on a page (a data: or javascript: logo is refused); outside requests are aborted here.
        logo: 'https://img.example/logo.svg',
        resources: ['catalog'],
        types: ['movie', 'tv'],
        catalogs: [
          { type: 'movie', id: 'films', name: `Films ${EVIL}` },
          { type: 'tv', id: 'guide', name: 'Guide', extra: [{ name: 'date' }] },
        ],
      },
      handlers: {
        catalog: ({ type, extra }) =>
          type === 'movie'
            ? { metas: [{ id: 'x:1', type: 'movie', name: `Film ${EVIL}`, poster: `https://img.example/${EVIL}.jpg` }] }
            : {
                metasDetailed: extra.date
                  ? [
                      {
                        id: 'x:tv',
                        type: 'tv',
                        name: `Channel ${EVIL}`,
                        behaviorHints: { hasScheduledVideos: true },
                        videos: [
                          {
                            id: programmeId('x:tv', start),
                            title: `Programme ${EVIL}`,
                            released: new Date(start).toISOString(),
                            startTime: new Date(start).toISOString(),
                            endTime: new Date(end).toISOString(),
                          },
                        ],
                      },
                    ]
                  : [],
              },
      },
    });
    server = await listen(createRequestHandler(addon), { port: 0 });
    ({ page, watch } = await localPage());
    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    await page.screenshot({ path: join(ARTIFACTS, 'front-page-hostile.png'), fullPage: true });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('shows every string as text and runs none of it', async () => {
    expect(page.url()).toBe(`${server.url}/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Hostile ${EVIL}`);
    expect(await page.locator('.lead').textContent()).toBe(`Description ${EVIL}`);
    expect(await page.locator('.catalogs h3').first().textContent()).toBe(`Films ${EVIL} (movie)`);
    expect(await page.locator('.posters li span').textContent()).toBe(`Film ${EVIL}`);
    expect(await page.locator('.now-on strong').textContent()).toBe(`Channel ${EVIL}`);
    expect(await page.locator('.now-on .programme').textContent()).toBe(`Programme ${EVIL}`);
    // One progress bar a third of the way: 20 of 60 minutes.
    const progress = Number(await page.locator('.now-on progress').getAttribute('value'));
    expect(progress).toBeGreaterThanOrEqual(33);
    expect(progress).toBeLessThanOrEqual(35);
    expect(await page.locator('img[onerror], script:not([nonce])').count()).toBe(0);
    expect(watch.dialogs).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(realErrors(watch)).toEqual([]);
  });

  it('installs from the plain manifest address, with no configure link', async () => {
    const address = await page
      .getByLabel('Or paste this address into the add-on search of the Stremio app on this computer:')
      .inputValue();
    expect(address).toBe(`${server.url}/manifest.json`);
    expect(await page.getByRole('link', { name: /settings/ }).count()).toBe(0);
  });
});
