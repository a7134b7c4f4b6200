/**
 * `marquee serve` over HTTPS from each place the certificate can be named (flags, the settings
 * file with paths relative to it, MARQUEE_TLS_* variables), the redirect port, hosted mode over
 * TLS, SIGHUP reading a renewed certificate at once, and the mistakes an operator makes (a
 * certificate without its key, a file that is not there, swapped files) refused with exit 2
 * before anything is imported.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningCli, runCli, startCli } from './helpers/cli.js';
import { httpRequest } from './helpers/http.js';
import {
  type HttpsAnswer,
  httpsGet,
  type IssuedCertificate,
  issueCertificate,
  makeTestCa,
  servedSerial,
  type TestCa,
} from './helpers/tls.js';
import { describeWith } from './helpers/tools.js';

let dir: string;
let ca: TestCa;
let cert: IssuedCertificate;
const running: RunningCli[] = [];

/** GET `path` of the server at `url` over https, trusting only the test CA. */
function get(url: string, path: string): Promise<HttpsAnswer> {
  return httpsGet(new URL(path, url).href, ca.certFile);
}

function folder(): string {
  const cwd = mkdtempSync(join(dir, 'run-'));
  return cwd;
}

async function serve(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<RunningCli> {
  const cli = startCli(['serve', '--port', '0', '--quiet', ...argv], { cwd, env });
  running.push(cli);
  await cli.waitForStdout(/^ {2}manifest: +\S+$/m, 60_000);
  return cli;
}

const manifestOf = (cli: RunningCli) => /manifest: +(\S+)/.exec(cli.stdout())![1]!;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-cli-https-'));
  ca = makeTestCa(dir);
  cert = issueCertificate(ca, dir, 'home', { serial: 0x71, names: ['tv.home.arpa', 'localhost', '127.0.0.1'] });
});

afterAll(async () => {
  for (const cli of running) {
    cli.stop();
    await cli.done;
  }
  rmSync(dir, { recursive: true, force: true });
});

describeWith(['openssl'], 'marquee serve --tls-cert --tls-key', () => {
  it('serves https from the settings file, its paths relative to the file', async () => {
    const cwd = folder();
    mkdirSync(join(cwd, 'tls'));
    copyFileSync(cert.certFile, join(cwd, 'tls', 'cert.pem'));
    copyFileSync(cert.keyFile, join(cwd, 'tls', 'key.pem'));
    writeFileSync(join(cwd, 'marquee.yaml'), 'tls:\n  cert: ./tls/cert.pem\n  key: ./tls/key.pem\n');
    const cli = await serve(['--demo'], cwd);
    const manifestUrl = manifestOf(cli);
    expect(manifestUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/manifest\.json$/);
    const manifest = await get(manifestUrl, '/manifest.json');
    expect(manifest.status).toBe(200);
    expect(JSON.parse(manifest.text).name).toBe('Marquee Demo');
    // The test CA's certificates last two days: a renewal is due, and the log says so at start.
    expect(cli.stdout()).toMatch(
      /"level":"warn","msg":"the TLS certificate .*cert\.pem expires on \d{4}-\d\d-\d\dT[^"]*: renew it/,
    );

    // SIGHUP reads the files now: a renewed certificate is served at once.
    const renewed = issueCertificate(ca, dir, 'renewed', { serial: 0x72, names: ['localhost', '127.0.0.1'] });
    copyFileSync(renewed.keyFile, join(cwd, 'tls', 'key.pem'));
    copyFileSync(renewed.certFile, join(cwd, 'tls', 'cert.pem'));
    cli.reload();
    const port = Number(new URL(manifestUrl).port);
    const deadline = Date.now() + 2_000;
    let serial = await servedSerial(port, ca.certFile);
    while (serial !== '72' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      serial = await servedSerial(port, ca.certFile);
    }
    expect(serial).toBe('72');
  });

  it('takes MARQUEE_TLS_CERT and MARQUEE_TLS_KEY, names the address by the certificate, and redirects the plain port', async () => {
    const cwd = folder();
    const cli = await serve(['--demo', '--host', '0.0.0.0', '--https-redirect-port', '0'], cwd, {
      MARQUEE_TLS_CERT: cert.certFile,
      MARQUEE_TLS_KEY: cert.keyFile,
    });
    // Listening on every interface: the address to give out is the name the certificate covers.
    const manifestUrl = manifestOf(cli);
    expect(manifestUrl).toMatch(/^https:\/\/tv\.home\.arpa:\d+\/manifest\.json$/);
    expect(cli.stdout()).toContain(`  install:   ${manifestUrl.replace(/^https:/, 'stremio:')}\n`);
    // Port 0 is taken by the OS as any free port: the banner names the one it got.
    const redirect = /redirect: +port (\d+) \(plain HTTP\) redirects to https/.exec(cli.stdout());
    expect(redirect).not.toBeNull();
    const moved = await httpRequest(`http://127.0.0.1:${redirect![1]}`, '/manifest.json', {
      headers: { host: `tv.home.arpa:${redirect![1]}` },
    });
    expect(moved.status).toBe(308);
    expect(moved.headers.location).toBe(manifestUrl);
    // A foreign Host is never echoed (issue 48): the certificate's name, whatever the request says.
    const foreign = await httpRequest(`http://127.0.0.1:${redirect![1]}`, '/configure', {
      headers: { host: 'evil.example' },
    });
    expect(foreign.status).toBe(308);
    expect(foreign.headers.location).toBe(manifestUrl.replace(/\/manifest\.json$/, '/configure'));
    expect((await get(manifestUrl, '/manifest.json')).status).toBe(200);
  });

  it('serves hosted mode over https', async () => {
    const cwd = folder();
    const cli = await serve(['--hosted', '--tls-cert', cert.certFile, '--tls-key', cert.keyFile], cwd);
    const manifestUrl = manifestOf(cli);
    expect(manifestUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/manifest\.json$/);
    const manifest = await get(manifestUrl, '/manifest.json');
    expect(JSON.parse(manifest.text).behaviorHints).toMatchObject({ configurationRequired: true });
    const page = await get(manifestUrl, '/configure');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`action="${manifestUrl.replace(/\/manifest\.json$/, '')}/configure"`);
    // Over https the banner has no HTTPS advice to give.
    expect(cli.stdout()).not.toMatch(/^ {2}https: /m);
  });

  it('hosted mode over plain HTTP says, once, that its users need HTTPS, and links the guide it serves', async () => {
    const cwd = folder();
    const cli = await serve(['--hosted'], cwd);
    const manifestUrl = manifestOf(cli);
    expect(manifestUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/manifest\.json$/);
    const base = manifestUrl.replace(/\/manifest\.json$/, '');
    const lines = cli.stdout().match(/^ {2}https: .*$/gm) ?? [];
    expect(lines).toEqual([
      `  https:     users' TVs and phones install add-ons only over HTTPS: serve with --tls-cert and --tls-key, or behind an HTTPS proxy (how: ${base}/https)`,
    ]);
    const guide = await httpRequest(base, '/https');
    expect(guide.status).toBe(200);
    expect(guide.text()).toContain('<title>HTTPS: install on a TV, a phone or Stremio Web');
  });

  it('refuses a certificate without its key, a missing file and swapped files with exit 2, before any import', async () => {
    const cwd = folder();
    const alone = await runCli(['serve', '--demo', '--port', '0', '--tls-cert', cert.certFile], { cwd });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe('marquee serve: --tls-cert needs its key: give --tls-key FILE as well\n');

    const missing = await runCli(
      ['serve', '--demo', '--port', '0', '--tls-cert', join(cwd, 'nope.pem'), '--tls-key', cert.keyFile],
      { cwd },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `marquee serve: the TLS certificate ${join(cwd, 'nope.pem')} cannot be read: file not found\n`,
    );
    expect(missing.stdout).not.toMatch(/importing/);

    const swapped = await runCli(
      ['serve', '--demo', '--port', '0', '--tls-cert', cert.keyFile, '--tls-key', cert.certFile],
      { cwd },
    );
    expect(swapped.code).toBe(2);
    expect(swapped.stderr).toMatch(/holds no PEM certificate .*were the certificate and key swapped\?\n$/);

    const redirectOnly = await runCli(['serve', '--demo', '--port', '0', '--https-redirect-port', '8080'], { cwd });
    expect(redirectOnly.code).toBe(2);
    expect(redirectOnly.stderr).toMatch(/--https-redirect-port redirects to https: give --tls-cert and --tls-key/);

    const help = await runCli(['serve', '--help'], { cwd });
    expect(help.stdout).toMatch(/--tls-cert FILE +serve HTTPS with this PEM certificate .*env MARQUEE_TLS_CERT/);
    expect(help.stdout).toMatch(/--tls-key FILE .*env MARQUEE_TLS_KEY/);
    expect(help.stdout).toMatch(/--https-redirect-port N .*env MARQUEE_HTTPS_REDIRECT_PORT/);
  });
});
