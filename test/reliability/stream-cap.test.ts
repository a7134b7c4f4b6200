/**
 * A playlist of 300,000 entries that share one name (issue 48). It was one channel of 300,000
 * streams: a 28.9 MB stream answer, the manifest waiting 3.7 s beside four of them in flight, and
 * in hosted mode one user freezing every other (48 MB answers, 7.4 s for others' catalogs). Now a
 * channel keeps `livetv.maxStreamsPerChannel` streams (default 50): the rest are counted in the
 * import report, `import --json` and `marquee status`, never stored; a store written before the
 * cap is bounded when read. Real `marquee` processes (dist/) on 127.0.0.1; the playlist is
 * generated here (15 MB, never committed).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLiveTv } from '../../src/livetv/index.js';
import { openStore } from '../../src/store/index.js';
import { form } from '../helpers/hosted.js';
import { httpRequest, type RawResponse } from '../helpers/http.js';
import { peakMb } from '../helpers/memory.js';
import { ensureBuilt, startMarquee } from '../helpers/serve-process.js';

const ENTRIES = 300_000;
const CHANNEL = 'mq-tv:same-name';
const STREAM = `/stream/tv/${encodeURIComponent(CHANNEL)}.json`;
const MiB = 1024 * 1024;

let dir: string;
let playlist: string;
let text: string;
let host: Server;
let hostUrl: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'marquee-stream-cap-'));
  const parts = ['#EXTM3U\n'];
  for (let i = 1; i <= ENTRIES; i++) parts.push(`#EXTINF:-1,Same Name\nhttp://s.example/live/${i}.m3u8\n`);
  text = parts.join('');
  playlist = join(dir, 'same.m3u');
  writeFileSync(playlist, text);
  const small = '#EXTM3U\n#EXTINF:-1 tvg-id="b1",Bravo One\nhttp://s.example/b1.m3u8\n';
  host = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'audio/x-mpegurl' });
    res.end(req.url === '/same.m3u' ? text : small);
  });
  await new Promise<void>((done) => host.listen(0, '127.0.0.1', done));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await new Promise((done) => host?.close(done));
  rmSync(dir, { recursive: true, force: true });
});

/** Four stream requests in flight (each encoding a client sends) and, beside them, `beside`: its time. */
async function besideFour(base: string, stream: string, beside: string) {
  const encodings = ['br', 'gzip', 'gzip, deflate, br', 'identity'];
  let worst = 0;
  let largest = 0;
  for (let round = 0; round < 3; round++) {
    const heavy = encodings.map((e) => httpRequest(base, stream, { headers: { 'accept-encoding': e } }));
    const started = performance.now();
    const light = await httpRequest(base, beside, { headers: { 'accept-encoding': 'gzip' } });
    worst = Math.max(worst, performance.now() - started);
    expect(light.status).toBe(200);
    for (const answer of await Promise.all(heavy)) {
      expect(answer.status).toBe(200);
      largest = Math.max(largest, answer.body.byteLength);
    }
  }
  return { worst, largest };
}

async function serve(db: string, extra: string[] = []) {
  const server = startMarquee(['serve', '--db', db, '--port', '0', '--quiet', ...extra], dir, children);
  const [, manifest] = await server.waitFor(/manifest: +(\S+)/);
  return { server, base: manifest!.replace(/\/manifest\.json$/, '') };
}

describe('a playlist of 300,000 entries sharing one name', () => {
  it('imports as one channel of 50 streams; the 299,950 others are counted in import --json and status, never stored', async () => {
    const db = join(dir, 'capped.db');
    const imported = startMarquee(['import', '--db', db, '--playlist', playlist, '--json'], dir, children);
    expect(await imported.exited).toBe(0);
    const report = JSON.parse(imported.output().slice(imported.output().indexOf('{')));
    expect(report.livetv.counts).toMatchObject({ channels: 1, streams: 50, streamsOverCap: ENTRIES - 50 });
    expect(report.livetv.warnings).toContainEqual({
      source: playlist,
      line: 2,
      message: `channel "Same Name" has ${ENTRIES} streams; the first 50 are served (livetv.maxStreamsPerChannel), ${ENTRIES - 50} are not`,
    });
    const status = startMarquee(['status', '--db', db, '--playlist', playlist, '--json'], dir, children);
    expect(await status.exited).toBe(0);
    const source = JSON.parse(status.output()).sources[0];
    expect(source.lastGood.counts).toEqual({ channels: 1, 'streams not served': ENTRIES - 50 });
    expect(source.serving).toMatch(/^1 channel, 299,950 streams not served/);

    // The cap is a setting; the summary says what it left out.
    writeFileSync(join(dir, 'five.json'), JSON.stringify({ livetv: { maxStreamsPerChannel: 5 } }));
    const five = startMarquee(
      ['import', '--db', join(dir, 'five.db'), '--playlist', playlist, '--config', join(dir, 'five.json')],
      dir,
      children,
    );
    expect(await five.exited).toBe(0);
    expect(five.output()).toMatch(/live TV: 1 channel \(5 streams, 0 groups\)/);
    expect(five.output()).toMatch(/not served: 299,995 streams past livetv\.maxStreamsPerChannel/);
  }, 60_000);

  it('answers its streams under 1 MB, and the manifest within 500 ms beside four of them in flight', async () => {
    const { server, base } = await serve(join(dir, 'capped.db'));
    const { worst, largest } = await besideFour(base, STREAM, '/manifest.json');
    expect(largest).toBeLessThan(MiB);
    expect(worst, `the manifest took ${worst.toFixed(0)} ms`).toBeLessThan(500);
    const streams = (await httpRequest(base, STREAM)).json().streams;
    expect(streams).toHaveLength(50);
    expect(streams[0]).toMatchObject({ url: 'http://s.example/live/1.m3u8', description: 'Same Name (1/50)' });
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('bounds the streams of a store written before the cap when it reads them', async () => {
    // As an earlier version wrote it: every entry a stream of the one channel.
    const db = join(dir, 'legacy.db');
    const store = openStore(db);
    try {
      const legacy = await importLiveTv(store, { playlists: [{ location: playlist }], maxStreamsPerChannel: 1e9 });
      expect(legacy.counts.streams).toBe(ENTRIES);
    } finally {
      store.close();
    }
    const { server, base } = await serve(db);
    const { worst, largest } = await besideFour(base, STREAM, '/manifest.json');
    expect(largest).toBeLessThan(MiB);
    expect(worst, `the manifest took ${worst.toFixed(0)} ms`).toBeLessThan(500);
    expect((await httpRequest(base, STREAM)).json().streams).toHaveLength(50);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('in hosted mode, keeps another user’s catalog within 500 ms beside four such answers, and the server small', async () => {
    writeFileSync(join(dir, 'hosted.json'), JSON.stringify({ hosted: { importsPerMinute: 60 } }));
    const args = ['serve', '--hosted', '--allow-private-sources', '--port', '0', '--db', join(dir, 'h.db')];
    const server = startMarquee([...args, '--config', join(dir, 'hosted.json'), '--log-format', 'json'], dir, children);
    const [, manifest] = await server.waitFor(/manifest: +(\S+)/);
    const base = manifest!.replace(/\/manifest\.json$/, '');
    const configure = async (path: string) => {
      const answer: RawResponse = await httpRequest(base, '/configure', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ playlist: `${hostUrl}${path}` }),
      });
      expect(answer.status, answer.text()).toBe(200);
      return new URL(answer.json().manifestUrl).pathname.replace(/\/manifest\.json$/, '');
    };
    const heavy = await configure('/same.m3u');
    const other = await configure('/small.m3u');
    const { worst, largest } = await besideFour(base, `${heavy}${STREAM}`, `${other}/catalog/tv/mq-tv-channels.json`);
    expect(largest).toBeLessThan(MiB);
    expect(worst, `the other user's catalog took ${worst.toFixed(0)} ms`).toBeLessThan(500);
    const peak = peakMb(server.process.pid!);
    expect(peak, `serve --hosted peaked at ${peak.toFixed(0)} MB`).toBeLessThan(400);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);
});
