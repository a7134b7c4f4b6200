/**
 * Xtream Codes accounts end to end against the fake panel (test/helpers/xtream-panel.ts): the
 * import through `importAll` (as `marquee import` and `serve` run it), the add-on built from the
 * store, and HTTP answers: live channels with the guide from xmltv.php, movies and series with
 * genres, search, metas and streams, catch-up on channels, and each way a panel answers badly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Addon } from '../src/addon/index.js';
import { buildAddon, type ImportOutcome, importAll } from '../src/cli/app.js';
import type { Settings } from '../src/cli/settings.js';
import { createCatchupStreams } from '../src/livetv/catchup-streams.js';
import { createRequestHandler, toFetchHandler } from '../src/server/index.js';
import { openStore, type Store } from '../src/store/index.js';
import { awayFromHourTurn } from './helpers/clock.js';
import { type Panel, startPanel } from './helpers/xtream-panel.js';

interface Site {
  readonly dir: string;
  readonly store: Store;
  addon(): Addon;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  get(path: string): Promise<{ status: number; body: any }>;
  run(settings: Partial<Settings>): Promise<ImportOutcome>;
}

const panels: Panel[] = [];
const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) s.close();
  for (const p of panels.splice(0)) await p.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function panel(options: Parameters<typeof startPanel>[0] = {}): Promise<Panel> {
  const p = await startPanel(options);
  panels.push(p);
  return p;
}

function site(): Site {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-xtream-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'marquee.db'));
  stores.push(store);
  let settings: Settings = { db: join(dir, 'marquee.db') };
  const addon = () => buildAddon(store, settings, join(dir, 'keys.json'));
  return {
    dir,
    store,
    addon,
    async get(path) {
      const handler = toFetchHandler(createRequestHandler(addon(), { responseCache: false }));
      const response = await handler(new Request(`http://127.0.0.1${path}`));
      const text = await response.text();
      const json = response.headers.get('content-type')?.includes('json');
      return { status: response.status, body: json ? JSON.parse(text) : text };
    },
    run(extra) {
      settings = { ...settings, sources: { timeoutSeconds: 5 }, ...extra };
      return importAll(store, settings);
    },
  };
}

const enc = encodeURIComponent;

function ok<T>(part: T | undefined): Exclude<T, { readonly error: Error }> {
  if (part === undefined) throw new Error('part not imported');
  if (typeof part === 'object' && part !== null && 'error' in part) throw (part as { error: Error }).error;
  return part as Exclude<T, { readonly error: Error }>;
}

describe('an Xtream account imported and served', () => {
  it('serves its live channels with the xmltv.php guide, and its movies and series', async () => {
    const p = await panel({ live: 30, movies: 12, series: 4 });
    const s = site();
    const outcome = await s.run({ xtream: [p.account] });
    const live = ok(outcome.livetv);
    expect(live.counts.channels).toBe(30);
    // m3u8 and ts are both allowed: each channel offers both.
    expect(live.counts.streams).toBe(60);
    expect(live.counts.matchedChannels).toBe(27);
    const library = ok(outcome.library);
    expect(library.report.counts.items).toBe(16);
    expect(library.sources.map((x) => x.outcome)).toEqual(['imported']);

    const manifest = (await s.get('/manifest.json')).body;
    expect(manifest.catalogs.map((c: { type: string }) => c.type).sort()).toEqual(['movie', 'series', 'tv']);

    const tv = (await s.get('/catalog/tv/mq-tv-channels.json')).body.metas;
    expect(tv).toHaveLength(30);
    const one = tv.find((m: { name: string }) => m.name === 'Channel 1');
    expect(one.genres).toEqual(['Sports']);
    expect(one.poster).toBe(`${p.url}/logo/1.png`);

    const streams = (await s.get(`/stream/tv/${enc(one.id)}.json`)).body.streams;
    expect(streams.map((x: { url: string }) => x.url)).toEqual([
      `${p.url}/live/alice/s3cret-pw/1001.m3u8`,
      `${p.url}/live/alice/s3cret-pw/1001.ts`,
    ]);
    const meta = (await s.get(`/meta/tv/${enc(one.id)}.json`)).body.meta;
    expect(meta.videos.length).toBeGreaterThan(10);
    expect(meta.videos[0].title).toMatch(/^Show \d+ on 1$/);

    // Catch-up in playlist terms: tv_archive channels only, one timeshift URL for both formats.
    const five = s.store.getChannel(tv.find((m: { name: string }) => m.name === 'Channel 5').id)!;
    expect(five.catchup).toEqual({
      catchup: 'default',
      'catchup-days': '3',
      'catchup-source': `${p.url}/timeshift/alice/s3cret-pw/{duration:60}/{Y}-{m}-{d}:{H}-{M}/1005.ts`,
      'catchup-timezone': 'Europe/Berlin',
    });
    expect(five.catchupStreams?.map((c) => c.archiveMs)).toEqual([3 * 86_400_000]);
    expect(s.store.getChannel(one.id)!.catchup).toBeUndefined();
    expect(s.store.getChannel(one.id)!.catchupStreams).toBeUndefined();

    const movies = (await s.get('/catalog/movie/movies.json')).body.metas;
    expect(movies).toHaveLength(12);
    const film = movies.find((m: { name: string }) => m.name === 'Film 3');
    expect(film.id).toMatch(/^mq:xc-[0-9a-f]{8}-m5003$/);
    const filmMeta = (await s.get(`/meta/movie/${enc(film.id)}.json`)).body.meta;
    expect(filmMeta).toMatchObject({
      description: 'The plot of film 3.',
      genres: ['Science Fiction', 'Drama', 'Comedy'],
      cast: ['Ada Actor', 'Bo Actor'],
      director: ['Cy Director'],
      runtime: '90 min',
      background: `${p.url}/backdrop/m3.jpg`,
    });
    const filmStreams = (await s.get(`/stream/movie/${enc(film.id)}.json`)).body.streams;
    expect(filmStreams).toEqual([
      {
        url: `${p.url}/movie/alice/s3cret-pw/5003.mkv`,
        name: '127.0.0.1:' + new URL(p.url).port,
        description: 'MKV',
        behaviorHints: { notWebReady: true },
      },
    ]);
    const comedy = (await s.get(`/catalog/movie/movies/genre=Comedy.json`)).body.metas;
    expect(comedy.length).toBeGreaterThan(0);
    const search = (await s.get(`/catalog/movie/movies/search=${enc('Film 7')}.json`)).body.metas;
    expect(search[0].name).toBe('Film 7');

    const shows = (await s.get('/catalog/series/series.json')).body.metas;
    expect(shows).toHaveLength(4);
    const show = (await s.get(`/meta/series/${enc(shows.find((x: { name: string }) => x.name === 'Show 2').id)}.json`))
      .body.meta;
    expect(show.videos).toHaveLength(6);
    const episode = show.videos.find((v: { season: number; episode: number }) => v.season === 2 && v.episode === 3);
    expect(episode.title).toBe('Show 2 S2E3');
    const episodeStreams = (await s.get(`/stream/series/${enc(episode.id)}.json`)).body.streams;
    expect(episodeStreams[0].url).toBe(`${p.url}/series/alice/s3cret-pw/2203.mp4`);
  });
});

/** Every answer a client reads of the site, to compare before and after a bad refresh. */
async function answers(s: Site): Promise<string> {
  const paths = [
    '/manifest.json',
    '/catalog/tv/mq-tv-channels.json',
    '/catalog/movie/movies.json',
    '/catalog/series/series.json',
  ];
  const out: unknown[] = [];
  for (const path of paths) {
    const body = (await s.get(path)).body;
    out.push(body);
    for (const m of body?.metas ?? []) {
      out.push((await s.get(`/meta/${m.type}/${enc(m.id)}.json`)).body);
      out.push((await s.get(`/stream/${m.type}/${enc(m.id)}.json`)).body);
    }
  }
  return JSON.stringify(out);
}

function sourceOf(outcome: ImportOutcome, part: 'livetv' | 'library') {
  const result = ok(outcome[part]);
  const sources = result.sources as readonly { outcome: string; reason?: string; message?: string; location: string }[];
  return sources.find((x) => /^[^/]*@127\.0\.0\.1:\d+$/.test(x.location))!;
}

describe('a panel answering sloppily', () => {
  it('imports what it can with a warning per kind of problem, never a crash', async () => {
    const p = await panel({ sloppy: true, live: 12, movies: 6, series: 3 });
    const s = site();
    const outcome = await s.run({ xtream: [p.account] });
    const live = ok(outcome.livetv);
    const messages = live.warnings.map((w) => w.message);
    expect(messages).toContain('get_live_streams[12]: stream_id 1001 is listed twice; the second is skipped');
    expect(messages).toContain('get_live_streams[13] has no stream_id; skipped');
    expect(messages).toContain('get_live_streams[14] has no object; skipped');
    expect(live.counts.channels).toBe(12);
    // The category a stream named before the panel listed it: asked again, found.
    const three = s.store.listChannels({ limit: 100 }).find((c) => c.name === 'Channel 3')!;
    expect(three.group).toBe('Added Later');
    // "" and null icons are no logo; "" epg_channel_id is no tvg-id (matched by name instead).
    expect(s.store.listChannels({ limit: 100 }).find((c) => c.name === 'Channel 4')!.logo).toBeUndefined();
    expect(live.counts.matchedChannels).toBe(11);
    // Numbers as strings are numbers.
    expect(s.store.listChannels({ limit: 100 }).find((c) => c.name === 'Channel 7')!.number).toBe(7);

    const library = ok(outcome.library);
    expect(library.report.counts.items).toBe(9);
    expect(library.warnings.map((w) => w.message)).toContain(
      'get_vod_streams[6]: stream_id 5001 is listed twice; the second is skipped',
    );
    // Episodes given as an array of seasons (not keyed by season) still make seasons.
    const show = (await s.get('/catalog/series/series.json')).body.metas[0];
    const meta = (await s.get(`/meta/series/${enc(show.id)}.json`)).body.meta;
    expect(meta.videos.map((v: { season: number }) => v.season).sort()).toEqual([1, 1, 1, 2, 2, 2]);
  });

  it('takes null for a list as an empty list, with a warning', async () => {
    const p = await panel({ nulls: new Set(['get_vod_streams', 'get_series_categories']), movies: 5, series: 2 });
    const s = site();
    const library = ok((await s.run({ xtream: [p.account] })).library);
    expect(library.report.counts.items).toBe(2);
    expect(library.warnings.map((w) => w.message)).toEqual(
      expect.arrayContaining([
        'get_vod_streams answered null instead of a list',
        'get_series_categories answered null instead of a list',
      ]),
    );
  });
});

describe('a panel going bad keeps what it served', () => {
  // The library part reads no live stream list: it stays good when only that list breaks.
  const cases: [string, (p: Panel) => void, RegExp, string][] = [
    [
      'a wrong password',
      (p) => {
        p.state.password = 'changed';
      },
      /refused the username or password/,
      'kept',
    ],
    [
      'an expired account',
      (p) => {
        p.state.expDate = 1_600_000_000;
      },
      /the account expired on 2020-09-13/,
      'kept',
    ],
    [
      'a disabled account',
      (p) => {
        p.state.status = 'Disabled';
      },
      /the account is disabled, not active/,
      'kept',
    ],
    ['an HTML page with status 200', (p) => p.state.html.add('account'), /answered an HTML page, not JSON/, 'kept'],
    [
      'an HTML page for the stream list',
      (p) => p.state.html.add('get_live_streams'),
      /get_live_streams: answered an HTML page, not JSON/,
      'imported',
    ],
    [
      'a dying server',
      (p) => {
        p.state.dieAfter = 0;
      },
      /socket hang up|ECONNRESET|closed/i,
      'kept',
    ],
  ];
  for (const [name, breakIt, reason, library] of cases) {
    it(`${name}: the live channels kept from their last good import, said naming the host, without the secrets`, async () => {
      // Its answers are compared over some seconds: all within one hour's programme window.
      await awayFromHourTurn(20_000);
      const p = await panel({ live: 6, movies: 4, series: 2 });
      const account = p.account;
      const s = site();
      await s.run({ xtream: [account] });
      const before = await answers(s);
      breakIt(p);
      const outcome = await s.run({ xtream: [account] });
      const live = sourceOf(outcome, 'livetv');
      expect(live.outcome).toBe('kept');
      expect(live.reason).toMatch(reason);
      expect(live.message).toContain(`xtream al…@127.0.0.1:${new URL(p.url).port} failed: `);
      expect(sourceOf(outcome, 'library').outcome).toBe(library);
      expect(await answers(s)).toBe(before);
      const said = JSON.stringify(outcome);
      expect(said).not.toContain('s3cret-pw');
      expect(said).not.toContain('alice');
      expect(said).not.toContain('changed');
    }, 45_000);
  }

  it('a first import from a refusing panel fails, saying why, naming the host only', async () => {
    const p = await panel();
    const outcome = await site().run({ xtream: [p.account.replace('s3cret-pw', 'wrong-pw')] });
    const error = (outcome.livetv as { error: Error }).error;
    expect(error.message).toMatch(
      /no playlist could be used: xtream al…@127\.0\.0\.1:\d+ failed: .*refused the username or password/,
    );
    expect((outcome.library as { error: Error }).error.message).toMatch(/refused the username or password/);
    expect(JSON.stringify([error.message, (outcome.library as { error: Error }).error.message])).not.toMatch(
      /alice|s3cret|wrong-pw/,
    );
  });

  it('a slow panel: the reads end at the source timeout and the last good data stays', async () => {
    await awayFromHourTurn(20_000);
    const p = await panel({ live: 4, movies: 2, series: 1 });
    const s = site();
    await s.run({ xtream: [p.account] });
    const before = await answers(s);
    p.state.delayMs = 2_500;
    const started = Date.now();
    const outcome = await s.run({ xtream: [p.account], sources: { timeoutSeconds: 1 } });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(sourceOf(outcome, 'livetv').outcome).toBe('kept');
    expect(sourceOf(outcome, 'livetv').reason).toMatch(/not read completely within 1000 ms/);
    expect(await answers(s)).toBe(before);
  }, 60_000);
});

describe('the guide', () => {
  it('comes from get_short_epg when xmltv.php fails: base64 titles, panel-zone times', async () => {
    const now = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_800_000;
    const hour = (n: number) => new Date(now - 1_800_000 + n * 3_600_000).toISOString().slice(11, 16);
    const p = await panel({
      live: 3,
      movies: 0,
      series: 0,
      fail: new Set(['xmltv']),
      now,
      timezone: 'America/New_York',
    });
    const s = site();
    const outcome = await s.run({ xtream: [{ url: p.account, movies: false, series: false }] });
    const live = ok(outcome.livetv);
    expect(live.warnings.map((w) => w.message).join('\n')).toMatch(
      /xmltv\.php failed \(SOURCE_UNREADABLE: HTTP 500 Internal Server Error.*\); the guide comes from get_short_epg per channel instead/,
    );
    expect(live.counts.matchedChannels).toBe(3);
    const channel = s.store.listChannels({ limit: 10 }).find((c) => c.name === 'Channel 2')!;
    const programmes = s.store.programmesAround(channel.id, now - 3 * 3_600_000, now + 5 * 3_600_000);
    // Hour blocks from 10:00 UTC: those with timestamps and those written on New York's clock agree.
    expect(programmes.map((x) => [new Date(x.start).toISOString().slice(11, 16), x.video.title])).toEqual([
      [hour(-2), 'Short 2 #0'],
      [hour(-1), 'Short 2 #1'],
      [hour(0), 'Short 2 #2'],
      [hour(1), 'Short 2 #3'],
      [hour(2), 'Short 2 #4'],
      [hour(3), 'Short 2 #5'],
    ]);
  });

  it('answering an HTML page falls back too; get_short_epg failing as well keeps the last good guide', async () => {
    await awayFromHourTurn(20_000);
    const p = await panel({ live: 3, movies: 0, series: 0 });
    const s = site();
    const settings = { xtream: [{ url: p.account, movies: false, series: false }] };
    ok((await s.run(settings)).livetv);
    const before = await answers(s);
    p.state.html.add('xmltv');
    p.state.fail.add('get_short_epg');
    const live = ok((await s.run(settings)).livetv);
    const guide = live.sources.find((x) => x.kind === 'guide')!;
    expect(guide.outcome).toBe('kept');
    expect(guide.reason).toMatch(/get_short_epg failed/);
    expect(guide.location).not.toMatch(/alice|s3cret|wrong-pw/);
    expect(await answers(s)).toBe(before);
  }, 45_000);
});

describe('several sources', () => {
  it('two accounts: a channel both carry lists both streams, named after each, best first; their films never share an id', async () => {
    const a = await panel({ live: 4, movies: 2, series: 1, channelPrefix: 'Alpha' });
    const b = await panel({
      live: 4,
      movies: 2,
      series: 1,
      channelPrefix: 'Beta',
      username: 'bob',
      password: 'pw-bob',
    });
    const s = site();
    const outcome = await s.run({ xtream: [{ url: a.account }, { url: b.account, priority: 5 }] });
    const live = ok(outcome.livetv);
    // Matched on epg_channel_id: 4 channels, each with 2 formats × 2 accounts.
    expect(live.counts.channels).toBe(4);
    const channel = s.store.listChannels({ limit: 10 }).find((c) => c.name === 'Beta 1')!;
    const streams = (await s.get(`/stream/tv/${enc(channel.id)}.json`)).body.streams;
    const hostB = `127.0.0.1:${new URL(b.url).port}`;
    const hostA = `127.0.0.1:${new URL(a.url).port}`;
    expect(streams.map((x: { name: string; url: string }) => [x.name, new URL(x.url).pathname])).toEqual([
      [hostB, '/live/bob/pw-bob/1001.m3u8'],
      [hostB, '/live/bob/pw-bob/1001.ts'],
      [hostA, '/live/alice/s3cret-pw/1001.m3u8'],
      [hostA, '/live/alice/s3cret-pw/1001.ts'],
    ]);
    const films = (await s.get('/catalog/movie/movies.json')).body.metas.map((m: { id: string }) => m.id);
    expect(films).toHaveLength(4);
    expect(new Set(films).size).toBe(4);
  });

  it('two accounts with an archive: a programme that aired lists both catch-up streams, named after each, best first', async () => {
    const a = await panel({ live: 5, movies: 1, series: 1, channelPrefix: 'Alpha' });
    const b = await panel({
      live: 5,
      movies: 1,
      series: 1,
      channelPrefix: 'Beta',
      username: 'bob',
      password: 'pw-bob',
    });
    const s = site();
    await s.run({ xtream: [{ url: a.account }, { url: b.account, priority: 5 }] });
    const channel = s.store.listChannels({ limit: 10 }).find((c) => c.name === 'Beta 5')!;
    const meta = (await s.get(`/meta/tv/${enc(channel.id)}.json`)).body.meta;
    const hour = 3_600_000;
    const aired = meta.videos.find(
      (v: { startTime: string }) => Date.parse(v.startTime) === Math.floor(Date.now() / hour) * hour - 2 * hour,
    );
    const hostA = `127.0.0.1:${new URL(a.url).port}`;
    const hostB = `127.0.0.1:${new URL(b.url).port}`;
    expect(
      aired.streams.map((x: { name: string; url: string }) => [
        x.name,
        new URL(x.url).pathname.split('/').slice(0, 5).join('/'),
      ]),
    ).toEqual([
      [hostB, '/timeshift/bob/pw-bob/60'],
      [hostA, '/timeshift/alice/s3cret-pw/60'],
    ]);
  });

  it('ids stay the same across refreshes', async () => {
    const p = await panel({ live: 5, movies: 3, series: 2 });
    const s = site();
    await s.run({ xtream: [p.account] });
    const ids = async () =>
      JSON.stringify(
        await Promise.all(
          ['/catalog/tv/mq-tv-channels.json', '/catalog/movie/movies.json', '/catalog/series/series.json'].map(
            async (path) => (await s.get(path)).body.metas.map((m: { id: string }) => m.id).sort(),
          ),
        ),
      );
    const first = await ids();
    await s.run({ xtream: [`${p.url}/get.php?username=alice&password=s3cret-pw&type=m3u_plus`] });
    expect(await ids()).toBe(first);
  });
});

describe('catch-up on the panel clock', () => {
  it('a panel in Europe/London: the start written as its wall clock, across the October change', async () => {
    const p = await panel({ live: 5, movies: 1, series: 1, timezone: 'Europe/London', archiveDays: 7 });
    const s = site();
    await s.run({ xtream: [p.account] });
    const channel = s.store.listChannels({ limit: 10 }).find((c) => c.name === 'Channel 5')!;
    expect(channel.catchupStreams?.[0]?.attributes['catchup-timezone']).toBe('Europe/London');
    const catchup = createCatchupStreams('Marquee');
    const url = (start: string, stop: string) =>
      catchup.of(channel, Date.parse(start), Date.parse(stop), Date.parse('2026-10-26T12:00:00Z'))[0]?.url;
    const base = `${p.url}/timeshift/alice/s3cret-pw`;
    // 25 October 2026: 01:00 BST → 01:00 GMT; 00:30Z and 01:30Z are both 01:30 on the panel's clock.
    expect(url('2026-10-24T22:00:00Z', '2026-10-24T23:30:00Z')).toBe(`${base}/90/2026-10-24:23-00/1005.ts`);
    expect(url('2026-10-25T00:30:00Z', '2026-10-25T01:00:00Z')).toBe(`${base}/30/2026-10-25:01-30/1005.ts`);
    expect(url('2026-10-25T01:30:00Z', '2026-10-25T03:00:00Z')).toBe(`${base}/90/2026-10-25:01-30/1005.ts`);
    expect(url('2026-10-25T20:00:00Z', '2026-10-25T21:00:00Z')).toBe(`${base}/60/2026-10-25:20-00/1005.ts`);
    // Older than its 7 days, or not started: none.
    expect(url('2026-10-18T20:00:00Z', '2026-10-18T21:00:00Z')).toBeUndefined();
    expect(url('2026-10-26T13:00:00Z', '2026-10-26T14:00:00Z')).toBeUndefined();
  });
});

describe('counts and lengths (issue 48)', () => {
  it('cuts stream names past sources.maxNameLength, with a warning, before they are matched or stored', async () => {
    const p = await panel({ live: 3, movies: 0, series: 0, channelPrefix: 'N'.repeat(500) });
    const s = site();
    const live = ok((await s.run({ xtream: [p.account] })).livetv);
    expect(live.counts.channels).toBe(3);
    expect(live.warnings.map((w) => w.message)).toContain(
      'get_live_streams[0]: name is 502 characters long; cut to 300 (sources.maxNameLength)',
    );
    const names = (await s.get('/catalog/tv/mq-tv-channels.json')).body.metas.map((m: { name: string }) => m.name);
    expect(names).toEqual(['N'.repeat(300), 'N'.repeat(300), 'N'.repeat(300)]);
    const tighter = ok(
      (await s.run({ xtream: [p.account], sources: { timeoutSeconds: 5, maxNameLength: 40 } })).livetv,
    );
    expect(tighter.warnings.map((w) => w.message)).toContain(
      'get_live_streams[0]: name is 502 characters long; cut to 40 (sources.maxNameLength)',
    );
  });

  it('counts live streams once per output format against sources.maxEntries, and titles against library.maxItems', async () => {
    const p = await panel({ live: 30, movies: 12, series: 0, formats: ['m3u8', 'ts'] });
    const s = site();
    const limits = (maxEntries: number, maxItems: number) => ({
      xtream: [p.account],
      sources: { timeoutSeconds: 5, maxEntries },
      library: { maxItems },
    });
    const fits = await s.run(limits(60, 12));
    expect(ok(fits.livetv).counts).toMatchObject({ channels: 30, streams: 60 });
    expect(ok(fits.library).report.counts.movies).toBe(12);
    // 30 streams in two formats are 60 entries: past 59 the account's live channels fail, as they arrive.
    const over = await s.run(limits(59, 11));
    const live = ok(over.livetv);
    expect(live.sources[0]).toMatchObject({ kind: 'xtream', outcome: 'kept' });
    expect(live.sources[0]!.reason).toMatch(
      /get_live_streams: more than 59 entries \(sources\.maxEntries; 30 live streams read, each an entry per output format \(2\)\)/,
    );
    // What it served stays served.
    expect(live.counts.channels).toBe(30);
    // The library's limit bounds its items in all (its last good copy included): past it the
    // library part fails, naming the setting, and the library served before stays served.
    expect((over.library as { error: Error }).error.message).toMatch(/more than the limit of 11 \(library\.maxItems\)/);
    expect(s.store.libraryCounts().movies).toBe(12);
    const fresh = site();
    const first = await fresh.run(limits(600, 11));
    expect((first.library as { error: Error }).error.message).toMatch(
      /get_vod_streams: more than 11 titles \(library\.maxItems\)/,
    );
  });
});
