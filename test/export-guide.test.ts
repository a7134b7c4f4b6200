/**
 * The static export's HTTPS guide: `https.html` beside `index.html`, listed among the files the
 * export wrote, under the landing page's policy (a `<meta>` with its script's hash, and the whole
 * policy with the frame rules in `_headers`, under `/https.html` and `/https`); the landing page
 * links it relatively where it is served over plain HTTP. `marquee export` writes it from the
 * package's docs/https.md; an export given no guide writes none and names the guide in words.
 * In Chromium, the link of an export served over plain HTTP reaches the guide's heading, with no
 * policy violation.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleAddon } from '../examples/example-addon.js';
import { exportAddon, MARKER_FILE } from '../src/export/index.js';
import { launchBrowser, type TestBrowser, watchPage } from './helpers/browser.js';
import { runCli } from './helpers/cli.js';
import { type StaticHost, serveFolder } from './helpers/http.js';
import { needs } from './helpers/tools.js';

const chromium = needs(['chromium']);

const GUIDE = readFileSync(join(import.meta.dirname, '..', 'docs', 'https.md'), 'utf8');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-export-guide-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (out: string, file: string) => readFileSync(join(out, file), 'utf8');
const metaPolicy = (page: string) =>
  /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1]?.replaceAll('&#39;', "'");

describe('an export given the guide', () => {
  let out: string;
  let report: Awaited<ReturnType<typeof exportAddon>>;
  beforeAll(async () => {
    out = join(dir, 'site');
    report = await exportAddon(createExampleAddon(), out, { maxPages: 2, httpsGuide: GUIDE });
  });

  it('writes https.html, lists it among the files it wrote, and links it from the landing page', () => {
    expect(existsSync(join(out, 'https.html'))).toBe(true);
    const marker = JSON.parse(read(out, MARKER_FILE));
    expect(marker.written).toContain('https.html');
    expect(marker.entries).toContain('https.html');
    expect(report.warnings).toEqual([]);
    const landing = read(out, 'index.html');
    expect(landing).toContain('<a class="https-guide" href="https.html">how to serve it over HTTPS</a>');
    const guide = read(out, 'https.html');
    expect(guide).toContain(
      '<h2 id="https-install-on-a-tv-a-phone-or-stremio-web">HTTPS: install on a TV, a phone or Stremio Web</h2>',
    );
    expect(guide).toContain('<a href="#your-own-dns-name-with-serve---tls-cert">');
    expect(guide).toContain('<p class="back"><a href="index.html">← Marquee Example</a></p>');
    expect(guide).not.toContain('test: https-');
  });

  it("carries the landing page's policy: a <meta> with its script's hash, and in _headers under both its paths", () => {
    const guide = read(out, 'https.html');
    const policy = metaPolicy(guide)!;
    const scripts = [...guide.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`;
    expect(policy).toBe(
      `default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; script-src ${hash}; form-action 'self'; base-uri 'none'`,
    );
    expect(guide.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(guide.indexOf('<script'));
    const headers = read(out, '_headers');
    const rules = `  Content-Security-Policy: ${policy.replace("; base-uri 'none'", "; frame-ancestors 'none'; base-uri 'none'")}\n  X-Frame-Options: DENY\n  Referrer-Policy: same-origin\n`;
    expect(headers).toContain(`/https.html\n${rules}/https\n${rules}`);
    // The landing page's own rules are as they were.
    expect(headers).toMatch(/^\/\*\n {2}Access-Control-Allow-Origin: \*\n {2}X-Content-Type-Options: nosniff\n\/\n/);
    expect(headers).toContain(
      `/index.html\n  Content-Security-Policy: ${metaPolicy(read(out, 'index.html'))!.replace('; base-uri', "; frame-ancestors 'none'; base-uri")}`,
    );
  });

  describe.skipIf(chromium.skip)(chromium.title('in Chromium, served over plain HTTP'), () => {
    let browser: TestBrowser;
    let host: StaticHost;
    let base: string;
    // biome-ignore lint/suspicious/noDuplicateTestHooks: this hook is the Chromium block's own (describe.skipIf, which the rule does not read as a scope)
    beforeAll(async () => {
      host = await serveFolder(out);
      base = host.base;
      browser = await launchBrowser();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await host?.close();
    });

    it("follows the landing page's link to the guide's heading", async () => {
      const tab = await browser.context.newPage();
      const watch = watchPage(tab);
      await tab.goto(`${base}/`);
      expect(await tab.isVisible('#needs-https')).toBe(true);
      await Promise.all([
        tab.waitForURL(`${base}/https.html`),
        tab.getByRole('link', { name: 'how to serve it over HTTPS' }).click(),
      ]);
      const title = tab.getByRole('heading', { name: 'HTTPS: install on a TV, a phone or Stremio Web' });
      expect(await title.isVisible()).toBe(true);
      await tab.getByRole('link', { name: 'A Cloudflare Tunnel' }).click();
      expect(new URL(tab.url()).hash).toBe('#a-cloudflare-tunnel');
      await tab.getByRole('link', { name: '← Marquee Example' }).click();
      await tab.waitForURL(`${base}/index.html`);
      expect(watch.errors).toEqual([]);
      // The copy script ran under the guide's and the landing page's policies: no violation reported.
      expect(watch.consoleErrors).toEqual([]);
      await tab.close();
    });
  });
});

describe('an export without the guide', () => {
  it('writes no https.html and names the guide in words', async () => {
    const out = join(dir, 'bare');
    await exportAddon(createExampleAddon(), out, { maxPages: 2, publicUrl: 'http://192.168.1.5:8000' });
    expect(existsSync(join(out, 'https.html'))).toBe(false);
    const landing = read(out, 'index.html');
    expect(landing).toContain("how is in Marquee's guide <code>docs/https.md</code>");
    expect(landing).not.toMatch(/href="[^"]*https(\.html|\.md)?"/);
    expect(read(out, '_headers')).not.toContain('/https');
  });
});

describe('marquee export', () => {
  it("writes the package's guide beside the landing page", async () => {
    const cwd = mkdtempSync(join(dir, 'cli-'));
    const result = await runCli(['export', '--demo', '--out', 'site', '--days-ahead', '0'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('HTTPS guide');
    expect(read(join(cwd, 'site'), 'https.html')).toContain('id="a-cloudflare-tunnel"');
    expect(read(join(cwd, 'site'), 'index.html')).toContain('href="https.html"');
  });
});
