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
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { httpRequest } from '../helpers/http.js';
import { freePort } from '../helpers/ports.js';
import { httpsGet, issueCertificate, makeTestCa, servedSerial } from '../helpers/tls.js';
import { type Block, commandsOf, extractBlocks, ROOT as ROOT_DIR, type Started, startShell } from './blocks.js';

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

  /**
   * The `marquee` user and group, made as shown but inside a temp folder (`useradd --prefix`, on
   * copies of this machine's /etc/passwd and /etc/group): nothing of the machine's is changed. It
   * needs root; a test run as another user checks that every flag is one useradd takes instead.
   */
  async 'https-own-name-user'(block) {
    const [line, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    expect(line).toMatch(/^sudo useradd .* marquee$/);
    // The unit runs as this user and group, and the folder line gives that group the key.
    const own = extractBlocks('docs/https.md');
    expect(own.find((b) => b.name === 'https-own-name-unit')!.text).toMatch(/^User=marquee\nGroup=marquee$/m);
    expect(own.find((b) => b.name === 'https-own-name')!.text).toContain('-g marquee');
    const home = flag(line!, 'home-dir');
    const useradd = line!.replace(/^sudo /, '');
    if (process.getuid?.() !== 0) {
      const help = spawnSync('useradd', ['--help'], { encoding: 'utf8' }).stdout;
      for (const f of useradd.match(/--[a-z-]+/g) ?? []) expect(help, f).toContain(f);
      return;
    }
    await inFolder(async (dir) => {
      const etc = mkdirIn(dir, 'etc');
      for (const file of ['passwd', 'group', 'login.defs']) copyFileSync(join('/etc', file), join(etc, file));
      for (const file of ['shadow', 'gshadow']) writeFileSync(join(etc, file), '', { mode: 0o600 });
      execFileSync('sh', ['-c', useradd.replace(/^useradd /, `useradd --prefix ${dir} `)], { stdio: 'pipe' });
      const user = readFileSync(join(etc, 'passwd'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('marquee:'))
        ?.split(':');
      expect(user?.[5]).toBe(home);
      expect(user?.[6]).toBe('/usr/sbin/nologin');
      // A system account (uid below 1000), in a group of its own name.
      expect(Number(user?.[2])).toBeLessThan(1000);
      const group = readFileSync(join(etc, 'group'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('marquee:'))
        ?.split(':');
      expect(group?.[2]).toBe(user?.[3]);
    });
  },

  /**
   * The systemd unit: `systemd-analyze verify` (when this machine has it) with its ExecStart's
   * /usr/local/bin/marquee moved to this checkout's bin/marquee.js (not installed here), no
   * warning allowed; else read as systemd reads it, its keys checked. Its command is the serve
   * line of the block above, as shown.
   */
  async 'https-own-name-unit'(block) {
    const sections = parseUnit(block.text);
    const service = sections.get('Service')!;
    const serveLine = commandsOf(extractBlocks('docs/https.md').find((b) => b.name === 'https-own-name')!)[2]!;
    expect(service.get('ExecStart')).toBe(`/usr/local/bin/${serveLine}`);
    expect([service.get('User'), service.get('Group'), service.get('StateDirectory')]).toEqual([
      'marquee',
      'marquee',
      'marquee',
    ]);
    expect(service.get('WorkingDirectory')).toBe('/var/lib/marquee');
    expect(sections.get('Install')?.get('WantedBy')).toBe('multi-user.target');
    const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
    if (analyze.error !== undefined) return; // Parsed above; no systemd on this machine to ask.
    await inFolder(async (dir) => {
      const unit = join(dir, 'marquee.service');
      writeFileSync(unit, block.text.replace('/usr/local/bin/marquee ', `${join(ROOT_DIR, 'bin', 'marquee.js')} `));
      const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8', cwd: dir });
      expect(verify.status, verify.stderr).toBe(0);
      expect(verify.stderr + verify.stdout).toBe('');
    });
  },
};

/** The keys a unit file of this guide may use, by section (systemd.unit, systemd.service, systemd.exec). */
const UNIT_KEYS: Record<string, readonly string[]> = {
  Unit: ['Description', 'Wants', 'After', 'Documentation'],
  Service: [
    'User',
    'Group',
    'StateDirectory',
    'WorkingDirectory',
    'ExecStart',
    'ExecReload',
    'Restart',
    'ProtectSystem',
    'ProtectHome',
    'PrivateTmp',
    'NoNewPrivileges',
  ],
  Install: ['WantedBy'],
};

/** A unit file read as systemd reads one: sections of `Key=value` lines, comments left out. */
function parseUnit(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  let name = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) {
      name = section[1]!;
      expect(Object.keys(UNIT_KEYS), `section [${name}]`).toContain(name);
      current = new Map();
      sections.set(name, current);
      continue;
    }
    const pair = /^([A-Za-z]+)=(.*)$/.exec(line);
    expect(pair, `a Key=value line: ${line}`).not.toBeNull();
    expect(current, `${line} before any [Section]`).toBeDefined();
    expect(UNIT_KEYS[name], `${pair![1]} in [${name}]`).toContain(pair![1]);
    current!.set(pair![1]!, pair![2]!);
  }
  return sections;
}

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
