/**
 * Signals against real `marquee` processes (issue 48): SIGHUP never ends a server, hosted or not,
 * sent to the parent or to the relaunched child, and logs only what changed; a certificate path
 * that became a FIFO is refused at reload and reloading goes on; SIGTERM ends a health pass and an
 * import within 3 s, leaving what was recorded as it was; `shutdownSeconds` bounds a stop, in the
 * process and, when its thread is held, from the parent.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCodec, parseKeyRing } from '../../src/server/index.js';
import { runCli, startCli } from '../helpers/cli.js';
import { httpRequest } from '../helpers/http.js';
import { alive, childrenOf, ensureBuilt, PROC, type ServeChild, startMarquee } from '../helpers/serve-process.js';
import { issueCertificate, makeTestCa, servedSerial } from '../helpers/tls.js';
import { itWith } from '../helpers/tools.js';

beforeAll(ensureBuilt, 120_000);

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-signals-'));
  dirs.push(dir);
  return dir;
}

const film = (id: string, name: string) => ({ id, type: 'movie', name, genres: ['Drama'] });

/** A folder with a stored library (a store of its own, no demo): `serve` there serves it. */
async function storedFolder(): Promise<string> {
  const dir = folder();
  writeFileSync(join(dir, 'films.json'), JSON.stringify([film('tt0000001', 'First')]));
  expect((await runCli(['import', '--library', 'films.json'], { cwd: dir })).code).toBe(0);
  return dir;
}

/** The relaunched server under a `marquee` parent. */
const childOf = (pid: number): number | undefined => childrenOf(pid)[0]?.pid;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function serve(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ServeChild; base: string }> {
  const child = startMarquee(
    ['serve', '--port', '0', '--refresh-hours', '0', '--log-format', 'json', ...args],
    cwd,
    children,
    env,
  );
  const base = (await child.waitFor(/manifest: +(https?:\/\/\S+)\/manifest\.json/))[1]!;
  return { child, base };
}

/** The log lines written since `from` characters of output. */
const linesSince = (child: ServeChild, from: number) =>
  child
    .output()
    .slice(from)
    .split('\n')
    .filter((l) => l.trim() !== '');

describe.skipIf(!PROC)('SIGHUP never ends a server', () => {
  it('serve --hosted over HTTP, relaunched: SIGHUP to the parent and to the child, still serving, nothing logged', async () => {
    // Before: the child died of it (no listener over HTTP), and the parent with it: exit 129, no log line.
    const dir = folder();
    const { child, base } = await serve(['--hosted'], dir, { MARQUEE_RELAUNCH: 'on', MARQUEE_QUIET: '1' });
    const server = childOf(child.process.pid!);
    expect(server).toBeDefined();
    const from = child.output().length;
    for (let i = 0; i < 5; i++) {
      child.process.kill('SIGHUP');
      process.kill(server!, 'SIGHUP');
      await sleep(20);
    }
    await sleep(300);
    expect(alive(child.process.pid!) && alive(server!)).toBe(true);
    expect((await httpRequest(base, '/manifest.json')).status).toBe(200);
    expect((await httpRequest(base, '/configure')).status).toBe(200);
    expect(linesSince(child, from)).toEqual([]);
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
  }, 30_000);

  it('50 SIGHUPs with nothing changed log nothing; one after a changed key ring logs one line', async () => {
    // Before: "reloaded the key ring" at every SIGHUP (1,361 lines for 4,000 signals).
    const dir = await storedFolder();
    const { child, base } = await serve(['--quiet'], dir);
    // The warm-up after listening logs its line a moment after the banner: not a SIGHUP's.
    await child.waitFor(/warmed up[\s\S]*warmed up[^\n]*\n/);
    const from = child.output().length;
    for (let i = 0; i < 50; i++) {
      child.process.kill('SIGHUP');
      await sleep(10);
    }
    await sleep(1_500);
    expect(linesSince(child, from)).toEqual([]);
    expect((await httpRequest(base, '/manifest.json')).status).toBe(200);

    expect((await runCli(['rotate-key'], { cwd: dir })).code).toBe(0);
    for (let i = 0; i < 5; i++) child.process.kill('SIGHUP');
    await child.waitFor(/reloaded the key ring/);
    await sleep(1_500);
    const lines = linesSince(child, from);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/"level":"info","msg":"reloaded the key ring .*marquee\.db\.keys\.json/);

    // SIGHUP reads the database path now too (the poll would take 10 s): a restore is served at once.
    expect((await runCli(['import', '--library', 'films.json', '--db', 'restored.db'], { cwd: dir })).code).toBe(0);
    execFileSync('mv', [join(dir, 'restored.db'), join(dir, 'marquee.db')]);
    child.process.kill('SIGHUP');
    await child.waitFor(/was replaced; serving the new one/, 5_000);
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
  }, 40_000);

  it('says once that a changed settings file needs a restart (settings are read at start only)', async () => {
    const dir = await storedFolder();
    writeFileSync(join(dir, 'marquee.yaml'), 'log: { requests: false }\n');
    const cli = startCli(['serve', '--port', '0', '--log-format', 'json'], { cwd: dir });
    try {
      await cli.waitForStdout(/warmed up[\s\S]*warmed up[^\n]*\n/);
      const from = cli.stdout().length;
      for (let i = 0; i < 10; i++) cli.reload();
      expect(cli.stdout().slice(from)).toBe('');
      writeFileSync(join(dir, 'marquee.yaml'), 'log: { requests: false }\nrefresh: { intervalHours: 1 }\n');
      for (let i = 0; i < 10; i++) cli.reload();
      const lines = cli.stdout().slice(from).trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 'warn',
        msg: `${join(dir, 'marquee.yaml')} changed: settings are read at start only, restart marquee serve to apply them (SIGHUP reloads the key ring, the TLS certificate and the database file)`,
      });
    } finally {
      cli.stop();
      await cli.done;
    }
  }, 30_000);

  it('serve --hosted reloads its key ring on SIGHUP: dropped keys open no link, one line, none when nothing changed', async () => {
    const dir = folder();
    const cli = startCli(['serve', '--hosted', '--port', '0', '--quiet', '--log-format', 'json'], { cwd: dir });
    try {
      const [, base] = await cli.waitForStdout(/manifest: +(http:\/\/\S+)\/manifest\.json/);
      const keyFile = join(dir, 'marquee.db.keys.json');
      const codec = createTokenCodec(parseKeyRing(readFileSync(keyFile, 'utf8')), 'org.marquee.hosted');
      const link = `/${encodeURIComponent(codec.encode({ playlist: 'http://127.0.0.1:9/list.m3u' }))}/configure`;
      expect((await httpRequest(base!, link)).status).not.toBe(404);
      const from = cli.stdout().length;
      for (let i = 0; i < 20; i++) cli.reload();
      await sleep(300);
      expect(cli.stdout().slice(from)).not.toMatch(/key ring/);

      expect((await runCli(['rotate-key', '--drop-old'], { cwd: dir })).code).toBe(0);
      for (let i = 0; i < 20; i++) cli.reload();
      await sleep(1_500);
      expect(
        cli
          .stdout()
          .slice(from)
          .match(/reloaded the key ring/g),
      ).toHaveLength(1);
      expect((await httpRequest(base!, link)).status).toBe(404);
    } finally {
      cli.stop();
      await cli.done;
    }
  }, 30_000);

  itWith(
    ['openssl'],
    'a certificate path that becomes a FIFO is refused at reload, reloading goes on, and SIGTERM still ends the server',
    async () => {
      // Before: the reload waited on the FIFO for good (no reload after it), and SIGTERM left the
      // server "finishing…" for minutes.
      const dir = folder();
      const ca = makeTestCa(dir);
      const first = issueCertificate(ca, dir, 'first', { serial: 0x71 });
      const renewed = issueCertificate(ca, dir, 'renewed', { serial: 0x72 });
      mkdirSync(join(dir, 'tls'));
      const certFile = join(dir, 'tls', 'cert.pem');
      const keyFile = join(dir, 'tls', 'key.pem');
      copyFileSync(first.certFile, certFile);
      copyFileSync(first.keyFile, keyFile);
      const { child, base } = await serve(['--demo', '--quiet', '--tls-cert', certFile, '--tls-key', keyFile], dir);
      const port = Number(new URL(base).port);
      expect(await servedSerial(port, ca.certFile)).toBe('71');

      rmSync(certFile);
      execFileSync('mkfifo', [certFile]);
      child.process.kill('SIGHUP');
      await child.waitFor(
        /cert\.pem cannot be read: is a FIFO \(named pipe\), not a file; the certificate in use is kept/,
        5_000,
      );
      expect(await servedSerial(port, ca.certFile)).toBe('71');

      // The files come back renewed: taken at the next SIGHUP (reloading went on).
      rmSync(certFile);
      copyFileSync(renewed.keyFile, keyFile);
      copyFileSync(renewed.certFile, certFile);
      child.process.kill('SIGHUP');
      await child.waitFor(/TLS certificate reloaded from .*cert\.pem: serial 72/, 5_000);
      expect(await servedSerial(port, ca.certFile)).toBe('72');

      // A FIFO again, then SIGTERM: the server ends at once.
      rmSync(certFile);
      execFileSync('mkfifo', [certFile]);
      child.process.kill('SIGHUP');
      await sleep(300);
      const stopping = Date.now();
      child.process.kill('SIGTERM');
      expect(await child.exited).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(3_000);
    },
    40_000,
  );
});

describe('SIGINT and SIGTERM end a health pass and an import within 3 s', () => {
  let host: Server;
  let hostUrl: string;
  beforeAll(async () => {
    // Streams that answer their headers and then nothing, and a guide that never ends.
    host = createServer((req, res) => {
      if (req.url?.startsWith('/guide')) {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write('<?xml version="1.0"?>\n<tv>\n');
        const timer = setInterval(() => res.write('<!-- still here -->\n'), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      res.writeHead(200, { 'content-type': 'video/mp2t' });
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    host.closeAllConnections();
    await new Promise((r) => host.close(r));
  });

  /** A folder whose playlist names 40 streams on the hanging host, imported. */
  async function hangingFolder(): Promise<string> {
    const dir = folder();
    const entries = Array.from({ length: 40 }, (_, i) => `#EXTINF:-1 tvg-id="c${i}",Channel ${i}\n${hostUrl}/s${i}.ts`);
    writeFileSync(join(dir, 'tv.m3u'), `#EXTM3U\n${entries.join('\n')}\n`);
    writeFileSync(
      join(dir, 'marquee.yaml'),
      'livetv: { playlists: [./tv.m3u] }\nsources: { allowPrivate: true }\nhealth: { timeoutSeconds: 60, perHost: 4 }\n',
    );
    expect((await runCli(['import'], { cwd: dir })).code).toBe(0);
    return dir;
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} during a health pass: ended within 3 s, nothing of the pass recorded`, async () => {
      // Before: ignored until the pass ended (here 60 s per stream).
      const dir = await hangingFolder();
      const before = await runCli(['status', '--json'], { cwd: dir });
      const pass = startMarquee(['health'], dir, children);
      await sleep(1_000);
      const sent = Date.now();
      pass.process.kill(signal);
      expect(await pass.exited).toBe(1);
      expect(Date.now() - sent).toBeLessThan(3_000);
      expect(pass.output()).toContain(`marquee health: stopped by ${signal}: nothing of this pass was recorded`);
      const after = await runCli(['status', '--json'], { cwd: dir });
      expect(JSON.parse(after.stdout).health).toEqual(JSON.parse(before.stdout).health);
    }, 30_000);
  }

  it('SIGTERM during an import (relaunched): ended within 3 s, the data served before as it was', async () => {
    const dir = await hangingFolder();
    const before = (await runCli(['status'], { cwd: dir })).stdout;
    writeFileSync(
      join(dir, 'marquee.yaml'),
      `livetv: { playlists: [./tv.m3u], guides: [${hostUrl}/guide.xml] }\nsources: { allowPrivate: true }\n`,
    );
    const importing = startMarquee(['import'], dir, children, { MARQUEE_RELAUNCH: 'on' });
    await sleep(1_500);
    const sent = Date.now();
    importing.process.kill('SIGTERM');
    expect(await importing.exited).toBe(1);
    expect(Date.now() - sent).toBeLessThan(3_000);
    expect(importing.output()).toContain('marquee import: stopped by SIGTERM');
    writeFileSync(join(dir, 'marquee.yaml'), 'livetv: { playlists: [./tv.m3u] }\nsources: { allowPrivate: true }\n');
    expect((await runCli(['status'], { cwd: dir })).stdout).toBe(before);
  }, 30_000);
});

describe('shutdownSeconds bounds a stop', () => {
  /** A configure form whose body never finishes: a request in flight that would hold the stop 10 s. */
  async function holdRequest(base: string): Promise<void> {
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write(
      'POST /configure HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 100\r\n\r\ncfg_adult',
    );
    await sleep(200);
  }

  it('cuts what still runs at the bound: exit 1, said in the log', async () => {
    const dir = await storedFolder();
    writeFileSync(join(dir, 'marquee.yaml'), 'shutdownSeconds: 1\n');
    const { child, base } = await serve([], dir);
    await holdRequest(base);
    const sent = Date.now();
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(1);
    expect(Date.now() - sent).toBeLessThan(2_500);
    expect(child.output()).toMatch(/SIGTERM: finishing requests in flight, then stopping \(at most 1 s\)/);
    expect(child.output()).toMatch(
      /"level":"error","msg":"still stopping 1 s after SIGTERM \(shutdownSeconds\): exiting now/,
    );
  }, 30_000);

  it.skipIf(!PROC)(
    'a relaunched server whose thread is held is killed by its parent past the bound',
    async () => {
      const dir = await storedFolder();
      writeFileSync(join(dir, 'marquee.yaml'), 'shutdownSeconds: 1\n');
      const { child, base } = await serve([], dir, { MARQUEE_RELAUNCH: 'on' });
      const server = childOf(child.process.pid!)!;
      await holdRequest(base);
      const sent = Date.now();
      child.process.kill('SIGTERM');
      await child.waitFor(/then stopping \(at most 1 s\)/);
      // Its thread held (as by a long synchronous step): its own timer cannot fire.
      process.kill(server, 'SIGSTOP');
      expect(await child.exited).toBe(1);
      expect(Date.now() - sent).toBeLessThan(5_000);
      expect(child.output()).toContain('marquee: the serve process did not stop within its bound: killed');
      expect(alive(server)).toBe(false);
    },
    30_000,
  );

  it('is a setting like any other: a typo is refused, naming it', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'marquee.yaml'), 'shutdownSecond: 5\n');
    const refused = await runCli(['serve', '--port', '0'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/unknown key `shutdownSecond` .*did you mean `shutdownSeconds`/);
  });
});
