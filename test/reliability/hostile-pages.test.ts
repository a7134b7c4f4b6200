/**
 * Hostile strings on every HTML page: `<script>`, attribute breakers and event handlers put
 * through the manifest (name, description, logo, background), catalog names of both backends,
 * playlist groups and library genres, config field titles, select options and defaults, values a
 * user sends to /configure and the installed config shown again on reconfigure — on the landing
 * page, /configure (GET, POST with problems, POST accepted, reconfigure) and the static export's
 * index.html. Each page is parsed as a browser would (htmlparser2): the only scripts are ours
 * (with the nonce of the page's CSP), no element has an event-handler attribute, no URL attribute
 * holds `javascript:` unless it is an <img> the CSP's img-src refuses, and the payload is on
 * the page as text, escaped rather than dropped. Server pages carry CSP, nosniff and
 * frame-ancestors. (test/server.test.ts covers the landing page's name and description;
 * the browser test covers the configure form's behaviour.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Addon, composeAddon, createAddon } from '../../src/addon/index.js';
import { exportAddon } from '../../src/export/index.js';
import { createLibraryPart, importLibrary } from '../../src/library/index.js';
import { createLiveTvPart, importLiveTv } from '../../src/livetv/index.js';
import {
  createRequestHandler,
  createTokenCodec,
  generateKeyRing,
  type RequestHandler,
} from '../../src/server/index.js';
import { openStore, type Store } from '../../src/store/index.js';

const XSS = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
const LOGO = 'https://logo.example/a.png" onerror="alert(3)';

interface Element {
  readonly name: string;
  readonly attributes: Record<string, string>;
  text: string;
}

/** Every element of `page` with its attributes and (for scripts) its text, and all visible text. */
function parse(page: string): { elements: Element[]; text: string } {
  const elements: Element[] = [];
  let text = '';
  const open: Element[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element = { name, attributes, text: '' };
        elements.push(element);
        open.push(element);
      },
      ontext(data) {
        const current = open[open.length - 1];
        if (current?.name === 'script' || current?.name === 'style') current.text += data;
        else text += data;
      },
      onclosetag() {
        open.pop();
      },
    },
    { decodeEntities: true },
  );
  parser.write(page);
  parser.end();
  return { elements, text };
}

/** The checks of the file comment, for one page. */
function expectHarmless(page: string, nonce: string | undefined, payloads: readonly string[]): void {
  const { elements, text } = parse(page);
  for (const el of elements) {
    for (const attribute of Object.keys(el.attributes))
      expect(attribute, `<${el.name} ${attribute}>`).not.toMatch(/^on/i);
    for (const key of ['href', 'src', 'action', 'formaction']) {
      const value = el.attributes[key];
      if (value !== undefined && el.name !== 'img') expect(value.trim()).not.toMatch(/^javascript:/i);
    }
    if (el.name === 'script') {
      if (nonce !== undefined) expect(el.attributes.nonce).toBe(nonce);
      expect(el.attributes.src).toBeUndefined();
      expect(el.text).not.toMatch(/alert/);
    }
    expect(['iframe', 'object', 'embed', 'base']).not.toContain(el.name);
    // No refresh or other header by <meta>: only the static export's own policy (a page served has it as a header).
    if (el.name === 'meta' && el.attributes['http-equiv'] !== undefined) {
      expect(el.attributes['http-equiv']).toBe('Content-Security-Policy');
      expect(el.attributes.content).toMatch(/^default-src 'none'; .*script-src 'sha256-[^;]+; /);
    }
  }
  expect(
    elements.filter((e) => e.name === 'meta' && e.attributes['http-equiv'] !== undefined).length,
  ).toBeLessThanOrEqual(1);
  for (const payload of payloads) expect(text, `the page shows ${payload} as text`).toContain(payload);
}

function nonceOf(csp: string | undefined): string {
  const nonce = /script-src 'nonce-([^']+)'/.exec(csp ?? '')?.[1];
  expect(nonce).toBeDefined();
  return nonce!;
}

async function page(handler: RequestHandler, method: string, url: string, body?: string) {
  const bytes = Buffer.from(body ?? '');
  const res = await handler({
    method,
    url,
    header: (name) => (name === 'host' ? 'tv.example:7000' : undefined),
    readBody: async () => bytes,
  });
  const html = Buffer.from(res.body).toString('utf8');
  return { status: res.status, headers: res.headers, html };
}

function expectPageHeaders(headers: Readonly<Record<string, string>>): void {
  expect(headers['content-type']).toBe('text/html; charset=utf-8');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
  expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(headers['content-security-policy']).toMatch(/base-uri 'none'/);
  expect(headers['content-security-policy']).toMatch(/img-src https: http: data:(;|$)/);
  expect(headers['x-frame-options']).toBe('DENY');
}

let dir: string;
let store: Store;
let product: Addon;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-hostile-'));
  store = openStore(join(dir, 'store.db'));
  writeFileSync(
    join(dir, 'tv.m3u'),
    `#EXTM3U\n#EXTINF:-1 tvg-id="a.tv" tvg-logo="javascript:alert(4)" group-title="${XSS.replaceAll('"', "'")}",${XSS}\nhttps://streams.example/a.m3u8\n`,
  );
  await importLiveTv(store, { playlists: [{ location: join(dir, 'tv.m3u') }] });
  writeFileSync(
    join(dir, 'lib.json'),
    JSON.stringify([
      { type: 'movie', name: XSS, genres: [XSS], description: XSS, streams: [{ url: 'https://m.example/a.mp4' }] },
    ]),
  );
  await importLibrary(store, { files: [join(dir, 'lib.json')] });
  product = composeAddon(
    {
      id: 'org.marquee.hostile',
      version: '1.0.0',
      name: `Name ${XSS}`,
      description: `Description ${XSS}`,
      logo: LOGO,
      background: 'https://bg.example/b.jpg" onload="alert(5)',
      config: [{ key: 'groups', type: 'text', title: `Groups ${XSS}` }],
      behaviorHints: { configurable: true },
    },
    [
      createLiveTvPart(store, { catalogName: `TV ${XSS}` }),
      createLibraryPart(store, { catalogs: [{ type: 'movie', id: 'films', name: `Films ${XSS}` }] }),
    ],
    { configCodec: createTokenCodec(generateKeyRing(), 'org.marquee.hostile') },
  );
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the product add-on with hostile settings and data', () => {
  it('escapes everything on /configure, its answer and the reconfigure page', async () => {
    const handler = createRequestHandler(product);
    const landing = await page(handler, 'GET', '/');
    expect(landing.status).toBe(302);

    const form = await page(handler, 'GET', '/configure');
    expectPageHeaders(form.headers);
    expectHarmless(form.html, nonceOf(form.headers['content-security-policy']), [`Name ${XSS}`, `Groups ${XSS}`]);

    const sent = await page(handler, 'POST', '/configure', `cfg_groups=${encodeURIComponent(XSS)}`);
    expect(sent.status).toBe(200);
    expectPageHeaders(sent.headers);
    expectHarmless(sent.html, nonceOf(sent.headers['content-security-policy']), [`Description ${XSS}`]);
    const input = parse(sent.html).elements.find((e) => e.attributes.name === 'cfg_groups');
    expect(input?.attributes.value).toBe(XSS);

    const token = parse(sent.html).elements.find((e) => e.attributes.name === 'previous')?.attributes.value;
    expect(token).toBeDefined();
    const again = await page(handler, 'GET', `/${encodeURIComponent(token!)}/configure`);
    expect(again.status).toBe(200);
    expectHarmless(again.html, nonceOf(again.headers['content-security-policy']), []);
    expect(parse(again.html).elements.find((e) => e.attributes.name === 'cfg_groups')?.attributes.value).toBe(XSS);
  });

  it('escapes everything on the static export index.html', async () => {
    const out = join(dir, 'export');
    await exportAddon(product, out, { maxPages: 5 });
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    const { elements } = parse(index);
    const nonce = elements.find((e) => e.name === 'script')?.attributes.nonce;
    expectHarmless(index, nonce, [`Name ${XSS}`, `Description ${XSS}`, `TV ${XSS}`, `Films ${XSS}`]);
    expect(elements.find((e) => e.name === 'img')?.attributes.src).toBe(LOGO);
  });
});

describe('an SDK add-on with hostile config fields', () => {
  const addon = createAddon({
    manifest: {
      id: 'org.test.hostile-config',
      version: '1.0.0',
      name: `SDK ${XSS}`,
      description: XSS,
      resources: ['catalog'],
      types: ['movie'],
      catalogs: [{ type: 'movie', id: 'c', name: `Catalog ${XSS}` }],
      config: [
        { key: 'mode', type: 'select', title: `Mode ${XSS}`, options: [XSS, 'plain'], default: XSS },
        { key: 'text', type: 'text', title: 'Text', default: XSS },
        { key: 'count', type: 'number', title: `Count ${XSS}`, required: true },
        { key: 'secret', type: 'password', title: `Secret ${XSS}` },
        { key: 'flag', type: 'checkbox', title: `Flag ${XSS}` },
      ],
      behaviorHints: { configurable: true },
    },
    handlers: { catalog: () => ({ metas: [] }) },
  });
  const handler = createRequestHandler(addon);

  it('escapes titles, options and defaults on the form', async () => {
    const form = await page(handler, 'GET', '/configure');
    expectPageHeaders(form.headers);
    expectHarmless(form.html, nonceOf(form.headers['content-security-policy']), [`Mode ${XSS}`, `Count ${XSS}`]);
    const { elements } = parse(form.html);
    expect(elements.find((e) => e.name === 'option' && 'selected' in e.attributes)?.attributes.value).toBe(XSS);
    expect(elements.find((e) => e.attributes.name === 'cfg_text')?.attributes.value).toBe(XSS);
  });

  it('escapes what the user sent when the page lists problems, and never echoes the password', async () => {
    const body = `cfg_mode=${encodeURIComponent(XSS)}&cfg_text=${encodeURIComponent(XSS)}&cfg_count=${encodeURIComponent(XSS)}&cfg_secret=${encodeURIComponent(`pw${XSS}`)}`;
    const res = await page(handler, 'POST', '/configure', body);
    expect(res.status).toBe(400);
    expectPageHeaders(res.headers);
    expectHarmless(res.html, nonceOf(res.headers['content-security-policy']), [`Count ${XSS}`]);
    expect(res.html).not.toContain('pw&quot;&gt;');
    expect(parse(res.html).elements.find((e) => e.attributes.name === 'cfg_count')?.attributes.value).toBe(XSS);
  });

  it('escapes the landing page of an add-on without config', async () => {
    const plain = createAddon({
      manifest: {
        id: 'org.test.hostile-landing',
        version: '1.0.0',
        name: `SDK ${XSS}`,
        description: XSS,
        logo: LOGO,
        resources: ['catalog'],
        types: ['movie'],
        catalogs: [{ type: 'movie', id: 'c', name: `Catalog ${XSS}` }],
      },
      // One item with a poster: a catalog with nothing to show gets no heading at all.
      handlers: {
        catalog: () => ({
          metas: [{ id: 'tt1', type: 'movie', name: `Film ${XSS}`, poster: 'https://img.example.org/1.jpg' }],
        }),
      },
    });
    const landing = await page(createRequestHandler(plain), 'GET', '/');
    expect(landing.status).toBe(200);
    expectPageHeaders(landing.headers);
    expectHarmless(landing.html, nonceOf(landing.headers['content-security-policy']), [
      `SDK ${XSS}`,
      `Catalog ${XSS}`,
      `Film ${XSS}`,
    ]);
    expect(parse(landing.html).elements.find((e) => e.name === 'img')?.attributes.src).toBe(LOGO);
  });
});
