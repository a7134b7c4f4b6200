/**
 * The exported landing page carries the served page's rules (issue 38): the same
 * Content-Security-Policy as a `<meta>` (its scripts allowed by hash, as a static page has no
 * per-request nonce; frame-ancestors, which a `<meta>` cannot carry, left to the header) and, in
 * `_headers` for the hosts that read it, the whole policy with X-Frame-Options. In Chromium, the
 * page's own scripts run under it and a script injected into the file does not. And a logo,
 * background or public URL that reaches a page must be http(s): `javascript:alert(14)` is refused
 * with the field named, by the settings, the server and the export alike.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleAddon } from '../../examples/example-addon.js';
import { createAddon } from '../../src/addon/index.js';
import { exportAddon } from '../../src/export/index.js';
import { createRequestHandler } from '../../src/server/index.js';
import { launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { type StaticHost, serveFolder } from '../helpers/http.js';
import { needs } from '../helpers/tools.js';

const chromium = needs(['chromium']);

let dir: string;
let out: string;
let served: Record<string, string>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-export-page-'));
  out = join(dir, 'site');
  await exportAddon(createExampleAddon(), out, { maxPages: 3 });
  // The served landing page of the same add-on, for its headers.
  const answer = await createRequestHandler(createExampleAddon())({ method: 'GET', url: '/', header: () => undefined });
  served = answer.headers as Record<string, string>;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The directives of a policy by name. */
const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d] as const));

describe('the exported landing page', () => {
  it("carries the served page's policy as a <meta>, its scripts allowed by their hashes", () => {
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/
      .exec(page)?.[1]
      ?.replaceAll('&#39;', "'");
    expect(meta).toBeDefined();
    const ours = directives(meta!);
    const live = directives(served['content-security-policy']!);
    // Every rule of the served page but the script sources (a nonce there) and frame-ancestors (a header's only).
    for (const [name, value] of live) {
      if (name === 'script-src') continue;
      if (name === 'frame-ancestors') expect(ours.has(name)).toBe(false);
      else expect(ours.get(name)).toBe(value);
    }
    const scripts = [...page.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`);
    expect(ours.get('script-src')).toBe(`script-src ${hashes.join(' ')}`);
    // The policy is in <head>, before anything it governs.
    expect(page.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(page.indexOf('<script'));
  });

  it('has _headers with CORS on every file and the whole policy and frame rules on the page', () => {
    const headers = readFileSync(join(out, '_headers'), 'utf8');
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    const policy = /content="([^"]+)"/.exec(page.slice(page.indexOf('http-equiv')))![1]!.replaceAll('&#39;', "'");
    const whole = `${policy}; frame-ancestors 'none'`;
    expect(directives(whole)).toEqual(directives(/Content-Security-Policy: (.+)/.exec(headers)![1]!));
    const rules = `  Content-Security-Policy: ${/Content-Security-Policy: (.+)/.exec(headers)![1]}\n  X-Frame-Options: ${served['x-frame-options']}\n  Referrer-Policy: ${served['referrer-policy']}\n`;
    expect(headers).toBe(
      `/*\n  Access-Control-Allow-Origin: *\n  X-Content-Type-Options: nosniff\n/\n${rules}/index.html\n${rules}`,
    );
  });

  describe.skipIf(chromium.skip)(chromium.title('in Chromium'), () => {
    let browser: TestBrowser;
    let host: StaticHost;
    let base: string;
    beforeAll(async () => {
      // A page someone managed to write a script into: the policy must keep it from running.
      const page = readFileSync(join(out, 'index.html'), 'utf8');
      writeFileSync(
        join(out, 'injected.html'),
        page.replace('</main>', '<script>document.title = "injected";</script></main>'),
      );
      host = await serveFolder(out);
      base = host.base;
      browser = await launchBrowser();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await host?.close();
    });

    it('runs the page scripts under the policy and not a script injected into the file', async () => {
      const tab = await browser.context.newPage();
      const violations: string[] = [];
      tab.on('console', (m) => {
        if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
      });
      await tab.goto(`${base}/index.html`);
      // The page's script filled the install address in from its own location.
      expect(await tab.inputValue('#manifest-url')).toBe(`${base}/manifest.json`);
      // Served over plain HTTP: no stremio:// link (it would open https://), the HTTPS advice instead;
      // both set by the same script, so a blocked script would leave the advice hidden.
      expect(await tab.getAttribute('#install', 'href')).toBe('#');
      expect(await tab.isVisible('#needs-https')).toBe(true);
      expect(violations).toEqual([]);

      await tab.goto(`${base}/injected.html`);
      expect(await tab.title()).not.toBe('injected');
      expect(violations.some((v) => /script/i.test(v))).toBe(true);
      await tab.close();
    });
  });
});

describe('a logo, background or public URL that reaches a page must be http(s)', () => {
  const manifest = {
    id: 'org.test.logo',
    version: '1.0.0',
    name: 'Logo',
    description: 'A logo that runs',
    resources: ['catalog'],
    types: ['movie'],
    catalogs: [{ type: 'movie', id: 'c', name: 'C' }],
  };
  const handlers = { catalog: () => ({ metas: [] }) };

  it('is refused by the server and the export, naming the field', async () => {
    for (const field of ['logo', 'background'] as const) {
      const addon = createAddon({ manifest: { ...manifest, [field]: 'javascript:alert(14)' }, handlers });
      expect(() => createRequestHandler(addon)).toThrow(
        expect.objectContaining({
          code: 'INVALID_MANIFEST',
          message: `manifest.${field} must be an http(s) URL, as it reaches the landing page, got "javascript:alert(14)"`,
        }),
      );
      await expect(exportAddon(addon, join(dir, `refused-${field}`))).rejects.toMatchObject({
        code: 'INVALID_MANIFEST',
        message: expect.stringContaining(`manifest.${field} must be an http(s) URL`),
      });
    }
    // An https logo is linked as the icon and shown.
    const fine = createAddon({ manifest: { ...manifest, logo: 'https://img.example/logo.png' }, handlers });
    const page = await createRequestHandler(fine)({ method: 'GET', url: '/', header: () => undefined });
    expect(String(page.body)).toContain('<link rel="icon" href="https://img.example/logo.png">');
  });

  it('is refused by the settings, for serve and export alike (exit 2, the key and line named)', async () => {
    writeFileSync(join(dir, 'marquee.yaml'), 'addon:\n  name: Mine\n  logo: "javascript:alert(14)"\n');
    for (const argv of [
      ['serve', '--port', '0'],
      ['export', '--out', 'x'],
    ]) {
      const result = await runCli(argv, { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        '$.addon.logo: must be an http(s) URL: it reaches the landing page (in marquee.yaml line 3)',
      );
    }
    writeFileSync(
      join(dir, 'marquee.yaml'),
      'publicUrl: "ftp://tv.example/"\naddon: { background: "data:text/html,<b>x</b>" }\n',
    );
    const both = await runCli(['export', '--out', 'x'], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(
      /\$\.publicUrl: must be an http\(s\) URL.*\n.*\$\.addon\.background: must be an http\(s\) URL/,
    );
  });
});
