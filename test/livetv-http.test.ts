/**
 * Every live-TV path over real HTTP: the fixture sources imported into a real store, the part
 * composed into an add-on (answers validated against the protocol) and served on 127.0.0.1.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLiveTvPart } from '../src/livetv/index.js';
import { importFixtures, type Served, serve, type TempStore, tempStore } from './fixtures/livetv/setup.js';

const CATALOG = '/catalog/tv/mq-tv-channels';
const enc = encodeURIComponent;

let temp: TempStore;
let served: Served;

beforeAll(async () => {
  temp = tempStore();
  await importFixtures(temp.store);
  served = await serve(temp.store);
});
afterAll(async () => {
  await served.close();
  temp.cleanup();
});

async function json(path: string) {
  const response = await served.get(path);
  expect(response.status, `${path}: ${response.text()}`).toBe(200);
  return response.json();
}

const titles = (row: { videos: { title: string }[] }) => row.videos.map((v) => v.title);

describe('manifest', () => {
  it('declares the tv catalog with the groups, search, skip and date, and the guide', async () => {
    const manifest = await json('/manifest.json');
    expect(manifest.types).toEqual(['tv']);
    expect(manifest.behaviorHints).toEqual({ epgProvider: true });
    expect(manifest.catalogs).toEqual([
      {
        type: 'tv',
        id: 'mq-tv-channels',
        name: 'Live TV',
        genres: ['News & Talk', 'Culture', 'Local', 'Shopping'],
        extra: [
          { name: 'genre', options: ['News & Talk', 'Culture', 'Local', 'Shopping'] },
          { name: 'search' },
          { name: 'skip' },
          { name: 'date' },
        ],
      },
    ]);
    expect(manifest.resources).toContainEqual({ name: 'stream', types: ['tv'], idPrefixes: ['mq-tv:'] });
  });
});

describe('channel catalog without a date', () => {
  it('lists channel previews in catalog order with a long cache', async () => {
    const response = await served.get(`${CATALOG}.json`);
    expect(response.headers['cache-control']).toContain('max-age=3600');
    const { metas } = response.json();
    expect(metas).toHaveLength(8);
    expect(metas[0]).toEqual({
      id: 'mq-tv:bbcone.uk-hd',
      type: 'tv',
      name: 'BBC One HD',
      poster: 'https://logo.example/bbc1.png',
      logo: 'https://logo.example/bbc1.png',
      posterShape: 'square',
      genres: ['News & Talk'],
      behaviorHints: { isLive: true },
    });
    expect(metas[1]).not.toHaveProperty('poster');
  });

  it('filters by a genre containing &', async () => {
    const { metas } = await json(`${CATALOG}/genre=${enc('News & Talk')}.json`);
    expect(metas.map((m: { name: string }) => m.name)).toEqual(['BBC One HD']);
  });

  it('searches names ignoring case and accents', async () => {
    const { metas } = await json(`${CATALOG}/search=${enc('ETOILE')}.json`);
    expect(metas.map((m: { name: string }) => m.name)).toEqual(['Télé Étoile FHD']);
  });

  it('pages with any skip and answers empty past the end', async () => {
    const { metas } = await json(`${CATALOG}/skip=3.json`);
    expect(metas.map((m: { name: string }) => m.name)).toEqual([
      'Das Erste',
      'Télé Étoile FHD',
      'My Local',
      'No Guide Channel',
      'Shop TV',
    ]);
    expect((await json(`${CATALOG}/genre=Culture&skip=2.json`)).metas).toHaveLength(2);
    expect((await json(`${CATALOG}/skip=8.json`)).metas).toEqual([]);
  });
});

describe('guide days', () => {
  it('answers full channel metas with the UTC day of programmes and guide cache hints', async () => {
    const response = await served.get(`${CATALOG}/date=2026-03-01.json`);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe(
      'max-age=300, stale-while-revalidate=1800, stale-if-error=604800, public',
    );
    const { metasDetailed } = response.json();
    expect(metasDetailed).toHaveLength(8);
    for (const row of metasDetailed) {
      expect(row.behaviorHints).toEqual({ isLive: true, hasScheduledVideos: true });
      expect(row).not.toHaveProperty('behaviorHints.defaultVideoId');
      for (const video of row.videos) expect(video).not.toHaveProperty('streams');
    }
    // Channels without programmes that day stay in the page, with no videos: paging counts channels.
    expect(metasDetailed.map((r: { name: string; videos: unknown[] }) => [r.name, r.videos.length])).toEqual([
      ['BBC One HD', 4],
      ['Arte', 2],
      ['Arte +1', 2],
      ['Das Erste', 1],
      ['Télé Étoile FHD', 1],
      ['My Local', 1],
      ['No Guide Channel', 0],
      ['Shop TV', 0],
    ]);
  });

  it('applies the day rule at both edges: 23:30–00:30 on both days, one ending at 00:00 on the first only', async () => {
    const bbc = async (day: string) => (await json(`${CATALOG}/date=${day}.json`)).metasDetailed[0];
    expect(titles(await bbc('2026-02-28'))).toEqual(['Late News']);
    expect(titles(await bbc('2026-03-01'))).toEqual(['Late News', 'Night Film', 'Midday & More', 'Ends At Midnight']);
    expect(titles(await bbc('2026-03-02'))).toEqual(['Early Show']);
    expect(titles(await bbc('2026-03-05'))).toEqual([]);
  });

  it('maps every programme field to the video', async () => {
    const { metasDetailed } = await json(`${CATALOG}/date=2026-03-01.json`);
    expect(metasDetailed[1].videos[0]).toEqual({
      id: 'mq-tv:arte.fr:epg:2026-03-01T20:00:00.000Z',
      title: 'Le Film — Première partie',
      released: '2026-03-01T20:00:00.000Z',
      startTime: '2026-03-01T20:00:00.000Z',
      endTime: '2026-03-01T21:00:00.000Z',
      runtime: '60 min',
      overview: 'Un film.',
      thumbnail: 'https://img.example/film.jpg',
      releaseInfo: '1999',
      season: 2,
      episode: 5,
      genres: ['Cinéma'],
      cast: ['Jean Dupont', 'Marie Curie'],
      directors: ['Agnès Varda'],
      ratings: [
        { system: 'CSA', value: '-12' },
        { system: 'stars', value: '4/5' },
      ],
    });
    // A relative programme image would fail the item: it is left out.
    expect(metasDetailed[4].videos[0]).not.toHaveProperty('thumbnail');
  });

  it('pages guide rows with skip counting channels, combined with a genre or a search', async () => {
    const page = await json(`${CATALOG}/date=2026-03-01&skip=6.json`);
    expect(page.metasDetailed.map((r: { name: string }) => r.name)).toEqual(['No Guide Channel', 'Shop TV']);
    expect((await json(`${CATALOG}/date=2026-03-01&skip=8.json`)).metasDetailed).toEqual([]);
    const search = await json(`${CATALOG}/date=2026-03-01&search=arte.json`);
    expect(search.metasDetailed.map((r: { name: string }) => [r.name, titles(r as never)])).toEqual([
      ['Arte', ['Le Film — Première partie', 'Late Arte']],
      ['Arte +1', ['Le Film — Première partie', 'Late Arte']],
    ]);
    const culture = await json(`${CATALOG}/genre=Culture&date=2026-03-01&skip=1.json`);
    expect(culture.metasDetailed.map((r: { name: string }) => r.name)).toEqual([
      'Arte +1',
      'Das Erste',
      'Télé Étoile FHD',
    ]);
  });
});

describe('meta and streams', () => {
  it('opens a channel with its programmes from 6 h back to 24 h ahead', async () => {
    const response = await served.get(`/meta/tv/${enc('mq-tv:bbcone.uk-hd')}.json`);
    expect(response.headers['cache-control']).toContain('max-age=300');
    const { meta } = response.json();
    expect(meta.name).toBe('BBC One HD');
    expect(meta.behaviorHints).toEqual({ isLive: true, hasScheduledVideos: true });
    expect(titles(meta)).toEqual(['Midday & More', 'Ends At Midnight', 'Early Show']);
    expect(meta.description).toBe('Channel 1');
  });

  it('answers 404 for an unknown channel and for a programme id', async () => {
    expect((await served.get(`/meta/tv/${enc('mq-tv:no-such')}.json`)).status).toBe(404);
    expect((await served.get(`/meta/tv/${enc('mq-tv:arte.fr:epg:2026-03-01T20:00:00.000Z')}.json`)).status).toBe(404);
  });

  it('lists every stream of a channel, with proxy headers where the playlist set them', async () => {
    const { streams } = await json(`/stream/tv/${enc('mq-tv:bbcone.uk-hd')}.json`);
    expect(streams).toEqual([
      { name: 'Marquee', description: 'BBC One HD (1/2)', url: 'https://streams.example/bbc1-hd.m3u8' },
      {
        name: 'Marquee',
        description: 'BBC One HD (backup) (2/2)',
        url: 'http://backup.example/bbc1.ts',
        behaviorHints: {
          notWebReady: true,
          proxyHeaders: { request: { 'User-Agent': 'Mozilla/5.0 (Marquee test)', Referer: 'https://portal.example/' } },
        },
      },
    ]);
    const etoile = await json(`/stream/tv/${enc('mq-tv:tele-etoile-fhd')}.json`);
    expect(etoile.streams[0].behaviorHints).toEqual({ notWebReady: true });
  });

  it('answers no streams for a programme id or an unknown channel', async () => {
    expect(await json(`/stream/tv/${enc('mq-tv:arte.fr:epg:2026-03-01T20:00:00.000Z')}.json`)).toEqual({ streams: [] });
    expect(await json(`/stream/tv/${enc('mq-tv:no-such')}.json`)).toEqual({ streams: [] });
  });
});

describe('the groups user setting', () => {
  let configured: Served;
  beforeAll(async () => {
    configured = await serve(temp.store, {}, [{ key: 'groups', type: 'text', title: 'Groups to show' }]);
  });
  afterAll(() => configured.close());
  const withConfig = (path: string) => `/${enc(JSON.stringify({ groups: 'Local, News & Talk' }))}${path}`;

  it('shows only the chosen groups, in catalog order, in lists and guide days', async () => {
    const list = (await configured.get(withConfig(`${CATALOG}.json`))).json();
    expect(list.metas.map((m: { name: string }) => m.name)).toEqual(['BBC One HD', 'My Local', 'No Guide Channel']);
    const day = (await configured.get(withConfig(`${CATALOG}/date=2026-03-01&skip=1.json`))).json();
    expect(day.metasDetailed.map((r: { name: string }) => [r.name, titles(r as never)])).toEqual([
      ['My Local', ['Regional News']],
      ['No Guide Channel', []],
    ]);
    const other = (await configured.get(withConfig(`${CATALOG}/genre=Culture.json`))).json();
    expect(other.metas).toEqual([]);
  });
});

describe('a playlist without any guide', () => {
  let bare: TempStore | undefined;
  afterEach(() => {
    bare?.cleanup();
    bare = undefined;
  });

  it('is a plain channel list: no epgProvider, no date extra, and a date request is not served', async () => {
    bare = tempStore();
    await importFixtures(bare.store, { guides: [] });
    expect(bare.store.hasProgrammes()).toBe(false);
    const plain = await serve(bare.store, { placeholders: { enabled: true } });
    try {
      const manifest = (await plain.get('/manifest.json')).json();
      expect(manifest).not.toHaveProperty('behaviorHints');
      expect(manifest.catalogs[0].extra.map((e: { name: string }) => e.name)).toEqual(['genre', 'search', 'skip']);
      expect((await plain.get(`${CATALOG}/date=2026-03-01.json`)).status).toBe(404);
      // Placeholders still fill a channel's detail page, generated when served.
      const { meta } = (await plain.get(`/meta/tv/${enc('mq-tv:shop.xx')}.json`)).json();
      // 06:30 (6 h back) to 12:30 next day (24 h ahead): blocks 06:00–07:00 … 12:00–13:00.
      expect(meta.videos).toHaveLength(31);
      expect(meta.videos[0]).toMatchObject({
        title: 'Shop TV',
        startTime: '2026-03-01T06:00:00.000Z',
        runtime: '60 min',
      });
      expect(meta.videos.at(-1).startTime).toBe('2026-03-02T12:00:00.000Z');
    } finally {
      await plain.close();
    }
  });
});

describe('placeholder settings', () => {
  it('refuse a block length outside 15 minutes to a day', () => {
    expect(() => createLiveTvPart(temp.store, { placeholders: { enabled: true, blockMinutes: 5 } })).toThrow(
      /placeholders\.blockMinutes must be a whole number from 15 to 1440, got 5/,
    );
  });
});

describe('placeholders in a real guide', () => {
  let placeholders: Served;
  beforeAll(async () => {
    placeholders = await serve(temp.store, { placeholders: { enabled: true, blockMinutes: 120 } });
  });
  afterAll(() => placeholders.close());

  it('fill only the channels without programmes that day, aligned blocks covering the day', async () => {
    const { metasDetailed } = (await placeholders.get(`${CATALOG}/date=2026-03-01.json`)).json();
    const shop = metasDetailed.find((r: { name: string }) => r.name === 'Shop TV');
    expect(shop.videos).toHaveLength(12);
    expect(shop.videos[0]).toMatchObject({
      id: 'mq-tv:shop.xx:epg:2026-03-01T00:00:00.000Z',
      title: 'Shop TV',
      startTime: '2026-03-01T00:00:00.000Z',
      endTime: '2026-03-01T02:00:00.000Z',
    });
    expect(shop.videos.at(-1).endTime).toBe('2026-03-02T00:00:00.000Z');
    expect(titles(metasDetailed[0])).toEqual(['Late News', 'Night Film', 'Midday & More', 'Ends At Midnight']);
  });
});
