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
import { createRequestHandler, toFetchHandler } from '../src/server/index.js';
import { openStore, type Store } from '../src/store/index.js';
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
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
    },
    run(extra) {
      settings = { ...settings, sources: { timeoutSeconds: 5 }, ...extra };
      return importAll(store, settings);
    },
  };
}

const enc = encodeURIComponent;

function ok<T>(part: T | { error: Error } | undefined): T {
  if (part === undefined) throw new Error('part not imported');
  if (typeof part === 'object' && part !== null && 'error' in part) throw (part as { error: Error }).error;
  return part as T;
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

    // Catch-up is recorded for the catch-up reader: tv_archive channels only.
    const five = s.store.getChannel(tv.find((m: { name: string }) => m.name === 'Channel 5').id)!;
    expect(five.catchup).toEqual({ type: 'xc', days: '3', streamId: '1005', base: p.url, timezone: 'Europe/Berlin' });
    expect(s.store.getChannel(one.id)!.catchup).toBeUndefined();

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
