/**
 * The runners of docs/https.md's blocks. Each block is run as shown where this machine can run
 * it; where it cannot (it needs a tailnet, a Cloudflare account, a public domain or a DNS
 * provider's API), the runner says what it substitutes and checks what the block's lines must
 * agree on (the port a proxy forwards to is the one Marquee serves on, the name routed is the
 * one in the links, the files a tool writes are the ones `--tls-cert` reads):
 * - certificates from a public authority: certificates of a test CA made with openssl, for the
 *   same names, trusted by the test's own requests;
 * - Caddy with a domain: Debian's `caddy`, the block's site moved to localhost on free ports
 *   with `tls internal` (Caddy's own CA, in the test's XDG_DATA_HOME), and curl trusting that CA;
 * - ports 7000, 8443, 8080: free ones.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { httpRequest } from '../helpers/http.js';
import { httpsGet, issueCertificate, makeTestCa, servedSerial } from '../helpers/tls.js';
import { type Block, commandsOf, extractBlocks, type Started, startShell } from './blocks.js';

/** A port free now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A temp folder for one runner, removed when it is done; every process it starts is stopped. */
async function inFolder(run: (dir: string, started: Started[]) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-docs-https-'));
  const started: Started[] = [];
  try {
    await run(dir, started);
  } finally {
    for (const process of started) await process.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Start a shell line and keep it for `inFolder` to stop. */
function start(started: Started[], dir: string, line: string, env: Record<string, string> = {}): Started {
  const process = startShell(dir, line, env);
  started.push(process);
  return process;
}

async function until(ready: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A line's `--flag VALUE`. */
const flag = (line: string, name: string): string | undefined => new RegExp(`--${name} (\\S+)`).exec(line)?.[1];

/** The demo's configure page (its front page) as a proxy forwards it: with the public Host. */
async function frontThroughProxy(port: number, publicUrl: string): Promise<string> {
  const page = await httpRequest(`http://127.0.0.1:${port}`, '/configure', {
    headers: { host: new URL(publicUrl).host, 'x-forwarded-proto': 'https' },
  });
  expect(page.status).toBe(200);
  return page.text();
}

export const HTTPS_RUNNERS: Record<string, (block: Block) => Promise<void>> = {
  /**
   * `tailscale cert NAME` is not run (no tailnet here): in its place the test CA writes what it
   * writes, NAME.crt and NAME.key in the folder. The serve line runs as shown, on a free port.
   */
  async 'https-tailscale-cert'(block) {
    const [certLine, serveLine, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    const name = /^tailscale cert (\S+\.ts\.net)$/.exec(certLine!)?.[1];
    expect(name, certLine).toBeDefined();
    expect(flag(serveLine!, 'tls-cert')).toBe(`${name}.crt`);
    expect(flag(serveLine!, 'tls-key')).toBe(`${name}.key`);
    await inFolder(async (dir, started) => {
      const ca = makeTestCa(mkdirIn(dir, 'ca'));
      const cert = issueCertificate(ca, ca.dir, 'tailnet', { serial: 0x31, names: [name!] });
      copyFileSync(cert.certFile, join(dir, `${name}.crt`));
      copyFileSync(cert.keyFile, join(dir, `${name}.key`));
      const port = await freePort();
      const served = start(started, dir, serveLine!.replace('--port 8443', `--port ${port}`));
      const [, url] = await served.waitFor(/manifest: +(\S+)/, 60_000);
      // On every interface, the address given out is the certificate's name.
      expect(url).toBe(`https://${name}:${port}/manifest.json`);
      expect(served.stdout()).toContain(`install:   stremio://${name}:${port}/manifest.json`);
      expect((await httpsGet(url!, ca.certFile)).status).toBe(200);
    });
  },

  /**
   * `tailscale serve --bg 7000` is not run (no tailnet): the runner checks that it forwards to the
   * port the marquee line serves on (7000, the default; a free one here via MARQUEE_PORT), and
   * that a request as it forwards them gets links to the public https address.
   */
  async 'https-tailscale-serve'(block) {
    const [serveLine, proxyLine, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    expect(proxyLine).toBe('tailscale serve --bg 7000');
    expect(flag(serveLine!, 'port')).toBeUndefined();
    const publicUrl = flag(serveLine!, 'public-url')!;
    expect(publicUrl).toMatch(/^https:\/\/[^/]+\.ts\.net$/);
    await inFolder(async (dir, started) => {
      const port = await freePort();
      const served = start(started, dir, serveLine!, { MARQUEE_PORT: String(port) });
      const [, url] = await served.waitFor(/manifest: +(\S+)/, 60_000);
      expect(url).toBe(`${publicUrl}/manifest.json`);
      expect(served.stdout()).toContain(`install:   ${publicUrl.replace('https:', 'stremio:')}/manifest.json`);
      expect(await frontThroughProxy(port, publicUrl)).toContain(
        `href="${publicUrl.replace('https:', 'stremio:')}/manifest.json"`,
      );
    });
  },

  /** The Caddyfile as written, checked by Debian's caddy itself (`caddy validate`). */
  async 'https-caddyfile'(block) {
    await inFolder(async (dir) => {
      const file = join(dir, 'Caddyfile');
      writeFileSync(file, block.text);
      const output = execFileSync('caddy', ['validate', '--adapter', 'caddyfile', '--config', file], {
        env: caddyEnv(dir),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(output).toContain('Valid configuration');
    });
  },

  /**
   * The Caddy recipe run end to end: the Caddyfile block with tv.example.org moved to
   * localhost:HTTPS_PORT and `tls internal` (no public domain or Let's Encrypt here), Caddy's
   * admin endpoint off, its other ports free ones and its data in the test's folder; the marquee
   * line as shown (its public URL moved with the site, port 7000 a free one); then curl, trusting
   * Caddy's local root CA.
   */
  async 'https-caddy'(block) {
    const [serveLine, curlLine, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    const publicUrl = flag(serveLine!, 'public-url')!;
    expect(curlLine).toBe(`curl ${publicUrl}/manifest.json`);
    const caddyfile = extractBlocks('docs/https.md').find((b) => b.name === 'https-caddyfile')!.text;
    const domain = new URL(publicUrl).hostname;
    expect(caddyfile).toContain(`${domain} {`);
    expect(caddyfile).toContain('reverse_proxy 127.0.0.1:7000');
    await inFolder(async (dir, started) => {
      const [marqueePort, httpsPort, httpPort] = [await freePort(), await freePort(), await freePort()];
      const local = `https://localhost:${httpsPort}`;
      const site = caddyfile
        .replace(`${domain} {`, `localhost:${httpsPort} {\n\ttls internal`)
        .replace('127.0.0.1:7000', `127.0.0.1:${marqueePort}`);
      writeFileSync(
        join(dir, 'Caddyfile'),
        `{\n\tadmin off\n\tskip_install_trust\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n}\n${site}`,
      );
      const caddy = start(
        started,
        dir,
        `caddy run --adapter caddyfile --config ${join(dir, 'Caddyfile')}`,
        caddyEnv(dir),
      );
      const served = start(started, dir, serveLine!.replace(publicUrl, local), { MARQUEE_PORT: String(marqueePort) });
      await served.waitFor(/manifest: +\S+/, 60_000);
      const root = join(dir, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt');
      await until(() => existsSync(root), `Caddy's local root CA (${caddy.stderr().slice(-500)})`);
      const curl = start(
        started,
        dir,
        curlLine!.replace('curl ', `curl --silent --show-error --fail --cacert ${root} `).replace(publicUrl, local),
      );
      // Caddy may still be issuing the site's certificate when its root exists: a few tries.
      let code = await curl.exited;
      let output = curl.stdout();
      for (let i = 0; i < 20 && code !== 0; i++) {
        await new Promise((r) => setTimeout(r, 250));
        const again = start(started, dir, `curl --silent --show-error --fail --cacert ${root} ${local}/manifest.json`);
        code = await again.exited;
        output = again.stdout() || again.stderr();
      }
      expect(code, output).toBe(0);
      expect(JSON.parse(output).name).toBe('Marquee Demo');
      // Through Caddy, the front page offers the one-click install of the https address.
      const front = await httpsGet(`${local}/configure`, root);
      expect(front.text).toContain(`href="stremio://localhost:${httpsPort}/manifest.json"`);
    });
  },

  /**
   * The cloudflared lines are not run (they need a Cloudflare account and domain). What they must
   * agree on with the marquee line is checked: the tunnel created is the one routed and run, the
   * name routed is the public URL's host, and the tunnel's origin is where marquee serves (7000,
   * the default; a free one here). The marquee line runs as shown.
   */
  async 'https-cloudflare'(block) {
    const lines = commandsOf(block);
    expect(lines).toHaveLength(5);
    const [login, create, route, serveLine, run] = lines as [string, string, string, string, string];
    expect(login).toBe('cloudflared tunnel login');
    const tunnel = /^cloudflared tunnel create (\S+)$/.exec(create)?.[1];
    const publicUrl = flag(serveLine, 'public-url')!;
    expect(route).toBe(`cloudflared tunnel route dns ${tunnel} ${new URL(publicUrl).hostname}`);
    expect(run).toBe(`cloudflared tunnel run --url http://127.0.0.1:7000 ${tunnel}`);
    expect(flag(serveLine, 'port')).toBeUndefined();
    await inFolder(async (dir, started) => {
      const port = await freePort();
      const served = start(started, dir, serveLine, { MARQUEE_PORT: String(port) });
      const [, url] = await served.waitFor(/manifest: +(\S+)/, 60_000);
      expect(url).toBe(`${publicUrl}/manifest.json`);
      expect(await frontThroughProxy(port, publicUrl)).toContain(
        `href="${publicUrl.replace('https:', 'stremio:')}/manifest.json"`,
      );
    });
  },

  /**
   * Your own name: the folder line runs as shown, in a temp folder for /etc/marquee/tls and with
   * the test's own group for `marquee`. certbot is not run (it needs the domain and the DNS
   * provider's API): its deploy hook is, as certbot runs it, with RENEWED_LINEAGE holding a
   * certificate of the test CA for the same name, once for the first certificate and once for a
   * renewal. The serve line runs as shown on free ports; the renewal is served without a restart.
   */
  async 'https-own-name'(block) {
    const [folderLine, certbotLine, serveLine, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    const name = /-d (\S+)/.exec(certbotLine!)?.[1] ?? '';
    expect(name).toBe('tv.example.org');
    const hook = /--deploy-hook '([^']+)'/.exec(certbotLine!)?.[1];
    expect(hook, certbotLine).toBeDefined();
    expect(flag(serveLine!, 'tls-cert')).toBe('/etc/marquee/tls/fullchain.pem');
    expect(flag(serveLine!, 'tls-key')).toBe('/etc/marquee/tls/privkey.pem');
    await inFolder(async (dir, started) => {
      const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
      const tlsDir = join(dir, 'etc-marquee-tls');
      const local = (line: string) =>
        line
          .replace(/^sudo /, '')
          .replaceAll('/etc/marquee/tls', tlsDir)
          .replaceAll('-g marquee', `-g ${group}`);
      const made = start(started, dir, local(folderLine!));
      expect(await made.exited, made.stderr()).toBe(0);
      expect(statSync(tlsDir).mode & 0o777).toBe(0o750);

      const ca = makeTestCa(mkdirIn(dir, 'ca'));
      const lineage = mkdirIn(dir, 'live');
      const deploy = async (serial: number) => {
        const cert = issueCertificate(ca, ca.dir, `le-${serial}`, { serial, names: [name] });
        copyFileSync(cert.certFile, join(lineage, 'fullchain.pem'));
        copyFileSync(cert.keyFile, join(lineage, 'privkey.pem'));
        const run = start(started, dir, local(hook!), { RENEWED_LINEAGE: lineage });
        expect(await run.exited, run.stderr()).toBe(0);
        expect(statSync(join(tlsDir, 'privkey.pem')).mode & 0o777).toBe(0o640);
      };
      await deploy(0x41);

      const [port, redirectPort] = [await freePort(), await freePort()];
      const served = start(
        started,
        dir,
        local(serveLine!)
          .replace('--port 8443', `--port ${port}`)
          .replace('--https-redirect-port 8080', `--https-redirect-port ${redirectPort}`),
      );
      const [, url] = await served.waitFor(/manifest: +(\S+)/, 60_000);
      expect(url).toBe(`https://${name}:${port}/manifest.json`);
      expect((await httpsGet(url!, ca.certFile)).status).toBe(200);
      const moved = await httpRequest(`http://127.0.0.1:${redirectPort}`, '/manifest.json', {
        headers: { host: `${name}:${redirectPort}` },
      });
      expect(moved.status).toBe(308);
      expect(moved.headers.location).toBe(url);

      // certbot renews and runs the hook again: the new certificate is served, no restart.
      await deploy(0x42);
      await until(async () => (await servedSerial(port, ca.certFile, name)) === '42', 'the renewed certificate served');
      expect((await httpsGet(url!, ca.certFile)).status).toBe(200);
    });
  },
};

function mkdirIn(dir: string, name: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
}

/** Caddy's storage, config and home in the test's folder: nothing of the machine's is read or written. */
function caddyEnv(dir: string): Record<string, string> {
  return {
    HOME: dir,
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'config'),
  };
}
