/**
 * The relay's limits and edges: the global caps (relay.maxUpstreams, relay.maxViewers) answer 503
 * naming them; an Xtream account's limit is its panel's max_connections unless set; a stream the
 * relay cannot cut is refused naming what it is, and not recorded as dead; an MP4 file is passed
 * through with its ranges; the playlist's headers are read from every form a playlist writes them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sourceLimits } from '../src/cli/relay-serve.js';
import { upstreamRequest } from '../src/relay/headers.js';
import { needsRelay } from '../src/relay/links.js';
import { parseXtreamAccount } from '../src/sources/xtream/index.js';
import { sourceKey } from '../src/store/index.js';
import { type LiveHost, liveTs, startLiveHost } from './helpers/live-host.js';
import { type RelayServer, startRelayServer } from './helpers/relay-server.js';
import { tsStream } from './helpers/ts-stream.js';
import { startPanel } from './helpers/xtream-panel.js';

const CLIP = tsStream({ frames: 25 * 20 });

let hosts: LiveHost[] = [];
let servers: RelayServer[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(hosts.map((h) => h.close()));
  await Promise.all(closers.splice(0).map((c) => c()));
  servers = [];
  hosts = [];
});

async function setUp(
  entries: { name: string; path: string }[],
  options: Partial<Parameters<typeof startRelayServer>[0]>,
) {
  const host = await startLiveHost();
  hosts.push(host);
  for (const e of entries) host.routes.set(e.path, liveTs(CLIP));
  const s = await startRelayServer({
    playlist: `#EXTM3U\n${entries.map((e) => `#EXTINF:-1 tvg-id="${e.name}",${e.name}\n${host.url}${e.path}`).join('\n')}\n`,
    ...options,
  });
  servers.push(s);
  const link = async (id: string) => {
    const { streams } = (await (await fetch(`${s.url}/stream/tv/${encodeURIComponent(id)}.json`)).json()) as {
      streams: { url: string }[];
    };
    return streams[0]!.url;
  };
  return { host, s, link };
}

describe('global caps', () => {
  it('relay.maxUpstreams: a second channel gets 503 naming it and the channel holding it', async () => {
    const { link, host } = await setUp(
      [
        { name: 'One', path: '/1.ts' },
        { name: 'Two', path: '/2.ts' },
      ],
      { limits: { maxUpstreams: 1, idleMs: 60_000 } },
    );
    expect((await fetch(await link('mq-tv:one'))).status).toBe(200);
    const refused = await fetch(await link('mq-tv:two'));
    expect(refused.status).toBe(503);
    expect(await refused.text()).toBe(
      "This channel cannot be relayed now: the relay's limit of 1 upstream connection (relay.maxUpstreams) is reached; in use by One.\n",
    );
    expect(host.connections.total).toBe(1);
  });

  it('relay.maxViewers: a viewer past it gets 503 naming it', async () => {
    const { link } = await setUp([{ name: 'One', path: '/1.ts' }], { limits: { maxViewers: 2 } });
    const index = await link('mq-tv:one');
    expect((await fetch(index)).status).toBe(200);
    expect((await fetch(index)).status).toBe(200);
    const third = await fetch(index);
    expect(third.status).toBe(503);
    expect(await third.text()).toContain("the relay's limit of 2 viewers (relay.maxViewers) is reached");
  });

  it('an idle channel gives its connection up to another at once', async () => {
    const { link, host } = await setUp(
      [
        { name: 'One', path: '/1.ts' },
        { name: 'Two', path: '/2.ts' },
      ],
      { limits: { maxUpstreams: 1, idleMs: 60_000 } },
    );
    // One is watched through its continuous stream, which then goes: One is idle (not yet closed).
    const response = await fetch((await link('mq-tv:one')).replace('index.m3u8', 'live.ts'));
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await fetch(await link('mq-tv:two'))).status).toBe(200);
    expect(host.connections.max).toBe(1);
  });
});

describe('an Xtream account', () => {
  it("is limited to its panel's max_connections, unless xtream[].maxConnections says otherwise", async () => {
    const panel = await startPanel();
    closers.push(() => panel.close());
    const account = parseXtreamAccount(panel.account);
    const pool = sourceKey('playlist', account.location);
    const asked = await sourceLimits({ xtream: [panel.account] })(pool);
    expect(asked).toEqual({
      max: 1,
      says: expect.stringMatching(
        /^the Xtream account al…@127\.0\.0\.1:\d+ allows 1 connection at a time \(its panel's max_connections; xtream\[0\]\.maxConnections sets another\)$/,
      ),
    });
    expect(asked?.says).not.toContain(panel.state.password);
    const before = panel.asked.length;
    const set = await sourceLimits({ xtream: [{ url: panel.account, maxConnections: 3 }] })(pool);
    expect(set?.max).toBe(3);
    expect(panel.asked.length).toBe(before);
  });
});

describe('edges', () => {
  it('refuses a stream it cannot cut, naming what it is, without marking it dead', async () => {
    const host = await startLiveHost();
    hosts.push(host);
    host.routes.set('/radio', (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.write(Buffer.alloc(8_192, 0xff));
    });
    const s = await startRelayServer({ playlist: `#EXTM3U\n#EXTINF:-1,Radio\n${host.url}/radio\n`, mode: 'always' });
    servers.push(s);
    const { streams } = (await (await fetch(`${s.url}/stream/tv/mq-tv%3Aradio.json`)).json()) as {
      streams: { url: string }[];
    };
    const answer = await fetch(streams[0]!.url);
    expect(answer.status).toBe(502);
    expect(await answer.text()).toContain('neither MPEG-TS nor HLS (audio/mpeg)');
    expect(s.failures).toEqual([]);
  });

  it('passes an MP4 file through, with its ranges', async () => {
    const host = await startLiveHost();
    hosts.push(host);
    const file = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i & 0xff));
    host.routes.set('/film.mp4', (req, res) => {
      const range = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
      if (!range) return res.writeHead(200, { 'content-type': 'video/mp4' }).end(file);
      const [from, to] = [Number(range[1]), Number(range[2])];
      res
        .writeHead(206, { 'content-type': 'video/mp4', 'content-range': `bytes ${from}-${to}/${file.length}` })
        .end(file.subarray(from, to + 1));
    });
    const s = await startRelayServer({ playlist: `#EXTM3U\n#EXTINF:-1,Film\n${host.url}/film.mp4\n`, mode: 'always' });
    servers.push(s);
    const { streams } = (await (await fetch(`${s.url}/stream/tv/mq-tv%3Afilm.json`)).json()) as {
      streams: { url: string }[];
    };
    expect(streams[0]!.url).toMatch(/\/relay\/[^/]+\/file\.mp4$/);
    const whole = await fetch(streams[0]!.url);
    expect(Buffer.from(await whole.arrayBuffer()).equals(file)).toBe(true);
    const part = await fetch(streams[0]!.url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/10000');
    expect(Buffer.from(await part.arrayBuffer()).equals(file.subarray(100, 200))).toBe(true);
  });
});

describe('request headers and the auto rules', () => {
  it('reads the headers from #EXTVLCOPT, #KODIPROP and the URL|Name=value suffix, refusing reserved and broken ones', () => {
    expect(
      upstreamRequest({
        url: 'http://x/1.m3u8|User-Agent=Kodi%2F20&Referer=https%3A%2F%2Fa.example%2F&Host=evil&X-Token=abc',
        kodiProps: { 'inputstream.adaptive.stream_headers': 'Origin=https://a.example&Range=bytes=0-&Bad=a%0d%0aX: y' },
      }),
    ).toEqual({
      url: 'http://x/1.m3u8',
      userAgent: 'Kodi/20',
      headers: { referer: 'https://a.example/', 'x-token': 'abc', origin: 'https://a.example' },
    });
    expect(upstreamRequest({ url: 'http://x/1.ts', userAgent: 'VLC', referrer: 'https://r.example/' })).toEqual({
      url: 'http://x/1.ts',
      userAgent: 'VLC',
      headers: { referer: 'https://r.example/' },
    });
  });

  it('auto relays http over https, streams with headers, and what is not HLS or MP4', () => {
    expect(needsRelay({ url: 'http://x/a.m3u8' }, 'https://tv.example')).toBe(true);
    expect(needsRelay({ url: 'http://x/a.m3u8' }, 'http://192.168.1.5:7000')).toBe(false);
    expect(needsRelay({ url: 'https://x/a.m3u8', referrer: 'https://r/' }, 'https://tv.example')).toBe(true);
    expect(needsRelay({ url: 'https://x/live/u/p/1.ts' }, 'https://tv.example')).toBe(true);
    expect(needsRelay({ url: 'https://x/live/u/p/1' }, 'https://tv.example')).toBe(true);
    expect(needsRelay({ url: 'https://x/film.mp4' }, 'https://tv.example')).toBe(false);
    expect(needsRelay({ url: 'https://x/a.m3u8' }, 'https://tv.example')).toBe(false);
  });
});
