/**
 * The live-TV add-on in the real Stremio client core: install, page the channel catalog to its
 * end, filter by a group, open a channel and list its streams, asserting what the client holds.
 * This client build has no guide model, so guide-day answers are checked against the spec's rules
 * directly, over the same server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlapsGuideDay } from '../src/addon/index.js';
import {
  BASE,
  FIXTURE_OPTIONS,
  fixture,
  importFixtures,
  type Served,
  serve,
  type TempStore,
  tempStore,
} from './fixtures/livetv/setup.js';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';

const EXTRA_CHANNELS = 230;
const CATALOG = { type: 'tv', id: 'mq-tv-channels' } as const;

let temp: TempStore;
let served: Served;
let client: StremioClient;
let transportUrl: string;
let expectedIds: string[];

beforeAll(async () => {
  temp = tempStore();
  // The fixture playlist plus generated channels, so the catalog spans three pages.
  const lines = [readFileSync(fixture('channels.m3u'), 'utf8').trimEnd()];
  for (let i = 0; i < EXTRA_CHANNELS; i++) {
    lines.push(`#EXTINF:-1 tvg-id="extra${i}.test" group-title="Extra",Extra ${String(i).padStart(3, '0')}`);
    lines.push(`https://streams.example/extra/${i}.m3u8`);
  }
  const playlist = join(temp.dir, 'channels.m3u');
  writeFileSync(playlist, `${lines.join('\n')}\n`);
  await importFixtures(temp.store, { ...FIXTURE_OPTIONS, playlists: [{ location: playlist }] });
  expectedIds = temp.store.listChannels({ limit: 1000 }).map((c) => c.id);
  served = await serve(temp.store);
  transportUrl = `${served.url}/manifest.json`;
  client = await createStremioClient();
});
afterAll(async () => {
  client.close();
  await served.close();
  temp.cleanup();
});

describe('the live-TV add-on in the real client', () => {
  it('installs with the channel catalog and its group choices', async () => {
    const descriptor = await client.installAddon(transportUrl);
    expect(descriptor.manifest.id).toBe(BASE.id);
    const catalog = descriptor.manifest.catalogs[0]!;
    expect(catalog.id).toBe(CATALOG.id);
    expect(catalog.extra.find((e) => e.name === 'genre')?.options).toEqual([
      'News & Talk',
      'Culture',
      'Local',
      'Shopping',
      'Extra',
    ]);
    expect(catalog.extra.find((e) => e.name === 'date')?.isRequired).toBe(false);
  });

  it('pages the channel catalog to its end with nothing dropped', async () => {
    const whole = await client.loadWholeCatalog({ transportUrl, ...CATALOG });
    expect(whole.error).toBeNull();
    expect(whole.items.map((i) => i.id)).toEqual(expectedIds);
    expect(expectedIds).toHaveLength(8 + EXTRA_CHANNELS);
    expect(client.requestPaths(transportUrl).filter((p) => p.startsWith('/catalog/'))).toEqual([
      '/catalog/tv/mq-tv-channels.json',
      '/catalog/tv/mq-tv-channels/skip=100.json',
      '/catalog/tv/mq-tv-channels/skip=200.json',
      '/catalog/tv/mq-tv-channels/skip=238.json',
    ]);
    const bbc = whole.items[0]!;
    expect(bbc).toMatchObject({ name: 'BBC One HD', posterShape: 'square', poster: 'https://logo.example/bbc1.png' });
  });

  it('filters by a group whose name has an &', async () => {
    client.clearRequests();
    const news = await client.loadWholeCatalog({ transportUrl, ...CATALOG, extra: [['genre', 'News & Talk']] });
    expect(news.items.map((i) => i.name)).toEqual(['BBC One HD']);
    expect(client.requestPaths(transportUrl)[0]).toBe('/catalog/tv/mq-tv-channels/genre=News%20%26%20Talk.json');
  });

  it('opens a channel with its programmes and lists its streams with proxy headers', async () => {
    const result = await client.loadMeta({ transportUrl, type: 'tv', id: 'mq-tv:bbcone.uk-hd' });
    expect(result.metaError).toBeNull();
    expect(result.meta?.name).toBe('BBC One HD');
    // The client keeps every programme of the 6 h back / 24 h ahead window, newest first.
    expect(result.meta?.videos.map((v) => v.id)).toEqual([
      'mq-tv:bbcone.uk-hd:epg:2026-03-02T00:00:00.000Z',
      'mq-tv:bbcone.uk-hd:epg:2026-03-01T23:00:00.000Z',
      'mq-tv:bbcone.uk-hd:epg:2026-03-01T12:00:00.000Z',
    ]);
    expect(result.streams.map((s) => s.url)).toEqual([
      'https://streams.example/bbc1-hd.m3u8',
      'http://backup.example/bbc1.ts',
    ]);
    expect(result.streams[1]!.behaviorHints).toMatchObject({
      notWebReady: true,
      proxyHeaders: { request: { 'User-Agent': 'Mozilla/5.0 (Marquee test)', Referer: 'https://portal.example/' } },
    });
  });
});

describe('guide days, checked against the spec rules', () => {
  it('pages every channel once per day, each programme overlapping that UTC day', async () => {
    for (const day of ['2026-02-28', '2026-03-01', '2026-03-02']) {
      const ids: string[] = [];
      for (;;) {
        const extra = ids.length === 0 ? `date=${day}` : `date=${day}&skip=${ids.length}`;
        const response = await served.get(`/catalog/tv/mq-tv-channels/${extra}.json`);
        expect(response.status).toBe(200);
        const { metasDetailed } = response.json();
        if (metasDetailed.length === 0) break;
        for (const row of metasDetailed) {
          ids.push(row.id);
          expect(row.behaviorHints.hasScheduledVideos).toBe(true);
          for (const video of row.videos) {
            expect(video.id).toBe(`${row.id}:epg:${video.startTime}`);
            expect(overlapsGuideDay(Date.parse(video.startTime), Date.parse(video.endTime), day)).toBe(true);
          }
        }
      }
      expect(ids).toEqual(expectedIds);
    }
  });
});
