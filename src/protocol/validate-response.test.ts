import { describe, expect, test } from 'vitest';
import type { ExtraPairs } from './path.js';
import { expectedWrapperKey, validateResponse } from './validate-response.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests mutate bodies into shapes no type allows.
type Json = Record<string, any>;

const DAY = Date.UTC(2026, 0, 31);
const SLOT = 36 * 60_000;

function request(resource: string, extra: ExtraPairs = [], type = 'tv', id = 'channels') {
  return { resource, type, id, extra };
}
const guideRequest = request('catalog', [
  ['date', '2026-01-31'],
  ['skip', '0'],
]);

/** A guide row: a channel with `count` back-to-back programmes from midnight UTC. */
function channel(c: number, count: number): Json {
  const id = `mq-tv:ch${c}`;
  return {
    id,
    type: 'tv',
    name: `Channel ${c}`,
    poster: `https://img.example.org/${c}.png`,
    posterShape: 'square',
    logo: `https://img.example.org/${c}-logo.png`,
    genres: ['News'],
    behaviorHints: { isLive: true, hasScheduledVideos: true },
    videos: Array.from({ length: count }, (_, p) => {
      const start = new Date(DAY + p * SLOT).toISOString();
      return {
        id: `${id}:epg:${start}`,
        title: `Show ${p}`,
        released: start,
        startTime: start,
        endTime: new Date(DAY + (p + 1) * SLOT).toISOString(),
        overview: 'Something happens',
        thumbnail: `https://img.example.org/p/${c}/${p}.jpg`,
      };
    }),
  };
}

function guidePage(channels: number, perChannel: number): Json {
  return { metasDetailed: Array.from({ length: channels }, (_, c) => channel(c, perChannel)), cacheMaxAge: 300 };
}

function preview(n: number): Json {
  return { id: `mq:${n}`, type: 'movie', name: `Movie ${n}`, poster: `https://img.example.org/m/${n}.jpg` };
}

type Found = Array<[severity: 'error' | 'warning', path: string]>;
/** The time answers are judged at: the second programme of the day (videos[1]) is on air, the third to come. */
const NOW = DAY + 1.5 * SLOT;

function found(req: ReturnType<typeof request>, body: unknown): Found {
  return validateResponse(req, body, { now: NOW }).map((i) => [i.severity, i.path]);
}

describe('wrapper keys', () => {
  test('the key each request is answered with', () => {
    expect(expectedWrapperKey(request('catalog', [], 'movie', 'top'))).toBe('metas');
    expect(expectedWrapperKey(request('catalog', [['genre', 'Drama']], 'movie', 'top'))).toBe('metas');
    expect(expectedWrapperKey(guideRequest)).toBe('metasDetailed');
    expect(expectedWrapperKey(request('meta'))).toBe('meta');
    expect(expectedWrapperKey(request('stream'))).toBe('streams');
    expect(expectedWrapperKey(request('subtitles'))).toBe('subtitles');
    expect(expectedWrapperKey(request('addon_catalog'))).toBe('addons');
    expect(expectedWrapperKey(request('posters'))).toBeUndefined();
    expect(expectedWrapperKey(request('toString'))).toBeUndefined();
  });

  test('valid answers for every resource have no issues', () => {
    expect(found(request('catalog', [], 'movie', 'top'), { metas: [preview(1), preview(2)] })).toEqual([]);
    expect(found(request('catalog', [['skip', '900']], 'movie', 'top'), { metas: [] })).toEqual([]);
    expect(found(guideRequest, { metasDetailed: [] })).toEqual([]);
    expect(found(request('meta'), { meta: channel(1, 3) })).toEqual([]);
    expect(found(request('stream'), { streams: [{ url: 'https://cdn.example.org/live.m3u8', name: 'HD' }] })).toEqual(
      [],
    );
    expect(found(request('stream'), { streams: [] })).toEqual([]);
    expect(
      found(request('subtitles'), { subtitles: [{ id: 'en1', url: 'https://example.org/en.srt', lang: 'eng' }] }),
    ).toEqual([]);
    const entry = {
      transportName: 'http',
      transportUrl: 'https://friends.example.org/manifest.json',
      manifest: { id: 'org.f', version: '1.0.0', name: 'F', description: '', resources: [], types: [], catalogs: [] },
    };
    expect(found(request('addon_catalog', [], 'all', 'friends'), { addons: [entry] })).toEqual([]);
  });

  test.each<[string, ReturnType<typeof request>, unknown, Found]>([
    ['a body that is not an object', request('stream'), [], [['error', '$']]],
    ['null', request('stream'), null, [['error', '$']]],
    ['no wrapper key', request('stream'), { items: [] }, [['error', '$']]],
    [
      'two wrapper keys',
      request('stream'),
      { streams: [], subtitles: [] },
      [
        ['error', '$'],
        ['error', '$.subtitles'],
      ],
    ],
    ['the wrong key for the resource', request('stream'), { metas: [] }, [['error', '$.metas']]],
    [
      'metasDetailed without date',
      request('catalog', [], 'tv', 'channels'),
      { metasDetailed: [] },
      [['error', '$.metasDetailed']],
    ],
    ['metas for a date request', guideRequest, { metas: [] }, [['error', '$.metas']]],
    ['a list that is not an array', request('stream'), { streams: {} }, [['error', '$.streams']]],
    ['a meta that is not an object', request('meta'), { meta: [] }, [['error', '$.meta']]],
    ['any one wrapper for a resource the client never asks', request('posters'), { metas: [] }, []],
  ])('%s', (_name, req, body, expected) => {
    expect(found(req, body)).toEqual(expected);
  });

  test('the message tells where metasDetailed belongs', () => {
    const [issue] = validateResponse(request('catalog', [], 'tv', 'channels'), { metasDetailed: [] });
    expect(issue?.message).toContain('only guide requests (with date)');
  });
});

describe('catalog pages', () => {
  const top = request('catalog', [], 'movie', 'top');

  test('100 items is a full page; 101 is an error', () => {
    const page = (n: number) => ({ metas: Array.from({ length: n }, (_, i) => preview(i)) });
    expect(found(top, page(100))).toEqual([]);
    expect(found(top, page(101))).toEqual([['error', '$.metas']]);
    expect(found(guideRequest, guidePage(101, 1))).toEqual([['error', '$.metasDetailed']]);
  });

  test('an invalid item is reported by index with the client dropping it', () => {
    const metas = [preview(0), preview(1), preview(2), preview(3)];
    delete metas[1]!.type;
    metas[2]!.poster = '/posters/2.jpg';
    metas[3]!.background = 'bg.jpg';
    const issues = validateResponse(top, { metas });
    expect(issues.map((i) => [i.severity, i.path])).toEqual([
      ['error', '$.metas[1].type'],
      ['error', '$.metas[2].poster'],
      ['error', '$.metas[3].background'],
    ]);
    expect(issues[0]?.effect).toContain('the client drops this item');
  });

  test('a repeated item id is a warning', () => {
    expect(found(top, { metas: [preview(1), preview(2), preview(1)] })).toEqual([['warning', '$.metas[2].id']]);
  });
});

describe('guide rows and programmes', () => {
  function page(change: (rows: Json[]) => void): Json {
    const body = guidePage(2, 3);
    change(body.metasDetailed);
    return body;
  }

  test.each<[string, (rows: Json[]) => void, Found]>([
    ['a row without videos', (r) => delete r[0]!.videos, [['error', '$.metasDetailed[0].videos']]],
    [
      'a row without hasScheduledVideos',
      (r) => delete r[1]!.behaviorHints.hasScheduledVideos,
      [['error', '$.metasDetailed[1].behaviorHints.hasScheduledVideos']],
    ],
    [
      'a programme without endTime',
      (r) => delete r[0]!.videos[1].endTime,
      [['error', '$.metasDetailed[0].videos[1].endTime']],
    ],
    [
      'a programme without startTime',
      (r) => delete r[0]!.videos[1].startTime,
      [['error', '$.metasDetailed[0].videos[1].startTime']],
    ],
    [
      'a guide video without times',
      (r) => {
        delete r[0]!.videos[2].startTime;
        delete r[0]!.videos[2].endTime;
      },
      [['error', '$.metasDetailed[0].videos[2]']],
    ],
    [
      'endTime equal to startTime',
      (r) => (r[0]!.videos[0].endTime = r[0]!.videos[0].startTime),
      [['error', '$.metasDetailed[0].videos[0].endTime']],
    ],
    [
      'endTime before startTime once zones are applied',
      (r) => {
        r[1]!.videos[0].startTime = '2026-01-31T02:00:00+02:00'; // 00:00Z
        r[1]!.videos[0].endTime = '2026-01-30T23:30:00Z';
      },
      [['error', '$.metasDetailed[1].videos[0].endTime']],
    ],
    [
      'released as a bare day',
      (r) => (r[0]!.videos[0].released = '2026-01-31'),
      [['error', '$.metasDetailed[0].videos[0].released']],
    ],
    [
      'startTime as epoch seconds',
      (r) => (r[0]!.videos[0].startTime = 1769817600),
      [['error', '$.metasDetailed[0].videos[0].startTime']],
    ],
    [
      'endTime without a zone',
      (r) => (r[0]!.videos[0].endTime = '2026-01-31T00:36:00'),
      [['error', '$.metasDetailed[0].videos[0].endTime']],
    ],
    [
      'a programme without released',
      (r) => delete r[0]!.videos[0].released,
      [['warning', '$.metasDetailed[0].videos[0].released']],
    ],
    [
      'a programme id repeated within a channel',
      (r) => (r[0]!.videos[2].id = r[0]!.videos[0].id),
      [['error', '$.metasDetailed[0].videos[2].id']],
    ],
    [
      'a programme id repeated across channels',
      (r) => (r[1]!.videos[0].id = r[0]!.videos[0].id),
      [['warning', '$.metasDetailed[1].videos[0].id']],
    ],
    [
      'streams on a programme that has not started',
      (r) => (r[0]!.videos[2].streams = [{ url: 'https://cdn.example.org/x.m3u8' }]),
      [['warning', '$.metasDetailed[0].videos[2].streams']],
    ],
    [
      'catch-up streams on programmes that have started (one aired, one on air)',
      (r) => {
        r[0]!.videos[0].streams = [{ url: 'https://cdn.example.org/archive-0.m3u8' }];
        r[0]!.videos[1].streams = [{ url: 'https://cdn.example.org/archive-1.m3u8' }];
      },
      [],
    ],
    [
      'defaultVideoId pointing at a programme',
      (r) => (r[0]!.behaviorHints.defaultVideoId = r[0]!.videos[1].id),
      [['error', '$.metasDetailed[0].behaviorHints.defaultVideoId']],
    ],
    [
      'a relative programme thumbnail',
      (r) => (r[0]!.videos[0].thumbnail = 'p.jpg'),
      [['error', '$.metasDetailed[0].videos[0].thumbnail']],
    ],
    ['a repeated channel', (r) => (r[1]!.id = r[0]!.id), [['warning', '$.metasDetailed[1].id']]],
  ])('%s', (_name, change, expected) => {
    expect(found(guideRequest, page(change))).toEqual(expected);
  });

  test('a meta with hasScheduledVideos follows the programme rules; the whole page fails on a bad video', () => {
    const meta = channel(7, 3);
    meta.videos[1].endTime = meta.videos[1].startTime;
    delete meta.videos[2].id;
    const issues = validateResponse(request('meta', [], 'tv', 'mq-tv:ch7'), { meta });
    expect(issues.map((i) => [i.severity, i.path])).toEqual([
      ['error', '$.meta.videos[2].id'],
      ['error', '$.meta.videos[1].endTime'],
    ]);
    expect(issues[0]?.effect).toBe('the client fails the whole meta page');
  });

  test('series episodes without times are fine in a meta; half a programme is not', () => {
    const series = {
      id: 'mq:s1',
      type: 'series',
      name: 'A series',
      videos: [
        { id: 'mq:s1:1:1', title: 'Pilot', season: 1, episode: 1, released: '2020-01-01T00:00:00Z' },
        { id: 'mq:s1:1:2', title: 'Two', season: 1, episode: 2, startTime: '2020-01-08T00:00:00Z' },
      ],
    };
    expect(found(request('meta', [], 'series', 'mq:s1'), { meta: series })).toEqual([
      ['error', '$.meta.videos[1].endTime'],
    ]);
  });
});

describe('streams, subtitles, add-ons, cache hints', () => {
  test.each<[string, ReturnType<typeof request>, Json, Found]>([
    ['a relative stream url', request('stream'), { streams: [{ url: '/live.m3u8' }] }, [['error', '$.streams[0].url']]],
    [
      'two sources in one stream',
      request('stream'),
      { streams: [{ url: 'https://a.example/x', ytId: 'abc' }] },
      [['error', '$.streams[0]']],
    ],
    ['a stream with no source', request('stream'), { streams: [{ name: 'nothing' }] }, [['error', '$.streams[0]']]],
    [
      'proxyHeaders without notWebReady',
      request('stream'),
      {
        streams: [{ url: 'https://a.example/x', behaviorHints: { proxyHeaders: { request: { 'User-Agent': 'x' } } } }],
      },
      [['error', '$.streams[0]']],
    ],
    [
      'an infoHash that is not hex',
      request('stream'),
      { streams: [{ url: 'https://a.example/x' }, { infoHash: 'zz' }] },
      [['error', '$.streams[1].infoHash']],
    ],
    [
      'a relative subtitles url',
      request('subtitles'),
      { subtitles: [{ id: 'a', url: 'en.srt', lang: 'eng' }] },
      [['error', '$.subtitles[0].url']],
    ],
    [
      'an add-on whose transportUrl is not a manifest',
      request('addon_catalog', [], 'all', 'friends'),
      {
        addons: [
          {
            transportName: 'http',
            transportUrl: 'https://friends.example.org/',
            manifest: {
              id: 'org.f',
              version: '1.0.0',
              name: 'F',
              description: '',
              resources: [],
              types: [],
              catalogs: [],
            },
          },
        ],
      },
      [['error', '$.addons[0].transportUrl']],
    ],
    ['a negative cacheMaxAge', request('stream'), { streams: [], cacheMaxAge: -1 }, [['error', '$.cacheMaxAge']]],
    ['a fractional staleError', request('stream'), { streams: [], staleError: 1.5 }, [['error', '$.staleError']]],
    [
      'a string staleRevalidate',
      request('stream'),
      { streams: [], staleRevalidate: '60' },
      [['error', '$.staleRevalidate']],
    ],
  ])('%s', (_name, req, body, expected) => {
    expect(found(req, body)).toEqual(expected);
  });

  test('proxyHeaders with notWebReady and zero cache lifetimes are fine', () => {
    const stream = {
      url: 'http://cdn.example.org/live.ts',
      behaviorHints: { notWebReady: true, proxyHeaders: { request: { Referer: 'https://example.org/' } } },
    };
    expect(found(request('stream'), { streams: [stream], cacheMaxAge: 0, staleRevalidate: 0, staleError: 0 })).toEqual(
      [],
    );
  });
});

describe('bounds', () => {
  test('issues stop at maxIssues with a last issue saying so', () => {
    const metas = Array.from({ length: 100 }, (_, i) => ({ id: `x${i}`, name: 'no type', poster: 'rel.jpg' }));
    const issues = validateResponse(request('catalog', [], 'movie', 'top'), { metas }, { maxIssues: 10 });
    expect(issues).toHaveLength(11);
    expect(issues[9]?.path).toBe('$.metas[4].poster');
    expect(issues[10]).toMatchObject({ severity: 'error', path: '$' });
    expect(issues[10]?.message).toContain('more than 10 issues');
    const streams = Array.from({ length: 150 }, () => ({ url: 'relative.m3u8', infoHash: 'zz' }));
    const byDefault = validateResponse(request('stream'), { streams });
    expect(byDefault).toHaveLength(201);
    expect(byDefault[200]?.message).toContain('more than 200 issues');
  });
});

describe('cost', () => {
  test('a 100-channel guide page with 40 programmes each validates clean and fast', () => {
    const body = guidePage(100, 40);
    expect(validateResponse(guideRequest, body)).toEqual([]);
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const started = performance.now();
      validateResponse(guideRequest, body);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const median = times[3]!;
    // About 15 ms on the 2-core dev machine; the bound only catches an accidental quadratic rule.
    expect(median).toBeLessThan(500);
    console.info(
      `validateResponse: 100 channels x 40 programmes (${JSON.stringify(body).length} bytes) in ${median.toFixed(1)} ms (median of 7)`,
    );
  });
});
