/**
 * The HTTPS guide the server serves itself at /https (docs/https.md rendered), over real
 * sockets: the page answers with the headers and policy of every other page, its in-page links
 * land on its headings and its other links are http(s), every text is escaped and a
 * `javascript:` link in the Markdown is no link. The install sections of the front and configure
 * pages (plain hosted mode's included) link it under the add-on's base URL; a server not given
 * the guide answers 404 there and names the guide in words, with no link to a page that is not
 * there. The CLI finds docs/https.md from its own module's URL in a checkout, in dist/ and in an
 * installed package, and the package ships it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddon } from '../src/addon/index.js';
import { readHttpsGuide } from '../src/cli/https-guide.js';
import {
  createRequestHandler,
  generateKeyRing,
  HTTPS_GUIDE_PATH,
  HTTPS_GUIDE_URL,
  listen,
  type RunningServer,
  type ServerOptions,
} from '../src/server/index.js';
import { form, type HostedUnderTest, type SourceServer, startHosted, startSourceServer } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';

const ROOT = join(import.meta.dirname, '..');
const GUIDE = readFileSync(join(ROOT, 'docs', 'https.md'), 'utf8');
const HOSTILE_NAME = '"><script>alert(1)</script> & TV';

const addon = createAddon({
  manifest: {
    id: 'org.example.guide',
    version: '1.0.0',
    name: HOSTILE_NAME,
    description: 'Films',
    resources: ['catalog'],
    types: ['movie'],
    catalogs: [{ type: 'movie', id: 'films', name: 'Films' }],
  },
  handlers: { catalog: () => ({ metas: [] }) },
});

const servers: RunningServer[] = [];
const dirs: string[] = [];
async function serve(options: ServerOptions): Promise<string> {
  const running = await listen(createRequestHandler(addon, options), { port: 0, host: '127.0.0.1' });
  servers.push(running);
  return `http://127.0.0.1:${running.port}`;
}
afterAll(async () => {
  for (const s of servers) await s.close(1_000);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Element {
  readonly name: string;
  readonly attributes: Record<string, string>;
  text: string;
}

/** Every element with its attributes and text, and the page's whole text, as a browser parses it. */
function parse(page: string): { elements: Element[]; text: string } {
  const elements: Element[] = [];
  const open: Element[] = [];
  let text = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element = { name, attributes, text: '' };
        elements.push(element);
        open.push(element);
      },
      ontext(data) {
        text += data;
        for (const element of open) element.text += data;
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

describe('GET /https', () => {
  let base: string;
  beforeAll(async () => {
    base = await serve({ httpsGuide: GUIDE });
  });

  it('answers the guide with the headers and policy of the other pages', async () => {
    const guide = await httpRequest(base, '/https');
    const front = await httpRequest(base, '/');
    expect(guide.status).toBe(200);
    const strip = (headers: Record<string, unknown>) => {
      const { date: _d, 'content-length': _l, connection: _c, 'keep-alive': _k, ...rest } = headers;
      return {
        ...rest,
        'content-security-policy': String(rest['content-security-policy']).replace(/'nonce-[^']+'/, 'N'),
      };
    };
    expect(strip(guide.headers)).toEqual(strip(front.headers));
    expect(guide.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    const policy = String(guide.headers['content-security-policy']);
    expect(policy).toMatch(
      /^default-src 'none'; .*script-src 'nonce-[^']+'; .*frame-ancestors 'none'; base-uri 'none'$/,
    );
    // Its one script (the pages' copy button) carries this answer's nonce; no other script is on it.
    const nonce = /'nonce-([^']+)'/.exec(policy)![1];
    const scripts = parse(guide.text()).elements.filter((e) => e.name === 'script');
    expect(scripts.map((s) => s.attributes.nonce)).toEqual([nonce]);
    expect(Number(guide.headers['content-length'])).toBe(guide.body.length);

    const head = await httpRequest(base, '/https', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await httpRequest(base, '/https/')).status).toBe(200);
    expect((await httpRequest(base, '/https', { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it("renders docs/https.md: its headings with GitHub's anchors, every in-page link landing on one", async () => {
    const page = (await httpRequest(base, '/https')).text();
    const { elements, text } = parse(page);
    const headings = elements.filter((e) => /^h[1-6]$/.test(e.name));
    // The page's own <h1> is the add-on's name; the guide's headings sit under it.
    expect(headings.map((h) => [h.name, h.attributes.id ?? '', h.text])).toEqual([
      ['h1', '', HOSTILE_NAME],
      ['h2', 'https-install-on-a-tv-a-phone-or-stremio-web', 'HTTPS: install on a TV, a phone or Stremio Web'],
      ['h3', 'tailscale', 'Tailscale'],
      ['h3', 'caddy-in-front-with-a-domain', 'Caddy in front, with a domain'],
      ['h3', 'a-cloudflare-tunnel', 'A Cloudflare Tunnel'],
      ['h3', 'your-own-dns-name-with-serve---tls-cert', 'Your own DNS name with serve --tls-cert'],
    ]);
    const ids = new Set(elements.map((e) => e.attributes.id).filter(Boolean));
    const hrefs = elements.filter((e) => e.name === 'a').map((a) => a.attributes.href!);
    const inPage = hrefs.filter((h) => h.startsWith('#'));
    expect(inPage).toEqual([
      '#tailscale',
      '#caddy-in-front-with-a-domain',
      '#a-cloudflare-tunnel',
      '#your-own-dns-name-with-serve---tls-cert',
    ]);
    for (const href of inPage) expect(ids, href).toContain(href.slice(1));
    // Every other link is the way back to the front page, or another site's https page: none is dead here.
    for (const href of hrefs.filter((h) => !h.startsWith('#'))) {
      if (href !== `${base}/`) expect(href).toMatch(/^https:\/\/[^/]+\//);
    }
    expect(hrefs).toContain(`${base}/`);
    // The docs' test annotations are not part of the page; its commands are, as written.
    expect(page).not.toContain('test: https-');
    expect(page).not.toContain('<!--');
    expect(text).toContain('tailscale cert tv.tailnet-name.ts.net');
    expect(text).toContain(`--deploy-hook 'install -m 640 -g marquee "$RENEWED_LINEAGE/fullchain.pem"`);
    expect(text).toContain('tv.example.org {\n\treverse_proxy 127.0.0.1:7000\n}');
    expect(parse(page).elements.find((e) => e.name === 'title')?.text).toBe(
      `HTTPS: install on a TV, a phone or Stremio Web · ${HOSTILE_NAME}`,
    );
  });

  it('escapes every text and makes no link of a javascript: address', async () => {
    const hostile = [
      '# Guide <img src=x onerror=alert(1)>',
      '',
      '[click me](javascript:alert(2)) and [also](<java\tscript:alert(3)>) and <javascript:alert(4)>',
      '',
      '[data](data:text/html,<script>alert(5)</script>) [fine](https://example.org/ok)',
      '',
      '<script>alert(6)</script>',
      '',
      '| a | b |',
      '| - | - |',
      '| <b onclick="alert(7)">x</b> | [t](vbscript:alert(8)) |',
    ].join('\n');
    const url = await serve({ httpsGuide: hostile });
    const answer = await httpRequest(url, '/https');
    expect(answer.status).toBe(200);
    const { elements, text } = parse(answer.text());
    const nonce = /'nonce-([^']+)'/.exec(String(answer.headers['content-security-policy']))![1];
    for (const element of elements) {
      for (const attribute of Object.keys(element.attributes)) expect(attribute).not.toMatch(/^on/i);
      if (element.name === 'script') expect(element.attributes.nonce).toBe(nonce);
      expect(['img', 'b', 'iframe', 'object', 'embed', 'base']).not.toContain(element.name);
    }
    const links = elements.filter((e) => e.name === 'a').map((a) => [a.text, a.attributes.href]);
    expect(links).toEqual([
      [`← ${HOSTILE_NAME}`, `${url}/`],
      ['fine', 'https://example.org/ok'],
    ]);
    for (const shown of [
      HOSTILE_NAME,
      'Guide <img src=x onerror=alert(1)>',
      'click me and also and <javascript:alert(4)>',
      '<script>alert(6)</script>',
      '<b onclick="alert(7)">x</b>',
    ]) {
      expect(text).toContain(shown);
    }
    expect(elements.filter((e) => e.name === 'script')).toHaveLength(1);
  });
});

describe('the install section links the served guide', () => {
  it('under the base URL the request names, and under a base path', async () => {
    const base = await serve({ httpsGuide: GUIDE });
    const port = new URL(base).port;
    const loopback = (await httpRequest(base, '/')).text();
    expect(loopback).toContain(`<a class="https-guide" href="${base}/https">how to serve it over HTTPS</a>`);
    // The same server reached at its LAN address: the TV's case.
    const lan = (await httpRequest(base, '/', { headers: { host: `192.168.1.5:${port}` } })).text();
    expect(lan).toContain('Your TV or phone needs HTTPS');
    expect(lan).toContain(`href="http://192.168.1.5:${port}/https"`);

    const prefixed = await serve({ httpsGuide: GUIDE, basePath: '/tv' });
    const front = (await httpRequest(prefixed, '/tv/')).text();
    expect(front).toContain(`href="${prefixed}/tv/https"`);
    expect((await httpRequest(prefixed, '/tv/https')).status).toBe(200);
    expect((await httpRequest(prefixed, '/https')).status).toBe(404);
    expect(HTTPS_GUIDE_PATH).toBe('/https');
    // The old name stays exported for code that imported it, now naming the served path.
    expect(HTTPS_GUIDE_URL).toBe(HTTPS_GUIDE_PATH);
  });

  it('without the guide: no page, and the guide named in words rather than a dead link', async () => {
    const base = await serve({});
    expect((await httpRequest(base, '/https')).status).toBe(404);
    const page = (await httpRequest(base, '/', { headers: { host: '192.168.1.5:7000' } })).text();
    expect(page).toContain('Your TV or phone needs HTTPS');
    expect(page).toContain("how to serve it over HTTPS is in Marquee's guide <code>docs/https.md</code>");
    expect(page).not.toMatch(/href="[^"]*(\/https"|https\.md)/);
    expect(page).not.toContain('unpkg');
  });
});

describe('hosted mode', () => {
  let sources: SourceServer;
  let hosted: HostedUnderTest;
  beforeAll(async () => {
    sources = await startSourceServer();
    const dir = mkdtempSync(join(tmpdir(), 'marquee-guide-hosted-'));
    dirs.push(dir);
    hosted = await startHosted(dir, generateKeyRing(), {
      sourceOptions: { allowPrivate: true },
      importsPerMinute: 600,
      httpsGuide: GUIDE,
    });
  });
  afterAll(async () => {
    await hosted.close();
    await sources.close();
  });

  it("serves the guide, and a user's install link over plain HTTP links it", async () => {
    const guide = await httpRequest(hosted.url, '/https');
    expect(guide.status).toBe(200);
    expect(guide.text()).toContain('id="your-own-dns-name-with-serve---tls-cert"');
    const made = await httpRequest(hosted.url, '/configure', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ playlist: `${sources.url}/a.m3u` }),
    });
    // The page of the import in progress reloads itself at the user's configure page until the install link is there.
    let page = made.text();
    const next = /href="([^"]+\/configure)">Refresh</.exec(page)?.[1];
    for (let i = 0; i < 100 && !page.includes('Ready to install'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = (await httpRequest(hosted.url, new URL(next!).pathname)).text();
    }
    expect(page).toContain('Ready to install');
    expect(page).toContain(`<a class="https-guide" href="${hosted.url}/https">how to serve it over HTTPS</a>`);
  });
});

describe('the guide file', () => {
  it('is found from the module in a checkout, in dist/ and in an installed package, and is shipped', () => {
    const fromSource = readHttpsGuide();
    expect(fromSource).toEqual({ markdown: GUIDE });
    // The build (npm run build) and a copy laid out as npm installs the package.
    const installed = mkdtempSync(join(tmpdir(), 'marquee-guide-package-'));
    dirs.push(installed);
    const pkg = join(installed, 'node_modules', 'stremio-marquee');
    mkdirSync(pkg, { recursive: true });
    cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
    cpSync(join(ROOT, 'docs'), join(pkg, 'docs'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    /** What the built module reads, in a Node of its own started in `cwd` (the working directory plays no part). */
    const readBy = (module: string, cwd: string) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `const m = await import(${JSON.stringify(pathToFileURL(module).href)}); process.stdout.write(JSON.stringify(m.readHttpsGuide()));`,
          ],
          { cwd, encoding: 'utf8' },
        ),
      );
    const installedModule = join(pkg, 'dist', 'cli', 'https-guide.js');
    expect(readBy(join(ROOT, 'dist', 'cli', 'https-guide.js'), tmpdir())).toEqual({ markdown: GUIDE });
    expect(readBy(installedModule, installed)).toEqual({ markdown: GUIDE });
    // A package stripped of its docs: said, not thrown.
    rmSync(join(pkg, 'docs'), { recursive: true });
    expect(readBy(installedModule, installed).problem).toMatch(
      /^the HTTPS guide .*node_modules\/stremio-marquee\/docs\/https\.md cannot be read \(ENOENT\)$/,
    );
    // npm packs docs/https.md (package.json `files`).
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
    ) as Array<{ files: Array<{ path: string }> }>;
    expect(packed[0]!.files.map((f) => f.path)).toContain('docs/https.md');
  });
});
