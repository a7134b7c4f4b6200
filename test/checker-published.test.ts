import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CheckReport, type Finding, runCheck } from '../src/checker/index.js';
import { GOOD_HEADERS, parsePath, type Reply, type Route, serveTiny } from './fixtures/checker/tiny-addon.js';
import { corpusFile, itCorpus } from './helpers/corpus.js';

/**
 * The checker against add-ons shaped as they are published: the official SDK's hello-world and
 * README examples, the official static example (answers from the corpus, MARQUEE_CORPUS), and community
 * IPTV add-ons. The client accepts the first ones fully, so the checker must report no error;
 * the broken IPTV add-on shows each fault the checker used to miss.
 */

const NOW = Date.parse('2026-03-10T12:00:00.000Z');

async function check(
  route: Route,
  ids?: Array<{ type: string; id: string }>,
): Promise<{ report: CheckReport; requests: string[] }> {
  const server = await serveTiny(route);
  try {
    const report = await runCheck(`${server.url}/manifest.json`, {
      rateLimit: 1000,
      now: () => NOW,
      ...(ids ? { ids } : {}),
    });
    return { report, requests: [...server.requests] };
  } finally {
    await server.close();
  }
}

const all = (r: CheckReport): Finding[] => r.checks.flatMap((c) => c.findings);
const errors = (r: CheckReport) => all(r).filter((f) => f.severity === 'error');

/** The official SDK's router answers: JSON, CORS, Cache-Control only when a handler gives cacheMaxAge. */
const SDK_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*' };
const sdk = (body: unknown): Reply => ({ body, headers: SDK_HEADERS });

/** Stremio/addon-helloworld: two catalogs without name, tt ids, streams for movies and one episode. */
const HELLO_DATASET: Record<string, Record<string, unknown>> = {
  tt0032138: {
    name: 'The Wizard of Oz',
    type: 'movie',
    infoHash: '24c8802e2624e17d46cd555f364debd949f2c81e',
    fileIdx: 0,
  },
  tt0017136: { name: 'Metropolis', type: 'movie', infoHash: 'dca926c0328bb54d209d82dc8a2f391617b47d7a', fileIdx: 1 },
  tt1254207: { name: 'Big Buck Bunny', type: 'movie', url: 'http://clips.vorwaerts-gmbh.de/big_buck_bunny.mp4' },
  tt0031051: { name: 'The Arizona Kid', type: 'movie', ytId: 'm3BKVSpP80s' },
  tt0137523: { name: 'Fight Club', type: 'movie', externalUrl: 'https://www.netflix.com/watch/26004747' },
  'tt1748166:1:1': { name: 'Pioneer One', type: 'series', infoHash: '07a9de9750158471c3302e4e95edb1107f980fa6' },
};

function helloWorld(): Route {
  const manifest = {
    id: 'org.stremio.helloworld',
    version: '1.0.0',
    name: 'Hello World Addon',
    description: 'Sample addon providing a few public domain movies',
    resources: ['catalog', 'stream'],
    types: ['movie', 'series'],
    catalogs: [
      { type: 'movie', id: 'helloworldmovies' },
      { type: 'series', id: 'helloworldseries' },
    ],
    idPrefixes: ['tt'],
  };
  return (path) => {
    if (path === '/manifest.json') return sdk(manifest);
    const p = parsePath(path);
    if (p?.resource === 'catalog') {
      const metas = Object.entries(HELLO_DATASET)
        .filter(([, v]) => v.type === p.type)
        .map(([key, v]) => {
          const imdb = key.split(':')[0]!;
          return {
            id: imdb,
            type: v.type,
            name: v.name,
            poster: `https://images.metahub.space/poster/medium/${imdb}/img`,
          };
        });
      return sdk({ metas });
    }
    if (p?.resource === 'stream') return sdk({ streams: HELLO_DATASET[p.id] ? [HELLO_DATASET[p.id]] : [] });
    return undefined;
  };
}

/** stremio-addon-sdk examples/from-readme.js: stream only, no description, one movie. */
function fromReadme(): Route {
  const manifest = {
    id: 'org.myexampleaddon',
    version: '1.0.0',
    name: 'simple example',
    catalogs: [],
    resources: ['stream'],
    types: ['movie'],
  };
  return (path) => {
    if (path === '/manifest.json') return sdk(manifest);
    const p = parsePath(path);
    if (p?.resource !== 'stream') return undefined;
    const streams =
      p.type === 'movie' && p.id === 'tt1254207'
        ? [{ url: 'http://distribution.bbb3d.renderfarming.net/video/mp4/bbb_sunflower_1080p_30fps_normal.mp4' }]
        : [];
    return sdk({ streams });
  };
}

interface Corpus {
  headerSets: Record<string, Record<string, string>>;
  answers: Record<string, { status: number; headers: string; body: string }>;
  notFound: { status: number; headers: string; body: string };
}

/** Stremio/stremio-static-addon-example as GitHub Pages serves it (posterShape "regular", extra fields). */
function staticExample(): Route {
  const corpus = JSON.parse(readFileSync(corpusFile('addons', 'static-example.json'), 'utf8')) as Corpus;
  return (path) => {
    const answer = corpus.answers[path] ?? corpus.notFound;
    return { status: answer.status, raw: answer.body, headers: corpus.headerSets[answer.headers]! };
  };
}

const CHANNELS = ['Canal+ Sport', 'RTL (HD)', 'Tom & Jerry TV', 'Yes!', 'BBC One'].map((name, i) => ({
  id: `iptv:${name}`,
  type: 'tv',
  name,
  poster: i === 2 ? '' : `https://logos.example.org/${i}.png`,
  posterShape: 'regular',
  genres: ['General'],
}));

/** A community IPTV add-on: channel names as ids, lenient shapes the client accepts. */
function iptvGood(): Route {
  const manifest = {
    id: 'community.iptv',
    version: '1.2.0',
    name: 'IPTV',
    resources: ['catalog', 'meta', 'stream'],
    types: ['tv'],
    idPrefixes: ['iptv:'],
    catalogs: [
      {
        type: 'tv',
        id: 'iptv-all',
        name: 'All channels',
        extra: [{ name: 'genre', options: ['General'] }, { name: 'search' }],
      },
    ],
  };
  const headers = { ...GOOD_HEADERS, 'cache-control': 'max-age=3600, stale-while-revalidate=600, public' };
  return (path) => {
    if (path === '/manifest.json') return { body: manifest, headers };
    const p = parsePath(path);
    if (p?.type !== 'tv') return undefined;
    if (p.resource === 'catalog' && p.id === 'iptv-all') {
      const q = p.extra.get('search')?.toLowerCase();
      return { body: { metas: CHANNELS.filter((c) => !q || c.name.toLowerCase().includes(q)) }, headers };
    }
    const channel = CHANNELS.find((c) => c.id === p.id);
    if (p.resource === 'meta') return channel ? { body: { meta: { ...channel, website: null } }, headers } : undefined;
    if (p.resource === 'stream')
      return {
        body: {
          streams: channel
            ? [{ name: 'IPTV', description: channel.name, url: `https://s.example.org/${i(channel.id)}.m3u8` }]
            : [],
        },
        headers,
      };
    return undefined;
  };
}
const i = (id: string) => encodeURIComponent(id);

/**
 * The same IPTV add-on with the faults seen in the wild: a meta handler that reads `+` as a space
 * and stops at `(`, streams with title and description, search through new RegExp, a malformed
 * Cache-Control, a 500 for an unknown id.
 */
function iptvBroken(): Route {
  const good = iptvGood();
  const headers = { ...GOOD_HEADERS, 'cache-control': 'max-age=3600 public' };
  return (path, query) => {
    const p = parsePath(path);
    if (p?.resource === 'catalog' && p.extra.has('search')) {
      try {
        new RegExp(p.extra.get('search')!);
      } catch {
        return { status: 500, raw: 'SyntaxError: Invalid regular expression', headers: GOOD_HEADERS };
      }
      if (p.extra.get('search')!.includes('"')) return { body: {}, headers };
    }
    if (p?.resource === 'meta') {
      const raw = decodeURIComponent(path.split('/')[3]!.replace(/\.json$/, '')).replace(/\+/g, ' ');
      const channel = CHANNELS.find((c) => c.id === raw && !/[()!&]/.test(raw));
      if (!channel && raw.includes('marquee-check')) return { status: 500, raw: 'TypeError', headers: GOOD_HEADERS };
      return { body: { meta: channel ?? null }, headers };
    }
    if (p?.resource === 'stream') {
      const channel = CHANNELS.find((c) => c.id === p.id);
      return {
        body: {
          streams: channel ? [{ title: channel.name, description: 'Live', url: 'https://s.example.org/x.m3u8' }] : [],
        },
        headers,
      };
    }
    const reply = good(path, query);
    return reply && { ...reply, headers: path === '/manifest.json' ? headers : headers };
  };
}

describe('published add-ons the client accepts fully: no error', () => {
  it('the SDK hello-world: catalogs without name; series streams asked by episode id', async () => {
    const { report, requests } = await check(helloWorld());
    expect(errors(report)).toEqual([]);
    expect(report.complete).toBe(true);
    expect(requests).toContain('/stream/series/tt1748166%3A1%3A1.json');
    expect(requests).not.toContain('/stream/series/tt1748166.json');
    expect(all(report).find((f) => f.jsonPath === '$.catalogs[0].name')).toMatchObject({ severity: 'warning' });
  });

  it('the SDK README example: a stream-only add-on is probed with well-known tt ids and --id', async () => {
    const { report, requests } = await check(fromReadme(), [{ type: 'movie', id: 'tt0032138' }]);
    expect(errors(report)).toEqual([]);
    expect(requests).toEqual(
      expect.arrayContaining([
        '/stream/movie/tt1254207.json',
        '/stream/movie/marquee-check-unknown.json',
        '/stream/movie/tt0032138.json',
      ]),
    );
    expect(report.checks.find((c) => c.id === 'stream')!.status).not.toBe('skip');
  });

  itCorpus(
    'the official static example, as published: posterShape "regular", extra fields, a GitHub Pages 404',
    async () => {
      const { report } = await check(staticExample());
      expect(errors(report)).toEqual([]);
      expect(report.complete).toBe(true);
      expect(
        all(report).some((f) => f.severity === 'warning' && f.message.includes('square, poster or landscape')),
      ).toBe(true);
    },
  );

  it('a community IPTV add-on with ids such as "iptv:Canal+ Sport", poster "", website null', async () => {
    const { report, requests } = await check(iptvGood());
    expect(errors(report)).toEqual([]);
    // Ids with characters add-ons often decode wrongly are sampled first.
    expect(requests).toContain('/meta/tv/iptv%3ACanal%2B%20Sport.json');
    expect(requests).toContain('/meta/tv/iptv%3ARTL%20(HD).json');
  });
});

describe('the faults a broken IPTV add-on has, each found', () => {
  let report: CheckReport;
  const find = (pred: (f: Finding) => boolean) => all(report).filter(pred);

  it('finds them', async () => {
    report = (await check(iptvBroken())).report;
    expect(report.ok).toBe(false);

    // Streams with title and description: the client drops every one.
    expect(find((f) => f.rule === 'stream.title+description')).toEqual([
      expect.objectContaining({ severity: 'error', check: 'stream' }),
    ]);

    // Ids with + ( ) ! & that its own meta handler cannot resolve.
    const metaNull = find((f) => f.rule === 'meta.null' && f.severity === 'error')[0]!;
    expect(metaNull.count).toBe(4);
    expect(find((f) => f.rule === 'meta.id-characters')[0]!.message).toMatch(/the meta failed for 4 id\(s\)/);

    // Search with regex characters answers 500, with a quote answers {}.
    const search = find((f) => f.check === 'catalog-search' && f.severity === 'error').map((f) => f.path);
    expect(search).toEqual(
      expect.arrayContaining([
        '/catalog/tv/iptv-all/search=C%2B%2B%20(1999).json',
        '/catalog/tv/iptv-all/search=*%5BMatrix.json',
        "/catalog/tv/iptv-all/search=%22Fight%22%20Club's.json",
      ]),
    );

    // One malformed Cache-Control on every answer: one grouped warning, not one per request.
    const cache = find((f) => f.rule === 'cache.syntax');
    expect(cache).toHaveLength(1);
    expect(cache[0]!.count).toBeGreaterThan(10);
    expect(cache[0]!.examples).toHaveLength(3);

    // A 500 for an id the add-on cannot have.
    expect(
      find(
        (f) =>
          f.check === 'meta' &&
          f.severity === 'warning' &&
          f.message.startsWith('an id the add-on cannot have: answers HTTP 500'),
      ),
    ).toHaveLength(1);
  });
});
