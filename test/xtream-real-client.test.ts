/**
 * An Xtream account served to the real Stremio client core (@stremio/stremio-core-web): catalog →
 * meta → streams for a live channel, a movie and a series episode, as a user would browse them,
 * over the add-on `marquee serve` builds from the store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAddon, importAll } from '../src/cli/app.js';
import type { Settings } from '../src/cli/settings.js';
import { createRequestHandler, listen, type RunningServer } from '../src/server/index.js';
import { openStore, type Store } from '../src/store/index.js';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';
import { type Panel, startPanel } from './helpers/xtream-panel.js';

let dir: string;
let panel: Panel;
let store: Store;
let server: RunningServer;
let client: StremioClient;
let transportUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-xtream-client-'));
  panel = await startPanel({ live: 130, movies: 120, series: 3 });
  store = openStore(join(dir, 'marquee.db'));
  const settings: Settings = { db: join(dir, 'marquee.db'), xtream: [panel.account] };
  await importAll(store, settings);
  const addon = buildAddon(store, settings, join(dir, 'keys.json'));
  server = await listen(createRequestHandler(addon), { port: 0, host: '127.0.0.1' });
  transportUrl = `http://127.0.0.1:${server.port}/manifest.json`;
  client = await createStremioClient();
  await client.installAddon(transportUrl);
});
afterAll(async () => {
  client?.close();
  await server?.close();
  store?.close();
  await panel?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an Xtream account in the real client', () => {
  it('live: the channel catalog to its end, a channel with its programmes, its HLS and TS streams', async () => {
    const whole = await client.loadWholeCatalog({ transportUrl, type: 'tv', id: 'mq-tv-channels' });
    expect(whole.error).toBeNull();
    expect(whole.items).toHaveLength(130);
    const channel = whole.items.find((i) => i.name === 'Channel 7')!;
    const result = await client.loadMeta({ transportUrl, type: 'tv', id: channel.id });
    expect(result.metaError).toBeNull();
    expect(result.meta?.videos.length).toBeGreaterThan(10);
    expect(result.streams.map((s) => s.url)).toEqual([
      `${panel.url}/live/alice/s3cret-pw/1007.m3u8`,
      `${panel.url}/live/alice/s3cret-pw/1007.ts`,
    ]);
  });

  it('catch-up: a programme that aired plays from its start on the panel clock; one to come has no stream of its own', async () => {
    const whole = await client.loadWholeCatalog({ transportUrl, type: 'tv', id: 'mq-tv-channels' });
    const channel = whole.items.find((i) => i.name === 'Channel 5')!; // tv_archive, 3 days
    const { meta } = await client.loadMeta({ transportUrl, type: 'tv', id: channel.id });
    const now = Date.now();
    const hour = 3_600_000;
    const start = Math.floor(now / hour) * hour - 2 * hour;
    const past = meta!.videos.find((v) => Date.parse(String(v.released)) === start)!;
    const berlin = new Date(start).toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' });
    const url = `${panel.url}/timeshift/alice/s3cret-pw/60/${berlin.slice(0, 10)}:${berlin.slice(11, 13)}-${berlin.slice(14, 16)}/1005.ts`;
    // The client keeps the programme's streams and plays them, not the channel's.
    expect((past.streams as { url: string }[]).map((s) => s.url)).toEqual([url]);
    const played = await client.loadMeta({ transportUrl, type: 'tv', id: channel.id, videoId: past.id });
    expect(played.streams.map((s) => s.url)).toEqual([url]);
    const upcoming = meta!.videos.find((v) => Date.parse(String(v.released)) > now)!;
    expect(upcoming.streams).toEqual([]);
  });

  it('movies: the catalog to its end, a genre, a movie with its details and stream', async () => {
    const whole = await client.loadWholeCatalog({ transportUrl, type: 'movie', id: 'movies' });
    expect(whole.error).toBeNull();
    expect(whole.items).toHaveLength(120);
    const drama = await client.loadWholeCatalog({
      transportUrl,
      type: 'movie',
      id: 'movies',
      extra: [['genre', 'Drama']],
    });
    expect(drama.items.length).toBeGreaterThan(20);
    const film = whole.items.find((i) => i.name === 'Film 42')!;
    const result = await client.loadMeta({ transportUrl, type: 'movie', id: film.id });
    expect(result.metaError).toBeNull();
    expect(result.meta?.description).toBe('The plot of film 42.');
    expect(result.streams.map((s) => s.url)).toEqual([`${panel.url}/movie/alice/s3cret-pw/5042.mp4`]);
  });

  it('series: the catalog, a show with its seasons, an episode and its stream', async () => {
    const whole = await client.loadWholeCatalog({ transportUrl, type: 'series', id: 'series' });
    expect(whole.items.map((i) => i.name).sort()).toEqual(['Show 1', 'Show 2', 'Show 3']);
    const show = whole.items.find((i) => i.name === 'Show 3')!;
    const opened = await client.loadMeta({ transportUrl, type: 'series', id: show.id, videoId: null });
    expect(opened.metaError).toBeNull();
    const episode = opened.meta!.videos.find((v) => v.season === 2 && v.episode === 1)!;
    expect(episode.title).toBe('Show 3 S2E1');
    const played = await client.loadMeta({ transportUrl, type: 'series', id: show.id, videoId: episode.id });
    expect(played.streams.map((s) => s.url)).toEqual([`${panel.url}/series/alice/s3cret-pw/3201.mp4`]);
  });
});
