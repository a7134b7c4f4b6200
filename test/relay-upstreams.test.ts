/**
 * The relay's upstreams over real HTTP, in-process: an HLS channel whose segments are on another
 * host (rewritten through relay ids, each segment and key fetched once for every viewer), failover
 * to the channel's backup when its stream dies or stalls (the same playlist goes on after a
 * discontinuity, and the failure is in stream health), and an idle channel's upstream closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { liveHls, liveTs } from './helpers/live-host.js';
import { playlistUris, relayFixtures, relayLink, relayPlaylist } from './helpers/relay-server.js';
import { tsStream } from './helpers/ts-stream.js';

const CLIP = tsStream({ frames: 25 * 20 });
/** Five segments of 2 s, one timeline. */
const SEGMENTS = Array.from({ length: 5 }, (_, i) => tsStream({ frames: 50, startPts: 900_000 + i * 180_000 }));

const running = relayFixtures();
afterEach(() => running.close());
const { host, server } = running;

async function mediaUrl(index: string): Promise<string> {
  const master = await (await fetch(index)).text();
  return new URL(playlistUris(master)[0]!, index).href;
}

describe('an HLS upstream', () => {
  it('is rewritten through relay ids; segments on another host are fetched once for all viewers', async () => {
    const origin = await host();
    const cdn = await host();
    for (const [i, bytes] of SEGMENTS.entries()) {
      cdn.routes.set(`/seg/s${i}.ts`, (_req, res) => res.writeHead(200, { 'content-type': 'video/mp2t' }).end(bytes));
    }
    origin.routes.set(
      '/live/index.m3u8',
      liveHls(
        SEGMENTS.map((_, i) => ({ name: `s${i}.ts?token=s3cret`, duration: 2 })),
        { segmentBase: `${cdn.url}/seg/` },
      ),
    );
    const s = await server({
      playlist: relayPlaylist([{ name: 'Arte', url: `${origin.url}/live/index.m3u8` }]),
      mode: 'always',
    });
    const index = await relayLink(s, 'mq-tv:arte');
    const viewers = await Promise.all([1, 2, 3, 4].map(() => mediaUrl(index)));
    const playlists = await Promise.all(viewers.map(async (u) => (await fetch(u)).text()));
    for (const p of playlists) {
      expect(p).not.toMatch(/127\.0\.0\.1|s3cret|token/);
      expect(playlistUris(p).length).toBeGreaterThanOrEqual(3);
    }
    // Every viewer fetches every listed segment.
    const bodies = await Promise.all(
      viewers.flatMap((u, i) =>
        playlistUris(playlists[i]!).map(async (uri) => Buffer.from(await (await fetch(new URL(uri, u))).arrayBuffer())),
      ),
    );
    for (const body of bodies) expect(SEGMENTS.some((seg) => seg.equals(body))).toBe(true);
    const fetched = cdn.requests.map((r) => r.path);
    expect(new Set(fetched).size).toBe(fetched.length);
    expect(s.relay.sessions()).toMatchObject([{ kind: 'hls', viewers: 4 }]);
  });

  it('passes keys through relay ids, fetched once', async () => {
    const origin = await host();
    const key = Buffer.alloc(16, 7);
    origin.routes.set('/key', (_req, res) => res.writeHead(200).end(key));
    for (const [i, bytes] of SEGMENTS.entries())
      origin.routes.set(`/s${i}.ts`, (_req, res) => res.writeHead(200).end(bytes));
    origin.routes.set('/enc.m3u8', (_req, res) => {
      const lines = ['#EXTM3U', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:0'];
      lines.push(
        `#EXT-X-KEY:METHOD=AES-128,URI="${origin.url}/key?token=s3cret",IV=0x00000000000000000000000000000001`,
      );
      for (let i = 0; i < 5; i++) lines.push('#EXTINF:2,', `s${i}.ts`);
      res.writeHead(200).end(`${lines.join('\n')}\n`);
    });
    const s = await server({
      playlist: relayPlaylist([{ name: 'Arte', url: `${origin.url}/enc.m3u8` }]),
      mode: 'always',
    });
    const media = await mediaUrl(await relayLink(s, 'mq-tv:arte'));
    const playlist = await (await fetch(media)).text();
    expect(playlist).toContain('#EXT-X-KEY:METHOD=AES-128,IV=0x00000000000000000000000000000001,URI="k0.key"');
    for (let i = 0; i < 3; i++) {
      const got = await fetch(new URL('k0.key', media));
      expect(Buffer.from(await got.arrayBuffer()).equals(key)).toBe(true);
    }
    expect(origin.requests.filter((r) => r.path === '/key')).toHaveLength(1);
  });
});

describe('failover while playing', () => {
  it('moves to the backup when the stream dies; the same playlist goes on after a discontinuity', async () => {
    const first = await host();
    const backup = await host();
    first.routes.set('/1.ts', liveTs(CLIP));
    backup.routes.set('/2.ts', liveTs(CLIP));
    const s = await server({
      playlist: relayPlaylist([
        { name: 'News', url: `${first.url}/1.ts` },
        { name: 'News', url: `${backup.url}/2.ts` },
      ]),
    });
    const media = await mediaUrl(await relayLink(s, 'mq-tv:news'));
    const before = await (await fetch(media)).text();
    // The provider drops the stream and refuses it from now on.
    first.routes.set('/1.ts', (_req, res) => res.writeHead(404).end());
    first.dropAll();
    let after = '';
    for (let i = 0; i < 40 && !after.includes('#EXT-X-DISCONTINUITY'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await (await fetch(media)).text();
    }
    expect(after).toContain('#EXT-X-DISCONTINUITY');
    // The same sequence goes on: what was listed before is older, never renumbered.
    const seq = (p: string) => Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(p)![1]);
    expect(seq(after)).toBeGreaterThanOrEqual(seq(before));
    expect(backup.connections.total).toBe(1);
    expect(s.failures[0]).toMatchObject({ url: `${first.url}/1.ts`, state: 'dead' });
    expect(s.relay.sessions()[0]).toMatchObject({
      failovers: 1,
      upstream: expect.stringContaining(backup.url.slice(7)),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const health = s.store.getStreams('mq-tv:news')[0]!.health;
    expect(health).toMatchObject({ state: 'dead', failures: 1 });
    expect(health?.detail).toMatch(/^relay: /);
  });

  it('moves on when the stream stalls for relay.stallSeconds', async () => {
    const first = await host();
    const backup = await host();
    first.routes.set('/1.ts', (_req, res) => {
      // Four seconds of stream, then nothing, the connection held open.
      res.writeHead(200, { 'content-type': 'video/mp2t' }).write(CLIP.subarray(0, Math.floor(CLIP.length / 5)));
    });
    backup.routes.set('/2.ts', liveTs(CLIP));
    const s = await server({
      playlist: relayPlaylist([
        { name: 'News', url: `${first.url}/1.ts` },
        { name: 'News', url: `${backup.url}/2.ts` },
      ]),
      limits: { stallMs: 1_500 },
    });
    const media = await mediaUrl(await relayLink(s, 'mq-tv:news'));
    for (let i = 0; i < 40 && backup.connections.total === 0; i++) await new Promise((r) => setTimeout(r, 200));
    expect(backup.connections.total).toBe(1);
    expect(s.failures[0]).toMatchObject({ state: 'timeout', detail: expect.stringMatching(/no bytes for 1.5 s/) });
    expect((await fetch(media)).status).toBe(200);
  });
});

describe('idle channels', () => {
  it('close their upstream relay.idleSeconds after the last viewer leaves', async () => {
    const upstream = await host();
    upstream.routes.set('/1.ts', liveTs(CLIP));
    const s = await server({
      playlist: relayPlaylist([{ name: 'News', url: `${upstream.url}/1.ts` }]),
      limits: { idleMs: 1_000 },
    });
    const index = await relayLink(s, 'mq-tv:news');
    const controller = new AbortController();
    const response = await fetch(index.replace('index.m3u8', 'live.ts'), { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    expect(s.relay.sessions()).toMatchObject([{ viewers: 1 }]);
    controller.abort();
    await reader.cancel().catch(() => {});
    const left = Date.now();
    for (let i = 0; i < 50 && upstream.connections.open > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(upstream.connections.open).toBe(0);
    // Not before relay.idleSeconds (a sweep a second).
    expect(Date.now() - left).toBeGreaterThanOrEqual(900);
    expect(s.relay.sessions()).toEqual([]);
  });

  it('stopped while their stream opens, give the connection back and record no failure', async () => {
    const upstream = await host();
    const answer = liveTs(CLIP);
    upstream.routes.set('/1.ts', (req, res) => void setTimeout(() => answer(req, res), 600));
    const s = await server({ playlist: relayPlaylist([{ name: 'News', url: `${upstream.url}/1.ts` }]) });
    const index = await relayLink(s, 'mq-tv:news');
    const viewer = fetch(index.replace('index.m3u8', 'live.ts')).catch(() => undefined);
    for (let i = 0; i < 50 && upstream.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    s.relay.close();
    await new Promise((r) => setTimeout(r, 1_200));
    await viewer.then((response) => response?.body?.cancel().catch(() => {}));
    // The stream answered after the stop: its connection is closed, not kept by a session nobody sweeps.
    expect(upstream.connections.open).toBe(0);
    expect(s.relay.sessions()).toEqual([]);
    expect(s.failures).toEqual([]);
    expect(s.store.getStreams('mq-tv:news')[0]!.health).toBeUndefined();
  });

  it('stopped while waiting to open their stream again, open nothing more and record only the real failure', async () => {
    const upstream = await host();
    // A stream that ends after a second: the relay records it and tries it again a second later.
    upstream.routes.set('/1.ts', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      res.write(CLIP.subarray(0, 188 * 400));
      setTimeout(() => res.end(), 1_000);
    });
    const s = await server({ playlist: relayPlaylist([{ name: 'News', url: `${upstream.url}/1.ts` }]) });
    const index = await relayLink(s, 'mq-tv:news');
    const response = await fetch(index.replace('index.m3u8', 'live.ts'));
    const reader = response.body!.getReader();
    await reader.read();
    for (let i = 0; i < 50 && s.failures.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(s.failures).toHaveLength(1);
    // Past the close's grace (100 ms): the session now waits a second before opening the stream again.
    await new Promise((r) => setTimeout(r, 400));
    s.relay.close();
    await reader.cancel().catch(() => {});
    await new Promise((r) => setTimeout(r, 1_500));
    expect(upstream.requests).toHaveLength(1);
    expect(s.failures).toHaveLength(1);
  });
});
