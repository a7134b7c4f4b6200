/**
 * Stream health checks against local servers, through the whole chain an operator runs: a playlist
 * (with the #EXTVLCOPT headers players get) imported into a real store, a pass, and what the
 * store then holds for each stream. Each kind of answer is classified as docs/health.md says.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLiveTv, runHealthPass } from '../src/livetv/index.js';
import type { StreamRow } from '../src/store/index.js';
import { type TempStore, tempStore } from './fixtures/livetv/setup.js';
import { mp4Init, tsPackets } from './fixtures/media.js';
import {
  answer,
  hangs,
  liveTs,
  masterPlaylist,
  mediaPlaylist,
  refusingPort,
  type StreamHost,
  startStreamHost,
} from './helpers/stream-host.js';

const VLC = 'VLC/3.0.20 LibVLC/3.0.20';
const PORTAL = 'https://portal.example/';

let host: StreamHost;
let temp: TempStore;
let refused: number;
let playlist: string;

/** Channel name → the stream URL path on the host (or a full URL). */
const CHANNELS: [name: string, path: string, extra?: string[]][] = [
  ['Master', '/master.m3u8'],
  ['Master Dead', '/master-dead.m3u8'],
  ['Media', '/media.m3u8'],
  ['Live TS', '/live.ts'],
  ['Movie', '/movie.mp4'],
  ['Missing', '/missing.ts'],
  ['Gone', '/gone.ts'],
  ['Forbidden', '/forbidden.ts'],
  ['Geo', '/geo.ts'],
  ['Buy', '/buy.ts'],
  ['Json', '/json.ts'],
  ['Hangs', '/hangs.ts'],
  ['Silent', '/silent.ts'],
  ['Agent', '/agent.ts', [`#EXTVLCOPT:http-user-agent=${VLC}`, `#EXTVLCOPT:http-referrer=${PORTAL}`]],
  ['Busy', '/busy.ts'],
];

function writePlaylist(entries: typeof CHANNELS, extra: string[] = []): string {
  const lines = ['#EXTM3U'];
  for (const [name, path, options] of entries) {
    lines.push(`#EXTINF:-1 tvg-id="${name.toLowerCase().replace(' ', '-')}.test",${name}`);
    lines.push(...(options ?? []));
    lines.push(path.startsWith('http') ? path : `${host.url}${path}`);
  }
  lines.push(...extra);
  const file = join(temp.dir, 'tv.m3u');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const health = (id: string): StreamRow['health'] => temp.store.getStreams(`mq-tv:${id}.test`)[0]?.health;

beforeAll(async () => {
  host = await startStreamHost();
  temp = tempStore();
  refused = await refusingPort();
  const r = host.routes;
  r.set(
    '/master.m3u8',
    answer(200, masterPlaylist(['hi/index.m3u8', 'lo.m3u8']), { 'content-type': 'application/vnd.apple.mpegurl' }),
  );
  r.set('/lo.m3u8', answer(200, mediaPlaylist(), { 'content-type': 'application/vnd.apple.mpegurl' }));
  r.set('/master-dead.m3u8', answer(200, masterPlaylist(['gone/index.m3u8'])));
  r.set('/media.m3u8', answer(200, mediaPlaylist(5), { 'content-type': 'application/x-mpegURL' }));
  r.set('/live.ts', liveTs());
  r.set('/movie.mp4', (req, res) => {
    // A file server: unchanged since the ETag it gave, it answers 304 without a body.
    if (req.headers['if-none-match'] === '"m1"') return void res.writeHead(304, { etag: '"m1"' }).end();
    res
      .writeHead(200, { etag: '"m1"', 'content-type': 'video/mp4' })
      .end(Buffer.concat([mp4Init(), Buffer.alloc(200_000)]));
  });
  r.set('/gone.ts', answer(410, 'Gone'));
  r.set('/forbidden.ts', answer(403, 'Forbidden'));
  r.set('/geo.ts', answer(451, 'Unavailable For Legal Reasons'));
  r.set(
    '/buy.ts',
    answer(200, '<!DOCTYPE html><html><head><title>Your plan expired</title></head><body>Buy a plan</body></html>', {
      'content-type': 'text/html; charset=utf-8',
    }),
  );
  r.set('/json.ts', answer(200, '{"error":"token expired"}', { 'content-type': 'application/json' }));
  r.set('/hangs.ts', hangs);
  r.set('/silent.ts', () => {});
  r.set('/agent.ts', (req, res) => {
    if (req.headers['user-agent'] !== VLC || req.headers.referer !== PORTAL) res.writeHead(403).end('no');
    else res.writeHead(200, { 'content-type': 'video/mp2t' }).end(tsPackets(30));
  });
  r.set('/busy.ts', answer(503, 'Service Unavailable'));
  playlist = writePlaylist(CHANNELS, [
    '#EXTINF:-1 tvg-id="refused.test",Refused',
    `http://127.0.0.1:${refused}/live.ts`,
    '#EXTINF:-1 tvg-id="radio.test",Radio',
    'rtmp://radio.example/live/stream',
  ]);
  await importLiveTv(temp.store, { playlists: [{ location: playlist }] });
});
afterAll(async () => {
  await host.close();
  temp.cleanup();
});

describe('a health pass classifies each kind of answer', () => {
  let started: number;
  beforeAll(async () => {
    started = Date.now();
    await runHealthPass(temp.store, {
      allowPrivate: true,
      timeoutSeconds: 1.5,
      concurrency: 16,
      perHost: 4,
      pauseMs: 10,
    });
  });

  it('HLS: a master whose first variant is dead plays from the next; one whose only variant is dead is dead', () => {
    expect(health('master')).toMatchObject({ state: 'ok', failures: 0 });
    expect(health('master')?.detail).toBe('HLS master: variant 1: HTTP 404; variant 2: 3 segments');
    expect(host.requests.map((q) => q.path)).toEqual(expect.arrayContaining(['/hi/index.m3u8', '/lo.m3u8']));
    expect(health('master-dead')).toMatchObject({
      state: 'dead',
      detail: 'HLS master: variant 1: HTTP 404',
      failures: 1,
    });
    expect(health('media')).toMatchObject({ state: 'ok', detail: 'HLS playlist with 5 segments' });
    // No segment is ever asked for.
    expect(host.requests.some((q) => q.path.startsWith('/seg'))).toBe(false);
  });

  it('media: a TS stream that never ends and an MP4 file, read no further than their first bytes', () => {
    expect(health('live-ts')).toMatchObject({ state: 'ok', detail: 'MPEG-TS' });
    expect(health('movie')).toMatchObject({ state: 'ok', detail: 'MP4' });
    const last = health('live-ts')!;
    expect(last.lastOkAt).toBeGreaterThanOrEqual(started);
    expect(last.failingSince).toBeUndefined();
  });

  it('dead: 404, 410, 5xx and a refused connection; blocked: 403 and 451', () => {
    expect(health('missing')).toMatchObject({ state: 'dead', detail: 'HTTP 404', failures: 1 });
    expect(health('gone')).toMatchObject({ state: 'dead', detail: 'HTTP 410' });
    expect(health('busy')).toMatchObject({ state: 'dead', detail: 'HTTP 503' });
    expect(health('refused')).toMatchObject({ state: 'dead', detail: 'connection refused' });
    expect(health('forbidden')).toMatchObject({ state: 'blocked', detail: 'HTTP 403' });
    expect(health('geo')).toMatchObject({ state: 'blocked', detail: 'HTTP 451' });
    expect(health('missing')?.failingSince).toBe(health('missing')?.checkedAt);
  });

  it('not media: an HTML page and a JSON answer with 200', () => {
    expect(health('buy')).toMatchObject({ state: 'not-media', detail: 'an HTML page (text/html; charset=utf-8)' });
    expect(health('json')).toMatchObject({ state: 'not-media', detail: 'a JSON answer (application/json)' });
  });

  it('timeout: a stream that sends its headers and hangs, and one that never answers', () => {
    expect(health('hangs')).toMatchObject({ state: 'timeout', detail: 'no answer within 1.5 s' });
    expect(health('silent')).toMatchObject({ state: 'timeout' });
  });

  it("sends the playlist's User-Agent and Referer, and names Marquee when the stream has none", () => {
    expect(health('agent')).toMatchObject({ state: 'ok', detail: 'MPEG-TS' });
    const agent = host.requests.find((q) => q.path === '/agent.ts')!;
    expect(agent.headers['user-agent']).toBe(VLC);
    expect(agent.headers.referer).toBe(PORTAL);
    const live = host.requests.find((q) => q.path === '/live.ts')!;
    expect(live.headers['user-agent']).toMatch(/^Marquee \(/);
    expect(live.headers.referer).toBeUndefined();
  });

  it('leaves a scheme it cannot check unchecked', () => {
    expect(health('radio')).toBeUndefined();
  });

  it('counts consecutive failures, keeps since when, and sends validators of a good answer back', async () => {
    const firstFailure = health('missing')!.failingSince!;
    await runHealthPass(temp.store, { allowPrivate: true, timeoutSeconds: 1.5, perHost: 4, pauseMs: 10 });
    expect(health('missing')).toMatchObject({ state: 'dead', failures: 2, failingSince: firstFailure });
    const movie = host.requests.filter((q) => q.path === '/movie.mp4');
    expect(movie).toHaveLength(2);
    expect(movie[1]!.headers['if-none-match']).toBe('"m1"');
    expect(health('movie')).toMatchObject({
      state: 'ok',
      detail: 'not modified since the last good check',
      failures: 0,
    });
    // A stream that comes back is ok again, its failures forgotten.
    host.routes.set('/missing.ts', liveTs());
    await runHealthPass(temp.store, { allowPrivate: true, timeoutSeconds: 1.5, perHost: 4, pauseMs: 10 });
    expect(health('missing')).toMatchObject({ state: 'ok', failures: 0 });
    expect(health('missing')?.failingSince).toBeUndefined();
    host.routes.delete('/missing.ts');
  });
});
