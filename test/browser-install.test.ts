/**
 * The install section in a real browser (Debian's Chromium), in the three cases an address can
 * be in. Stremio's `stremio://` links always mean `https://` (stremio-core swaps the scheme before
 * it fetches) and the client installs from other machines only over https, so:
 * - an `https://` public URL (the `publicUrl` setting): the stremio:// button, Stremio Web, the
 *   address and a QR code of the install link;
 * - plain HTTP on this machine: Stremio Web and the address to paste, saying why there is no
 *   one-click install, and no stremio:// link;
 * - plain HTTP on a LAN address: that the TV or phone needs HTTPS, linking the HTTPS guide
 *   (docs/https.md) that the server serves itself at /https: followed in the browser, it reaches
 *   the guide's heading, and the guide's in-page links reach theirs.
 * The pages are the demo's front page (the top of /configure) as `marquee serve` serves it; the
 * start-up banner says the same, and the guide address it prints answers.
 * Screenshots: test-artifacts/install-{https,loopback,lan,guide}.png.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { renderSVG } from 'uqr';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser, watchPage } from './helpers/browser.js';
import { type RunningCli, startCli } from './helpers/cli.js';
import { httpRequest } from './helpers/http.js';
import { freePort } from './helpers/ports.js';
import { describeWith } from './helpers/tools.js';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');
const PUBLIC_URL = 'https://tv.example.org';

/** This machine's first address on a network (not loopback): what a TV on the LAN would use. */
function lanAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    const found = list?.find((a) => a.family === 'IPv4' && !a.internal);
    if (found) return found.address;
  }
  throw new Error('this machine has no non-loopback IPv4 address: the LAN case needs one');
}

let browser: TestBrowser;
const dirs: string[] = [];
const servers: RunningCli[] = [];

/** `marquee serve --demo` in a folder of its own, with these extra flags and settings file. */
async function serveDemo(flags: string[], settings?: string): Promise<{ cli: RunningCli; port: number }> {
  const cwd = mkdtempSync(join(tmpdir(), 'marquee-install-'));
  dirs.push(cwd);
  if (settings !== undefined) writeFileSync(join(cwd, 'marquee.yaml'), settings);
  const port = await freePort();
  const cli = startCli(['serve', '--port', String(port), '--demo', '--quiet', ...flags], { cwd });
  servers.push(cli);
  await cli.waitForStdout(/^ {2}configure: \S+$/m, 60_000);
  return { cli, port };
}

async function open(url: string, shot: string): Promise<Page> {
  const page = await browser.context.newPage();
  // Posters and Stremio Web are on other hosts: never sent.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|\d+\.\d+\.\d+\.\d+[:/])/, (route) => route.abort());
  const watch = watchPage(page);
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  await page.screenshot({ path: join(ARTIFACTS, `install-${shot}.png`), fullPage: true });
  expect(watch.errors).toEqual([]);
  return page;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  for (const cli of servers) {
    cli.stop();
    await cli.done;
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describeWith(['chromium'], 'the install section in Chromium', () => {
  it('offers the stremio:// button, Stremio Web, the address and a QR code for an https public URL', async () => {
    const { cli, port } = await serveDemo([], `publicUrl: ${PUBLIC_URL}\n`);
    const manifestUrl = `${PUBLIC_URL}/manifest.json`;
    expect(cli.stdout()).toContain(`  install:   stremio://tv.example.org/manifest.json\n`);
    const page = await open(`http://127.0.0.1:${port}/configure`, 'https');
    const install = await page.getByRole('link', { name: 'Install in Stremio' }).getAttribute('href');
    expect(install).toBe('stremio://tv.example.org/manifest.json');
    const web = await page.getByRole('link', { name: 'Open in Stremio Web' }).getAttribute('href');
    expect(web).toBe(`https://web.stremio.com/#/addons?addon=${encodeURIComponent(manifestUrl)}`);
    expect(await page.getByLabel("Or paste this address into Stremio's add-on search:").inputValue()).toBe(manifestUrl);
    // The QR code is the install link's, drawn on the server as inline SVG.
    const drawn = / d="([^"]+)"/.exec(renderSVG(install!, { ecc: 'M' }))?.[1];
    expect(drawn).toBeTruthy();
    expect(await page.locator('figure.qr svg path').getAttribute('d')).toBe(drawn);
    expect(await page.getByText('needs HTTPS').count()).toBe(0);
  });

  it('offers Stremio Web and the address on this machine over plain HTTP, saying why there is no one-click install', async () => {
    const { cli } = await serveDemo(['--host', '0.0.0.0']);
    const base = /manifest: +(\S+)\/manifest\.json/.exec(cli.stdout())![1]!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const manifestUrl = `${base}/manifest.json`;
    // The banner says the same, and that the network's TVs and phones need HTTPS.
    expect(cli.stdout()).toMatch(/^ {2}install: {3}no one-click link over plain HTTP/m);
    expect(cli.stdout()).toContain(`  network:   a TV or phone installs add-ons only over HTTPS`);
    expect(cli.stdout()).not.toMatch(/stremio:\/\/127/);
    // The banner names the guide page by its absolute address, and that address answers with the guide.
    const printed = /^ {2}network: .*\(how: (\S+)\)$/m.exec(cli.stdout())?.[1];
    expect(printed).toBe(`${base}/https`);
    const answered = await httpRequest(printed!, new URL(printed!).pathname);
    expect(answered.status).toBe(200);
    expect(answered.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answered.text()).toContain('HTTPS: install on a TV, a phone or Stremio Web</h2>');

    const page = await open(`${base}/configure`, 'loopback');
    expect(await page.locator('a[href^="stremio:"]').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Install in Stremio' }).count()).toBe(0);
    const web = await page.getByRole('link', { name: 'Open in Stremio Web' }).getAttribute('href');
    expect(web).toBe(`https://web.stremio.com/#/addons?addon=${encodeURIComponent(manifestUrl)}`);
    const address = page.getByLabel(
      'Or paste this address into the add-on search of the Stremio app on this computer:',
    );
    expect(await address.inputValue()).toBe(manifestUrl);
    expect(await page.locator('.install .why').textContent()).toBe(
      'No one-click install: a Stremio install link always opens the https:// address, and this server answers plain HTTP. ' +
        'Stremio on this computer accepts the http:// address; a TV or phone needs HTTPS: how to serve it over HTTPS.',
    );
    expect(await page.locator('.install .why a').getAttribute('href')).toBe(`${base}/https`);
    expect(await page.locator('figure.qr').count()).toBe(0);

    // The same server at its LAN address: the case of a TV or phone.
    const lan = `http://${lanAddress()}:${new URL(base).port}`;
    const onLan = await open(`${lan}/configure`, 'lan');
    expect(await onLan.locator('a[href^="stremio:"]').count()).toBe(0);
    expect(await onLan.getByRole('link', { name: 'Open in Stremio Web' }).count()).toBe(0);
    expect(await onLan.getByRole('heading', { name: 'Your TV or phone needs HTTPS' }).count()).toBe(1);
    const guide = onLan.getByRole('link', { name: 'how to serve it over HTTPS' });
    expect(await guide.getAttribute('href')).toBe(`${lan}/https`);
    expect(await onLan.locator('.needs-https').textContent()).toContain(
      'Stremio installs add-ons from other devices only over https://, and this server answers plain HTTP.',
    );
    expect(
      await onLan
        .getByLabel('Its address over plain HTTP (Stremio on another device will not install it):')
        .inputValue(),
    ).toBe(`${lan}/manifest.json`);
    expect(await onLan.locator('figure.qr').count()).toBe(0);

    // The link works: the guide, served by this server, in the frame of its pages and under its policy.
    const watch = watchPage(onLan);
    const [answer] = await Promise.all([onLan.waitForNavigation(), guide.click()]);
    expect(answer?.status()).toBe(200);
    expect(onLan.url()).toBe(`${lan}/https`);
    const title = onLan.getByRole('heading', { name: 'HTTPS: install on a TV, a phone or Stremio Web' });
    await title.waitFor();
    expect(await title.isVisible()).toBe(true);
    expect(await onLan.title()).toBe('HTTPS: install on a TV, a phone or Stremio Web · Marquee Demo');
    // An in-page link of the guide (its table of ways) reaches its heading by the anchor GitHub gives it.
    await onLan.getByRole('link', { name: 'Your own DNS name with serve --tls-cert' }).click();
    expect(new URL(onLan.url()).hash).toBe('#your-own-dns-name-with-serve---tls-cert');
    const section = onLan.getByRole('heading', { name: 'Your own DNS name with serve --tls-cert' });
    await expect.poll(() => section.evaluate((h) => Math.round(h.getBoundingClientRect().top))).toBeLessThan(50);
    await onLan.screenshot({ path: join(ARTIFACTS, 'install-guide.png'), fullPage: false });
    // Back to the front page it came from.
    expect(await onLan.getByRole('link', { name: '← Marquee Demo' }).getAttribute('href')).toBe(`${lan}/`);
    expect(watch.errors).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
