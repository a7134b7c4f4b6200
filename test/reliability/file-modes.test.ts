/**
 * Files Marquee creates are 0600 and its folders 0700 whatever the umask (issue 48: under umask
 * 000 the copies folder `.db.sources` was 0777 and an import's work copies 0666): the database and
 * its WAL files, the copies of the sources and their folder, and the copies an import writes while
 * it reads, seen during a real `marquee import` run under `umask 000`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatXmltvTime } from '../../src/sources/xmltv/index.js';
import { BIN, ensureBuilt } from '../helpers/serve-process.js';

beforeAll(ensureBuilt, 120_000);

let dir: string;
let source: Server;
let url: string;
/** Lets the guide's answer end (it waits, so the import can be looked at while it reads). */
let release: () => void = () => {};
const released = new Promise<void>((resolve) => {
  release = resolve;
});
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-modes-'));
  const start = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
  source = createServer((req, res) => {
    if (req.url === '/tv.m3u') {
      res.writeHead(200, { 'content-type': 'audio/x-mpegurl' });
      res.end('#EXTM3U\n#EXTINF:-1 tvg-id="one",One\nhttp://tv.example/one.ts\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.write(
      '<?xml version="1.0" encoding="UTF-8"?>\n<tv><channel id="one"><display-name>One</display-name></channel>\n',
    );
    void released.then(() =>
      res.end(
        `<programme channel="one" start="${formatXmltvTime(start)}" stop="${formatXmltvTime(start + 7_200_000)}"><title>News</title></programme></tv>\n`,
      ),
    );
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
});
afterAll(async () => {
  release();
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  source.closeAllConnections();
  await new Promise((r) => source.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

/** Every file and folder under `root`, with its mode. */
function modes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length + 1)] = mode(path);
  }
  return out;
}

it('creates every file 0600 and every folder 0700 under umask 000, during an import and after it', async () => {
  writeFileSync(
    join(dir, 'marquee.yaml'),
    `livetv: { playlists: [${url}/tv.m3u], guides: [${url}/guide.xml] }\nsources: { allowPrivate: true }\n`,
  );
  const child = spawn('/bin/sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, BIN, 'import'], {
    cwd: dir,
    env: { ...process.env, MARQUEE_RELAUNCH: 'off' },
    stdio: 'ignore',
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

  // While the guide is read: its work copy, in a work folder in the copies folder.
  const copies = join(dir, 'marquee.db.sources');
  const deadline = Date.now() + 15_000;
  let during: Record<string, string> = {};
  while (Date.now() < deadline) {
    during = existsSync(copies) ? modes(copies) : {};
    if (Object.keys(during).some((p) => /work-.*guide-\d+\.copy$/.test(p))) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const work = Object.entries(during).filter(([p]) => /work-/.test(p));
  expect(work.length).toBeGreaterThanOrEqual(2);
  for (const [path, m] of work) expect(m, path).toBe(/\.copy$/.test(path) ? '0600' : '0700');
  expect(mode(copies)).toBe('0700');
  expect(mode(join(dir, 'marquee.db'))).toBe('0600');

  release();
  expect(await exited).toBe(0);
  // After it: the database (and any WAL file left), the copies folder and the copies kept.
  const after = modes(dir);
  const ours = Object.entries(after).filter(([p]) => p.startsWith('marquee.db'));
  expect(ours.map(([p]) => p)).toEqual(expect.arrayContaining(['marquee.db', 'marquee.db.sources']));
  expect(ours.filter(([p]) => p.endsWith('.copy')).length).toBe(2);
  for (const [path, m] of ours) expect(m, path).toBe(path === 'marquee.db.sources' ? '0700' : '0600');
}, 40_000);
