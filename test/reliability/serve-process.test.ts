/**
 * `marquee serve` as a real process (node bin/marquee.js, from dist/): SIGTERM lets a request in
 * flight finish before the process exits 0; secrets (a password in a config segment, a token in
 * a query string, user info and a token in a source URL) never reach its log, not even when a
 * refresh of that source fails — and the failed refresh leaves the answers as they were; a
 * corrupt database file makes it exit 3 naming the file.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../fixtures/livetv/setup.js';
import { httpRequest } from '../helpers/http.js';
import { ensureBuilt, type ServeChild, startMarquee } from '../helpers/serve-process.js';

const ROOT = join(import.meta.dirname, '..', '..');

beforeAll(ensureBuilt, 120_000);

let dir: string;
const children: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-serve-process-'));
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(args: readonly string[]): ServeChild {
  return startMarquee(['serve', ...args], dir, children);
}

describe('SIGTERM', () => {
  it('lets a request in flight finish, refuses new connections, and exits 0', async () => {
    const child = start(['--port', '0', '--refresh-hours', '0', '--log-format', 'json']);
    const port = Number((await child.waitFor(/manifest:\s+http:\/\/127\.0\.0\.1:(\d+)\/manifest\.json/))[1]);

    // A configure form whose body arrives slowly: the request is in flight when SIGTERM comes.
    const body = 'cfg_groups=Culture&cfg_adult=true';
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => {
      answer += d.toString();
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write(
      'POST /configure HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/x-www-form-urlencoded\r\n' +
        `content-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 200));
    child.process.kill('SIGTERM');
    await child.waitFor(/SIGTERM: finishing requests in flight/);
    await new Promise((r) => setTimeout(r, 300));
    expect(child.process.exitCode).toBeNull();
    // New connections are refused once the server stopped listening.
    const refused = await new Promise<boolean>((resolve) => {
      const probe = connect(port, '127.0.0.1');
      probe.on('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);

    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('Ready to install');
    expect(await child.exited).toBe(0);
  });
});

describe('secrets in the log', () => {
  let source: Server;
  let mode: 'good' | 'garbage' = 'good';
  beforeAll(async () => {
    const playlist = readFileSync(fixture('channels.m3u'));
    source = createServer((_req, res) => {
      if (mode === 'good') res.writeHead(200, { 'content-type': 'audio/x-mpegurl' }).end(playlist);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>maintenance</body></html>');
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => source.close(resolve)));

  it('never shows a config password, a query token or a source URL credential, even when a refresh fails', async () => {
    const sourcePort = (source.address() as { port: number }).port;
    const secrets = ['pa55word-src', 't0ken-src', 'hunter2-cfg', 'qu3ry-t0ken', 'ap1-k3y'];
    const playlistUrl = `http://marquee:pa55word-src@127.0.0.1:${sourcePort}/get.php?type=m3u&token=t0ken-src`;
    const guide = join(dir, 'guide.xml');
    writeFileSync(guide, readFileSync(fixture('guide.xml')));
    const child = start([
      '--port',
      '0',
      '--db',
      join(dir, 'secrets.db'),
      '--playlist',
      playlistUrl,
      '--epg',
      guide,
      '--refresh-hours',
      '0.001',
      '--log-format',
      'json',
    ]);
    const url = (await child.waitFor(/manifest:\s+(http:\/\/127\.0\.0\.1:\d+)\/manifest\.json/))[1]!;

    const config = encodeURIComponent(JSON.stringify({ password: 'hunter2-cfg' }));
    await httpRequest(url, `/${config}/manifest.json`);
    await httpRequest(url, `/${config}/catalog/tv/mq-tv-channels.json`);
    await httpRequest(url, '/manifest.json?token=qu3ry-t0ken');
    await httpRequest(url, '/catalog/tv/mq-tv-channels.json?api_key=ap1-k3y');
    const form = await httpRequest(url, '/configure', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'cfg_groups=Culture',
    });
    const token = /\/([^/"]+)\/manifest\.json/.exec(form.text())![1]!;
    secrets.push(token);
    await httpRequest(url, `/${token}/catalog/tv/mq-tv-channels.json`);
    const before = await httpRequest(url, '/catalog/tv/mq-tv-channels.json');

    // The source breaks; the first refresh (5 s after start at the earliest) keeps the playlist
    // from its last good copy and says so at `warn`; once it has been kept for longer than 3
    // refresh intervals (3.6 s each here), at `error`, so an alert on level=error sees it.
    mode = 'garbage';
    await child.waitFor(
      /"level":"warn".*refresh: playlist http:\/\/\*\*\*@127\.0\.0\.1.*keeping the last good data/,
      30_000,
    );
    await child.waitFor(
      /"level":"error".*refresh: playlist http:\/\/\*\*\*@127\.0\.0\.1.*keeping the last good data/,
      30_000,
    );
    const after = await httpRequest(url, '/catalog/tv/mq-tv-channels.json');
    expect(after.status).toBe(200);
    expect(after.body.equals(before.body)).toBe(true);

    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    const log = child.output();
    expect(log).toContain('{config}');
    expect(log).toContain('127.0.0.1');
    for (const secret of secrets) expect(log, `the log shows ${secret}`).not.toContain(secret);
    for (const line of log.split('\n').filter((l) => l.startsWith('{'))) expect(() => JSON.parse(line)).not.toThrow();
  }, 45_000);
});

describe('a corrupt database file', () => {
  it('makes serve exit 3 naming the file', async () => {
    const db = join(dir, 'corrupt.db');
    writeFileSync(db, Buffer.alloc(64 * 1024, 0x5a));
    const child = start(['--port', '0', '--db', db, '--library', join(ROOT, 'examples', 'library', 'library.json')]);
    expect(await child.exited).toBe(3);
    expect(child.output()).toContain(db);
    expect(child.output()).toMatch(/not a Marquee database or is corrupt/);
  });
});
