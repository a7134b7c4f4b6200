/**
 * The relay over real HTTP, in-process: a stored channel's stream answer gives a relay link on the
 * add-on's origin; its HLS is cut from a live MPEG-TS upstream served at real-time pace; viewers
 * share one upstream connection; a changed token is refused before anything is fetched; limits
 * answer 503 naming the limit; a dead upstream moves playback to the backup after a
 * discontinuity; idle channels close; no answer holds an upstream URL or a password.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PACKET, pidOf } from '../src/relay/ts-packet.js';
import { type LiveHost, liveTs, needsHeaders, startLiveHost } from './helpers/live-host.js';
import { type RelayServer, startRelayServer } from './helpers/relay-server.js';
import { tsStream } from './helpers/ts-stream.js';

const CLIP = tsStream({ frames: 25 * 20 });
const SECRET = 'pa55word';

let hosts: LiveHost[] = [];
let servers: RelayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(hosts.map((h) => h.close()));
  servers = [];
  hosts = [];
});

async function host(): Promise<LiveHost> {
  const h = await startLiveHost();
  hosts.push(h);
  return h;
}

async function server(options: Parameters<typeof startRelayServer>[0]): Promise<RelayServer> {
  const s = await startRelayServer(options);
  servers.push(s);
  return s;
}

/** Every answer's text, to look for what must never be in one. */
const seen: string[] = [];
async function get(url: string, init?: RequestInit): Promise<Response & { bodyText?: string }> {
  const response = await fetch(url, init);
  return response;
}
async function text(url: string, record = true): Promise<{ status: number; text: string; type: string | null }> {
  const response = await get(url);
  const body = await response.text();
  if (record) seen.push(body, JSON.stringify([...response.headers]));
  return { status: response.status, text: body, type: response.headers.get('content-type') };
}

async function streamsOf(
  s: RelayServer,
  channel: string,
  record = true,
): Promise<{ url: string; behaviorHints?: unknown }[]> {
  const answer = await text(`${s.url}/stream/tv/${encodeURIComponent(channel)}.json`, record);
  expect(answer.status).toBe(200);
  return JSON.parse(answer.text).streams;
}

/** Plays like a player: master, media playlist, then each new segment; returns what it got. */
async function watch(index: string, seconds: number): Promise<{ segments: Buffer[]; playlists: string[] }> {
  const master = await text(index);
  expect(master.status, master.text).toBe(200);
  expect(master.type).toBe('application/vnd.apple.mpegurl');
  const variant = master.text.split('\n').find((l) => l !== '' && !l.startsWith('#'))!;
  const media = new URL(variant, index).href;
  const segments: Buffer[] = [];
  const playlists: string[] = [];
  const got = new Set<string>();
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const playlist = await text(media);
    expect(playlist.status, playlist.text).toBe(200);
    playlists.push(playlist.text);
    for (const uri of playlist.text.split('\n').filter((l) => l !== '' && !l.startsWith('#'))) {
      if (got.has(uri)) continue;
      got.add(uri);
      const response = await get(new URL(uri, media).href);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('video/mp2t');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      segments.push(Buffer.from(await response.arrayBuffer()));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { segments, playlists };
}

function playlistOf(entries: { name: string; url: string; options?: string[] }[]): string {
  return `#EXTM3U\n${entries
    .map(
      (e) => `#EXTINF:-1 tvg-id="${e.name}",${e.name}\n${(e.options ?? []).join('\n')}${e.options ? '\n' : ''}${e.url}`,
    )
    .join('\n')}\n`;
}

describe('relay links in stream answers', () => {
  it('lists the relay link first, with no proxy headers, and the direct URL only with keepDirect', async () => {
    const upstream = await host();
    const url = `${upstream.url}/live/user/${SECRET}/1.ts`;
    const options = ['#EXTVLCOPT:http-user-agent=SecretPlayer/1.0', '#EXTVLCOPT:http-referrer=https://tv.example/'];
    const s = await server({ playlist: playlistOf([{ name: 'News', url, options }]) });
    const [stream, ...rest] = await streamsOf(s, 'mq-tv:news');
    expect(rest).toEqual([]);
    expect(stream!.url).toMatch(new RegExp(`^${s.url}/relay/[A-Za-z0-9_.-]+/index\\.m3u8$`));
    expect(stream!.behaviorHints).toBeUndefined();
    expect(JSON.stringify(stream)).not.toMatch(/127\.0\.0\.1:\d+\/live|pa55word|SecretPlayer/);

    const direct = await server({ playlist: playlistOf([{ name: 'News', url, options }]), keepDirect: true });
    // keepDirect lists the direct URL on purpose (for apps that play it): not an answer to scan.
    const both = await streamsOf(direct, 'mq-tv:news', false);
    expect(both.map((x) => x.url)).toEqual([expect.stringContaining('/relay/'), url]);
    expect(both[1]!.behaviorHints).toEqual({
      notWebReady: true,
      proxyHeaders: { request: { 'User-Agent': 'SecretPlayer/1.0', Referer: 'https://tv.example/' } },
    });
  });

  it('auto leaves an HLS stream that plays as it is direct, and relays it when told to relay everything', async () => {
    const s = await server({ playlist: playlistOf([{ name: 'Arte', url: 'http://tv.example/arte/index.m3u8' }]) });
    expect((await streamsOf(s, 'mq-tv:arte')).map((x) => x.url)).toEqual(['http://tv.example/arte/index.m3u8']);
    const always = await server({
      playlist: playlistOf([{ name: 'Arte', url: 'http://tv.example/arte/index.m3u8' }]),
      mode: 'always',
    });
    expect((await streamsOf(always, 'mq-tv:arte'))[0]!.url).toContain('/relay/');
  });
});

describe('live MPEG-TS as HLS', () => {
  it('cuts the upstream into ~2 s segments, each opening with PAT and PMT, with the upstream headers sent', async () => {
    const upstream = await host();
    upstream.routes.set('/secure.ts', liveTs(CLIP, needsHeaders('SecretPlayer/1.0', 'https://tv.example/')));
    const options = ['#EXTVLCOPT:http-user-agent=SecretPlayer/1.0', '#EXTVLCOPT:http-referrer=https://tv.example/'];
    const s = await server({ playlist: playlistOf([{ name: 'News', url: `${upstream.url}/secure.ts`, options }]) });
    const [stream] = await streamsOf(s, 'mq-tv:news');
    const { segments, playlists } = await watch(stream!.url, 5);
    expect(segments.length).toBeGreaterThanOrEqual(2);
    for (const segment of segments) {
      expect(segment.length % PACKET).toBe(0);
      expect(pidOf(segment, 0)).toBe(0);
      expect(pidOf(segment, PACKET)).toBe(0x1000);
    }
    const last = playlists.at(-1)!;
    expect(last).toMatch(/#EXT-X-TARGETDURATION:2\n/);
    expect(last).toMatch(/#EXTINF:2\.000,/);
    expect(upstream.requests.every((r) => r.headers['user-agent'] === 'SecretPlayer/1.0')).toBe(true);
    expect(upstream.requests.every((r) => r.headers.referer === 'https://tv.example/')).toBe(true);
    expect(s.relay.sessions()).toMatchObject([{ channel: 'News', kind: 'ts', codecs: 'h264+aac', viewers: 1 }]);
  });

  it('gives a continuous MPEG-TS starting at the last keyframe', async () => {
    const upstream = await host();
    upstream.routes.set('/1.ts', liveTs(CLIP));
    const s = await server({ playlist: playlistOf([{ name: 'News', url: `${upstream.url}/1.ts` }]) });
    const [stream] = await streamsOf(s, 'mq-tv:news');
    const response = await fetch(stream!.url.replace('index.m3u8', 'live.ts'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp2t');
    const reader = response.body!.getReader();
    const chunks: Buffer[] = [];
    let length = 0;
    while (length < 3 * PACKET) {
      const { value } = await reader.read();
      chunks.push(Buffer.from(value!));
      length += value!.length;
    }
    await reader.cancel();
    const head = Buffer.concat(chunks);
    expect(pidOf(head, 0)).toBe(0);
    expect(pidOf(head, PACKET)).toBe(0x1000);
  });
});

describe('one upstream, many viewers', () => {
  it('eight viewers of one channel make one upstream connection', async () => {
    const upstream = await host();
    upstream.routes.set('/1.ts', liveTs(CLIP));
    const s = await server({ playlist: playlistOf([{ name: 'News', url: `${upstream.url}/1.ts` }]) });
    const [stream] = await streamsOf(s, 'mq-tv:news');
    const viewers = await Promise.all(Array.from({ length: 8 }, () => watch(stream!.url, 4)));
    for (const v of viewers) expect(v.segments.length).toBeGreaterThanOrEqual(1);
    expect(upstream.connections.total).toBe(1);
    expect(upstream.requests).toHaveLength(1);
    expect(s.relay.sessions()).toMatchObject([{ viewers: 8 }]);
  });
});

describe('not an open proxy', () => {
  it('refuses a token with a character changed, before any upstream request', async () => {
    const upstream = await host();
    upstream.routes.set('/1.ts', liveTs(CLIP));
    const s = await server({ playlist: playlistOf([{ name: 'News', url: `${upstream.url}/1.ts` }]) });
    const [stream] = await streamsOf(s, 'mq-tv:news');
    const token = /\/relay\/([^/]+)\//.exec(stream!.url)![1]!;
    for (const at of [0, 3, Math.floor(token.length / 2), token.length - 1]) {
      const changed = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      const answer = await text(stream!.url.replace(token, changed));
      expect(answer.status).toBe(403);
    }
    expect(upstream.requests).toEqual([]);
    expect(s.relay.sessions()).toEqual([]);
  });
});

describe('connection limits', () => {
  it('maxConnections: 1 never opens two; the refused viewer gets a 503 naming the limit and who holds it', async () => {
    const upstream = await host();
    upstream.routes.set('/1.ts', liveTs(CLIP));
    upstream.routes.set('/2.ts', liveTs(CLIP));
    const s = await server({
      playlist: playlistOf([
        { name: 'News', url: `${upstream.url}/1.ts` },
        { name: 'Sport', url: `${upstream.url}/2.ts` },
      ]),
      maxConnections: 1,
      limits: { idleMs: 60_000 },
    });
    const [news] = await streamsOf(s, 'mq-tv:news');
    const [sport] = await streamsOf(s, 'mq-tv:sport');
    expect((await text(news!.url)).status).toBe(200);
    const refused = await text(sport!.url);
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('this playlist allows 1 connection at a time (livetv.playlists[0].maxConnections)');
    expect(refused.text).toContain('in use by News');
    expect(upstream.connections.max).toBe(1);
    expect(upstream.requests.map((r) => r.path)).toEqual(['/1.ts']);
  });
});

describe('no answer holds an upstream URL or a password', () => {
  it('in everything the tests above were answered', () => {
    expect(seen.length).toBeGreaterThan(10);
    for (const body of seen) {
      expect(body).not.toContain(SECRET);
      expect(body).not.toMatch(/127\.0\.0\.1:\d+\/(live|secure|1|2)/);
    }
  });
});
