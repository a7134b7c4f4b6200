/**
 * `marquee serve --tls-cert --tls-key` and the real Stremio client (stremio-core-web, WASM):
 * with a certificate from a test CA made by openssl, the client installs the add-on over https
 * and reads a catalog; a renewed certificate (new serial, files replaced) is served without a
 * restart, and the client installs again over it. The client runs in a child process whose
 * Node trusts the test CA (NODE_EXTRA_CA_CERTS is read only at start); without the CA the client
 * refuses the add-on, so it is the certificate, not luck, that the test checks.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningCli, startCli } from './helpers/cli.js';
import { issueCertificate, makeTestCa, servedSerial, type TestCa } from './helpers/tls.js';
import { describeWith } from './helpers/tools.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

interface ClientResult {
  readonly refused?: string;
  readonly installed?: { transportUrl: string; name: string };
  readonly items?: { id: string; name: string }[];
  readonly error?: string | null;
  readonly paths?: string[];
}

/** The real client in a child process, trusting `caFile` when given. */
function runClient(transportUrl: string, caFile: string | undefined): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    if (caFile !== undefined) env.NODE_EXTRA_CA_CERTS = caFile;
    execFile(
      process.execPath,
      ['--import', './test/docs/register.mjs', 'test/helpers/https-client-child.ts', transportUrl, 'movie', 'movies'],
      { cwd: ROOT, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the client process failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as ClientResult);
      },
    );
  });
}

let dir: string;
let ca: TestCa;
let cli: RunningCli;
let manifestUrl: string;
let port: number;
const certFile = () => join(dir, 'live', 'fullchain.pem');
const keyFile = () => join(dir, 'live', 'privkey.pem');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-https-client-'));
  ca = makeTestCa(dir);
  const first = issueCertificate(ca, dir, 'first', { serial: 0x51 });
  mkdirSync(join(dir, 'live'));
  copyFileSync(first.certFile, certFile());
  copyFileSync(first.keyFile, keyFile());
  cli = startCli(['serve', '--demo', '--port', '0', '--quiet', '--tls-cert', certFile(), '--tls-key', keyFile()], {
    cwd: dir,
  });
  await cli.waitForStdout(/^ {2}configure: \S+$/m, 60_000);
  manifestUrl = /manifest: +(\S+)/.exec(cli.stdout())![1]!;
  port = Number(new URL(manifestUrl).port);
}, 90_000);

afterAll(async () => {
  cli?.stop();
  await cli?.done;
  rmSync(dir, { recursive: true, force: true });
});

describeWith(['openssl'], 'marquee serve over https with the real client', () => {
  it('prints the https manifest address and its stremio:// install link', () => {
    expect(manifestUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/manifest\.json$/);
    expect(cli.stdout()).toContain(`  install:   ${manifestUrl.replace(/^https:/, 'stremio:')}\n`);
  });

  it('is installed over https by the client, which reads its catalog', { timeout: 90_000 }, async () => {
    const result = await runClient(manifestUrl, ca.certFile);
    expect(result.refused).toBeUndefined();
    expect(result.installed).toEqual({ transportUrl: manifestUrl, name: 'Marquee Demo' });
    expect(result.error).toBeNull();
    expect(result.items!.length).toBeGreaterThan(3);
    expect(result.items!.map((i) => i.name)).toContain('Big Buck Bunny');
    expect(result.paths).toContain('/catalog/movie/movies.json');
  });

  it('is refused by a client that does not trust the CA', { timeout: 90_000 }, async () => {
    const result = await runClient(manifestUrl, undefined);
    expect(result.installed).toBeUndefined();
    expect(result.refused).toBeTruthy();
  });

  it('serves a renewed certificate without a restart, and the client installs over it', {
    timeout: 90_000,
  }, async () => {
    expect(await servedSerial(port, ca.certFile, '127.0.0.1')).toBe('51');
    const renewed = issueCertificate(ca, dir, 'renewed', { serial: 0x52 });
    // As renewal tools do: the new files written beside, then renamed over the old ones.
    copyFileSync(renewed.keyFile, `${keyFile()}.tmp`);
    copyFileSync(renewed.certFile, `${certFile()}.tmp`);
    renameSync(`${keyFile()}.tmp`, keyFile());
    renameSync(`${certFile()}.tmp`, certFile());
    // The files are read again every 5 s.
    const deadline = Date.now() + 15_000;
    let serial = await servedSerial(port, ca.certFile, '127.0.0.1');
    while (serial !== '52' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      serial = await servedSerial(port, ca.certFile, '127.0.0.1');
    }
    expect(serial).toBe('52');
    expect(cli.stdout()).toMatch(/TLS certificate reloaded from .*fullchain\.pem: serial 52, valid until /);
    const result = await runClient(manifestUrl, ca.certFile);
    expect(result.installed?.name).toBe('Marquee Demo');
    expect(result.items!.length).toBeGreaterThan(3);
  });
});
