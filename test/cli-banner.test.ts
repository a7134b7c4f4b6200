/**
 * `marquee serve`'s start-up lines fitting the setup (issue 46): on every interface
 * (`--host 0.0.0.0`) they name this machine's network address, the one a TV or phone there
 * reaches (127.0.0.1 is this machine's alone); behind an HTTPS proxy (`--public-url https://…`)
 * they do not advise `--host 0.0.0.0`; a certificate TVs and phones will not trust (self-signed,
 * or from a CA of one's own) is warned about at start. Hosted mode names its configure page on
 * the network the same way.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untrustedReason } from '../src/cli/certificate-trust.js';
import { installLines } from '../src/cli/install-lines.js';
import { lanAddresses } from '../src/cli/lan-addresses.js';
import { type RunningCli, startCli } from './helpers/cli.js';
import { httpRequest } from './helpers/http.js';
import { issueCertificate, makeTestCa } from './helpers/tls.js';
import { describeWith } from './helpers/tools.js';

let dir: string;
const running: RunningCli[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-banner-'));
});
afterAll(async () => {
  for (const cli of running) {
    cli.stop();
    await cli.done;
  }
  rmSync(dir, { recursive: true, force: true });
});

async function serve(argv: string[]): Promise<RunningCli> {
  const cwd = mkdtempSync(join(dir, 'run-'));
  const cli = startCli(['serve', '--port', '0', '--quiet', ...argv], { cwd, env: { MARQUEE_LOG_FORMAT: 'json' } });
  running.push(cli);
  await cli.waitForStdout(/^ {2}manifest: +\S+$/m, 60_000);
  // The banner is written in one piece: once the manifest line is there, all of it is.
  return cli;
}

const stopped = async (cli: RunningCli) => {
  cli.stop();
  return (await cli.done).code;
};

/** An interface table as os.networkInterfaces() gives it. */
const address = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({
  address,
  family,
  internal,
  netmask: family === 'IPv4' ? '255.255.255.0' : 'ffff:ffff:ffff:ffff::',
  mac: '02:00:00:00:00:01',
  cidr: null,
  ...(family === 'IPv6' ? { scopeid: 0 } : {}),
});

describe('the network address for --host 0.0.0.0', () => {
  it('is each address a device elsewhere reaches: not loopback, link-local or a container bridge', () => {
    const table = {
      lo: [address('127.0.0.1', 'IPv4', true), address('::1', 'IPv6', true)],
      eth0: [address('192.168.1.5', 'IPv4'), address('fd00::5', 'IPv6'), address('fe80::1', 'IPv6')],
      wlan0: [address('10.0.0.7', 'IPv4')],
      docker0: [address('172.17.0.1', 'IPv4')],
      'br-5f2a': [address('172.18.0.1', 'IPv4')],
    } as unknown as Parameters<typeof lanAddresses>[1];
    expect(lanAddresses('0.0.0.0', table)).toEqual(['192.168.1.5', '10.0.0.7']);
    // `::` listens on both families: its IPv6 addresses too (not the link-local one, which needs a zone).
    expect(lanAddresses('::', table)).toEqual(['192.168.1.5', '10.0.0.7', 'fd00::5']);
    // A host of its own is what the banner names already.
    expect(lanAddresses('192.168.1.5', table)).toEqual([]);
  });

  it('is named in the lines, or that there is none', async () => {
    const manifest = 'http://127.0.0.1:7000/manifest.json';
    const lines = await installLines(manifest, '0.0.0.0', false, undefined, ['192.168.1.5', 'fd00::5']);
    expect(lines).toContain(
      '  lan:       http://192.168.1.5:7000/manifest.json, http://[fd00::5]:7000/manifest.json (this machine on its network)',
    );
    const offline = await installLines(manifest, '0.0.0.0', false, undefined, []);
    expect(offline.find((l) => l.startsWith('  lan:'))).toMatch(/no network address but its own/);
    // Listening on 127.0.0.1 there is nothing to name.
    expect((await installLines(manifest, '127.0.0.1', false)).some((l) => l.startsWith('  lan:'))).toBe(false);
  });

  it('is printed by serve, and answers there', async () => {
    const cli = await serve(['--demo', '--host', '0.0.0.0']);
    const expected = lanAddresses('0.0.0.0');
    // This test needs a machine on a network (CI's container has one).
    expect(expected.length, 'no network interface besides loopback').toBeGreaterThan(0);
    const port = new URL(/manifest: +(\S+)/.exec(cli.stdout())![1]!).port;
    const urls = expected.map((a) => `http://${a}:${port}/manifest.json`);
    expect(cli.stdout()).toContain(`  lan:       ${urls.join(', ')} (this machine on its network)\n`);
    // The address a TV would use reaches the server.
    const answer = await httpRequest(`http://${expected[0]}:${port}`, '/manifest.json');
    expect(answer.status).toBe(200);
    expect(answer.json().name).toBe('Marquee Demo');
    expect(cli.stdout()).not.toContain('use --host 0.0.0.0');
    expect(await stopped(cli)).toBe(0);

    // Hosted mode: the configure page, where users start.
    const hosted = await serve(['--hosted', '--host', '0.0.0.0']);
    const hostedPort = new URL(/manifest: +(\S+)/.exec(hosted.stdout())![1]!).port;
    expect(hosted.stdout()).toContain(
      `  lan:       ${expected.map((a) => `http://${a}:${hostedPort}/configure`).join(', ')} (this machine on its network)\n`,
    );
    expect(await stopped(hosted)).toBe(0);
  });
});

describe('behind an HTTPS proxy', () => {
  it('does not advise --host 0.0.0.0 (the proxy reaches 127.0.0.1); without one it does', async () => {
    const proxied = await serve(['--demo', '--public-url', 'https://tv.example.org']);
    expect(proxied.stdout()).toContain('  manifest:  https://tv.example.org/manifest.json\n');
    expect(proxied.stdout()).not.toMatch(/--host 0\.0\.0\.0/);
    expect(await stopped(proxied)).toBe(0);
    const local = await serve(['--demo']);
    expect(local.stdout()).toContain('  (only this machine can reach it: use --host 0.0.0.0 to serve your network)\n');
    expect(await stopped(local)).toBe(0);
  });
});

describe('the trust of a certificate', () => {
  it('is a public authority chain only', () => {
    // A public root is trusted; the test certificates below are not.
    expect(untrustedReason(rootCertificates[0]!)).toBeUndefined();
    expect(untrustedReason('')).toBeUndefined();
  });
});

describeWith(['openssl'], 'a certificate TVs and phones will not trust', () => {
  it('is warned about at start: self-signed, or from a CA of your own', async () => {
    const certs = mkdtempSync(join(dir, 'certs-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        'self.key',
        '-out',
        'self.crt',
        '-days',
        '30',
        '-subj',
        '/CN=tv.home.arpa',
        '-addext',
        'subjectAltName=DNS:tv.home.arpa,DNS:localhost,IP:127.0.0.1',
      ],
      { cwd: certs, stdio: 'ignore' },
    );
    expect(untrustedReason(readFileSync(join(certs, 'self.crt')))).toBe('it is self-signed');
    const self = await serve(['--demo', '--tls-cert', join(certs, 'self.crt'), '--tls-key', join(certs, 'self.key')]);
    const warning = JSON.parse(
      self
        .stdout()
        .split('\n')
        .find((l) => l.includes('will not be trusted'))!,
    );
    expect(warning).toMatchObject({ level: 'warn' });
    expect(warning.msg).toBe(
      `the TLS certificate ${join(certs, 'self.crt')} will not be trusted by TVs and phones: it is self-signed. ` +
        'Stremio there refuses an add-on served with it (a browser told to accept it works). Use a certificate ' +
        "from a public authority, such as Let's Encrypt's (docs/https.md)",
    );
    expect(await stopped(self)).toBe(0);

    const ca = makeTestCa(certs, 'Home CA');
    const issued = issueCertificate(ca, certs, 'home', { serial: 0x46, names: ['tv.home.arpa', '127.0.0.1'] });
    expect(untrustedReason(readFileSync(issued.certFile))).toBe('it is issued by "Home CA", a CA of your own');
    // Without the CA in the file, the issuer is named and the missing chain suspected.
    expect(untrustedReason(readFileSync(join(certs, 'home.leaf.crt')))).toMatch(
      /^its issuer "Home CA" is not a public authority \(or the file lacks the intermediate certificates/,
    );
  });
});
