import { describe, expect, it } from 'vitest';
import { type CheckOptions, type CheckReport, type Finding, reportExitCode, runCheck } from '../src/checker/index.js';
import {
  dayProgrammes,
  films,
  GOOD_HEADERS,
  GUIDE_MANIFEST,
  guideAddon,
  MOVIE_MANIFEST,
  movieAddon,
  parsePath,
  type Reply,
  type Route,
  serveTiny,
} from './fixtures/checker/tiny-addon.js';

/**
 * The checker against small add-ons written here with plain node:http. Each starts clean (the
 * first tests prove it) and breaks exactly one rule; the test asserts the check, severity and
 * message of the finding, that no other check reports an error, and exit code 1.
 */

const NOW = Date.parse('2026-03-10T12:00:00.000Z');

async function check(route: Route, options: CheckOptions = {}): Promise<CheckReport> {
  const server = await serveTiny(route);
  try {
    return await runCheck(`${server.url}/manifest.json`, { rateLimit: 1000, now: () => NOW, ...options });
  } finally {
    await server.close();
  }
}

function findings(report: CheckReport, severity?: Finding['severity']): Finding[] {
  return report.checks.flatMap((c) => c.findings).filter((f) => severity === undefined || f.severity === severity);
}

function checksWithErrors(report: CheckReport): string[] {
  return report.checks.filter((c) => c.errors > 0).map((c) => c.id);
}

/** The one error-carrying check, its first error, and exit code 1. */
function onlyError(report: CheckReport, checkId: string): Finding {
  expect(checksWithErrors(report)).toEqual([checkId]);
  expect(report.ok).toBe(false);
  expect(reportExitCode(report)).toBe(1);
  return findings(report, 'error')[0]!;
}

describe('clean baselines', () => {
  it('the tiny movie add-on passes with no error and no warning', async () => {
    const report = await check(movieAddon(films(30)));
    expect(findings(report).filter((f) => f.severity !== 'info')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(reportExitCode(report)).toBe(0);
    const ran = report.checks.filter((c) => c.status === 'pass').map((c) => c.id);
    expect(ran).toEqual(
      expect.arrayContaining([
        'manifest',
        'catalog-feed',
        'catalog-paging',
        'catalog-genre',
        'catalog-search',
        'meta',
        'stream',
        'not-found',
        'cors',
        'cache',
      ]),
    );
  });

  it('the tiny guide add-on passes with no error and no warning', async () => {
    const report = await check(guideAddon(3));
    expect(findings(report).filter((f) => f.severity !== 'info')).toEqual([]);
    expect(report.checks.find((c) => c.id === 'guide')?.status).toBe('pass');
  });
});

describe('one broken rule each', () => {
  it('two wrapper keys fail the feed', async () => {
    const report = await check(
      movieAddon(films(30), (path) =>
        path === '/catalog/movie/films.json' ? { body: { metas: films(30), streams: [] } } : undefined,
      ),
    );
    const f = onlyError(report, 'catalog-feed');
    expect(f).toMatchObject({
      rule: 'response.wrappers',
      path: '/catalog/movie/films.json',
      jsonPath: '$',
      effect: 'the client shows an error instead of the catalog (its board row and Discover)',
    });
    expect(f.message).toMatch(/metas and streams/);
  });

  it('101 items on one page: a warning, the client keeps them all and asks skip=101', async () => {
    const report = await check(
      movieAddon(films(150), (path) =>
        path === '/catalog/movie/films.json' ? { body: { metas: films(101) } } : undefined,
      ),
    );
    expect(report.ok).toBe(true);
    const f = findings(report, 'warning').find((x) => x.check === 'catalog-feed')!;
    expect(f.message).toMatch(/holds 101 items; a catalog page holds at most 100/);
    expect(f.effect).toMatch(/^spec\/SDK rule; the client \(stremio-core-web 0\.62\.1\) accepts it/);
  });

  it('an item with a relative poster is dropped, on every page that lists it', async () => {
    const list = films(30);
    list[5]!.poster = '/posters/5.jpg';
    const report = await check(
      movieAddon(list, undefined, {
        ...MOVIE_MANIFEST,
        catalogs: [{ ...MOVIE_MANIFEST.catalogs[0]!, extra: [{ name: 'genre', options: ['Drama'] }] }],
      }),
    );
    // The feed and the Drama genre list the item; without skip there is no paging to miscount.
    expect(checksWithErrors(report)).toEqual(['catalog-feed', 'catalog-genre']);
    const feed = findings(report, 'error').find((f) => f.check === 'catalog-feed')!;
    expect(feed).toMatchObject({ path: '/catalog/movie/films.json', jsonPath: '$.metas[5].poster' });
    expect(feed.message).toMatch(/absolute URL/);
    expect(feed.effect).toMatch(/drops this item/);
  });

  it('a declared genre that answers 404, and one that answers 500', async () => {
    for (const status of [404, 500]) {
      const report = await check(
        movieAddon(films(30), (path) =>
          parsePath(path)?.extra.get('genre') === 'Rock & Roll'
            ? { status, raw: 'nope', headers: { 'cache-control': 'no-store' } }
            : undefined,
        ),
      );
      const f = onlyError(report, 'catalog-genre');
      expect(f.path).toBe('/catalog/movie/films/genre=Rock%20%26%20Roll.json');
      expect(f.message).toBe(
        `answers HTTP ${status} instead of 200: answer 200 with { metas: [] } when there is nothing`,
      );
      expect(f.effect).toMatch(/shows the user an error/);
    }
  });

  it('a programme ending before it starts', async () => {
    const report = await check(
      guideAddon(2, undefined, (channelId, day) => {
        const shows = dayProgrammes(channelId, day);
        shows[1] = { ...shows[1]!, endTime: shows[1]!.startTime, startTime: shows[1]!.endTime };
        return shows;
      }),
    );
    const f = onlyError(report, 'guide');
    expect(f.jsonPath).toBe('$.metasDetailed[0].videos[1].endTime');
    expect(f.message).toMatch(/is not after startTime/);
    // The published client has no guide: guide rules are the spec's.
    expect(f.effect).toMatch(/^spec: .*endTime strictly later/);
  });

  it('a guide answering metas to a date request', async () => {
    const route = guideAddon(2);
    const report = await check((path, query) => {
      const reply = route(path, query);
      const body = reply?.body as { metasDetailed?: unknown } | undefined;
      return body?.metasDetailed ? { body: { metas: body.metasDetailed } } : reply;
    });
    const f = onlyError(report, 'guide');
    expect(f).toMatchObject({ jsonPath: '$.metas', rule: 'response.wrong-wrapper' });
    expect(f.message).toMatch(/answered with \{ metasDetailed \}/);
    // One finding for the four days: the first is yesterday's page.
    expect(f.path).toBe('/catalog/tv/guide/date=2026-03-09.json');
    expect(f.count).toBe(4);
    expect(report.checks.find((c) => c.id === 'guide')!.errors).toBe(4);
  });

  it('missing CORS on every answer', async () => {
    const headers = { 'content-type': 'application/json', 'cache-control': 'max-age=300' };
    const route = movieAddon(films(30));
    const report = await check((path, query) => {
      const reply = route(path, query);
      return reply && { ...reply, headers };
    });
    const f = onlyError(report, 'cors');
    expect(f.message).toBe('has no Access-Control-Allow-Origin header: send Access-Control-Allow-Origin: *');
    expect(f.effect).toMatch(/Stremio Web/);
    expect(report.checks.find((c) => c.id === 'cors')!.errors).toBeGreaterThan(10);
  });

  it('the end of a catalog answered with 404 instead of an empty page: a warning, the client just stops', async () => {
    const report = await check(
      movieAddon(films(30), (path) =>
        path === '/catalog/movie/films/skip=30.json' ? { status: 404, raw: 'Not found' } : undefined,
      ),
    );
    expect(report.ok).toBe(true);
    const f = findings(report, 'warning').find((x) => x.check === 'catalog-paging')!;
    expect(f).toMatchObject({
      path: '/catalog/movie/films/skip=30.json',
      message: 'answers HTTP 404 instead of 200: answer 200 with { metas: [] } when there is nothing',
    });
    expect(f.effect).toMatch(/ends the list here without an error/);
  });

  it('a version that is not strict semver; the resources are still crawled', async () => {
    const report = await check(movieAddon(films(30), undefined, { ...MOVIE_MANIFEST, version: '1.0' }));
    const f = onlyError(report, 'manifest');
    expect(f).toMatchObject({
      path: '/manifest.json',
      jsonPath: '$.version',
      rule: 'manifest.version',
      effect: 'the client refuses to install the add-on: it cannot read the manifest',
    });
    expect(report.checks.find((c) => c.id === 'catalog-feed')!.status).toBe('pass');
    expect(report.complete).toBe(true);
    expect(findings(report).some((x) => x.check === 'crawl' && /still crawled/.test(x.message))).toBe(true);
  });

  it('a page whose items are all dropped stops paging early', async () => {
    const list = films(250);
    for (let i = 100; i < 200; i++) list[i]!.poster = `/p/${i}.jpg`;
    const report = await check(movieAddon(list));
    // Each of the 100 dropped items is an error of its own (at its JSON path); this is the paging one.
    const paging = findings(report, 'error').filter((f) => f.check === 'catalog-paging' && f.jsonPath === undefined);
    expect(paging).toEqual([
      expect.objectContaining({
        path: '/catalog/movie/films/skip=100.json',
        message:
          'paging stops early: the page at skip=100 has 0 valid items of 100, and the add-on has 50 more item(s) at skip=200',
      }),
    ]);
    expect(report.ok).toBe(false);
  });

  it('one dropped item makes the client ask skip=99 and get an item again', async () => {
    const list = films(150);
    list[50]!.poster = 'poster.jpg';
    const report = await check(movieAddon(list));
    const paging = findings(report).filter((f) => f.check === 'catalog-paging');
    expect(paging).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: '/catalog/movie/films.json',
        message:
          'paging miscounts: the page at skip=0 has 99 valid items of 100; the client asks skip=99 next, not skip=100',
      }),
      expect.objectContaining({
        severity: 'warning',
        path: '/catalog/movie/films/skip=99.json',
        message: '1 item(s) were already on an earlier page (first: "tiny:99", page 1)',
      }),
    ]);
  });

  it('no 404 for a catalog the manifest does not declare: a warning (the client never asks it)', async () => {
    const route = movieAddon(films(30));
    const report = await check((path, query) => {
      const p = parsePath(path);
      return p?.resource === 'catalog' && p.id !== 'films' ? { body: { metas: [] } } : route(path, query);
    });
    expect(report.ok).toBe(true);
    const f = findings(report, 'warning').find((x) => x.check === 'not-found')!;
    expect(f.effect).toMatch(/^spec: /);
    expect(f).toMatchObject({
      path: '/catalog/movie/marquee-check-nonexistent.json',
      message:
        'a catalog the manifest does not declare answers HTTP 200: answer 404 for paths the add-on does not serve',
    });
  });

  it('a body that is not JSON', async () => {
    const report = await check(
      movieAddon(films(30), (path) =>
        path === '/stream/movie/tiny%3A0.json' ? { raw: '<html>oops</html>', headers: GOOD_HEADERS } : undefined,
      ),
    );
    const f = onlyError(report, 'stream');
    expect(f.message).toBe('the body is not JSON (starts with "<html>oops</html>")');
  });

  it('a meta that fails as a whole, and one with another id', async () => {
    const report = await check(
      movieAddon(films(30), (path) => {
        if (path === '/meta/movie/tiny%3A1.json')
          return { body: { meta: { id: 'tiny:1', type: 'movie', name: 'x', released: '2020-01-01' } } };
        if (path === '/meta/movie/tiny%3A2.json')
          return { body: { meta: { id: 'tiny:999', type: 'movie', name: 'x' } } };
        return undefined;
      }),
    );
    const f = onlyError(report, 'meta');
    expect(f).toMatchObject({ path: '/meta/movie/tiny%3A1.json', jsonPath: '$.meta.released', rule: 'meta.released' });
    expect(f.effect).toBe('the details page of this item shows an error');
    expect(findings(report, 'warning')).toEqual([
      expect.objectContaining({ check: 'meta', path: '/meta/movie/tiny%3A2.json', jsonPath: '$.meta.id' }),
    ]);
  });

  it('a stream with both title and description is dropped; proxyHeaders without notWebReady and plain http are warnings', async () => {
    const report = await check(
      movieAddon(films(30), (path) => {
        if (path !== '/stream/movie/tiny%3A0.json') return undefined;
        return {
          body: {
            streams: [
              { url: 'https://v.example.org/a.m3u8', behaviorHints: { proxyHeaders: { request: { Referer: 'x' } } } },
              { url: 'http://v.example.org/b.mp4' },
              { url: 'https://v.example.org/c.mp4', title: '1080p', description: 'Film 0' },
            ],
          },
        };
      }),
    );
    const f = onlyError(report, 'stream');
    expect(f).toMatchObject({
      rule: 'stream.title+description',
      jsonPath: '$.streams[2].title',
      effect: 'the client drops this stream (the others are kept)',
    });
    expect(findings(report, 'warning').map((x) => [x.check, x.jsonPath, x.message])).toEqual([
      ['stream', '$.streams[0]', 'behaviorHints.proxyHeaders needs behaviorHints.notWebReady: true'],
      ['stream', '$.streams[1].url', 'is plain http without behaviorHints.notWebReady: true'],
    ]);
  });
});

describe('HTTP rules', () => {
  it('warns on a missing Cache-Control, a lifetime in milliseconds, long-cached errors and long-cached guide pages', async () => {
    const movies = movieAddon(films(30), (path): Reply | undefined => {
      if (path === '/manifest.json') return { body: MOVIE_MANIFEST, headers: { 'access-control-allow-origin': '*' } };
      if (path === '/stream/movie/tiny%3A0.json')
        return { body: { streams: [] }, headers: { ...GOOD_HEADERS, 'cache-control': 'max-age=300000000' } };
      if (path === '/catalog/movie/marquee-check-nonexistent.json')
        return { status: 404, raw: 'Not found', headers: { 'cache-control': 'max-age=86400, public' } };
      return undefined;
    });
    const report = await check(movies);
    expect(report.ok).toBe(true);
    const cache = findings(report, 'warning').filter((f) => f.check === 'cache');
    expect(cache.map((f) => [f.path, f.message])).toEqual([
      [
        '/catalog/movie/marquee-check-nonexistent.json',
        'the HTTP 404 answer may be cached for 86400 s: send no-store (or max-age ≤ 60) on errors',
      ],
      ['/manifest.json', 'has no Cache-Control header: send max-age=N (seconds), e.g. max-age=300, public'],
      [
        '/stream/movie/tiny%3A0.json',
        'max-age=300000000 is over a year: cache lifetimes are seconds, not milliseconds',
      ],
    ]);

    const guide = guideAddon(1, (path) =>
      path.includes('date=')
        ? { body: { metasDetailed: [] }, headers: { ...GOOD_HEADERS, 'cache-control': 'max-age=86400' } }
        : undefined,
    );
    const guideReport = await check(guide);
    // The same warning on the four guide days is one finding with a count.
    expect(findings(guideReport, 'warning').filter((f) => f.check === 'cache')).toEqual([
      expect.objectContaining({ count: 4, path: '/catalog/tv/guide/date=2026-03-09.json' }),
    ]);
    expect(findings(guideReport, 'warning').find((f) => f.check === 'guide')?.message).toBe(
      'the guide for 2026-03-10 (today) is empty',
    );
  });

  it('notes programmes outside the requested day without failing', async () => {
    const report = await check(
      guideAddon(1, undefined, (channelId, day) => [
        ...dayProgrammes(channelId, day),
        ...dayProgrammes(channelId, new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10)).slice(0, 1),
      ]),
    );
    expect(report.ok).toBe(true);
    const notes = findings(report, 'info').filter((f) => f.check === 'guide');
    expect(notes.map((f) => f.message)).toEqual([
      '1 programme(s) end before or start after 2026-03-09',
      '1 programme(s) end before or start after 2026-03-10',
      '1 programme(s) end before or start after 2026-03-11',
      '1 programme(s) end before or start after 2026-03-12',
    ]);
  });

  // Generous numbers: under a loaded CI machine a tiny answer may take 100 ms, never 600.
  it('warns on a slow answer and reports time and size per request', async () => {
    const report = await check(
      movieAddon(films(30), (path) =>
        path === '/meta/movie/tiny%3A0.json' ? { body: { meta: films(1)[0] }, delayMs: 700 } : undefined,
      ),
      { slowMs: 600 },
    );
    expect(findings(report, 'warning')).toEqual([
      expect.objectContaining({
        check: 'http',
        path: '/meta/movie/tiny%3A0.json',
        message: expect.stringMatching(/^took \d+ ms, more than 600 ms \(slowMs, --slow\)$/),
      }),
    ]);
    expect(report.requests.timeMs.max).toBeGreaterThanOrEqual(700);
    expect(report.requests.slowest?.path).toBe('/meta/movie/tiny%3A0.json');
    expect(report.requests.bytes.max).toBeGreaterThan(1000);
    expect(report.requests.bytes.p50).toBeGreaterThan(0);
  });

  it('keeps a path prefix, a config segment and the query string on every request', async () => {
    const prefix = `/mount/${encodeURIComponent('{"lang":"fr"}')}`;
    const route = movieAddon(films(30));
    const server = await serveTiny((path, query) => {
      if (!path.startsWith(`${prefix}/`) || query !== 'token=s%20cret') return { status: 401, raw: 'no' };
      return route(path.slice(prefix.length), query);
    });
    try {
      const report = await runCheck(`${server.url}${prefix}/manifest.json?token=s%20cret#ignored`, { rateLimit: 1000 });
      expect(findings(report).filter((f) => f.severity !== 'info')).toEqual([]);
      expect(server.requests.length).toBe(report.requests.count);
      expect(server.requests.every((r) => r.startsWith(`${prefix}/`) && r.endsWith('?token=s%20cret'))).toBe(true);
      expect(server.requests).toContain(`${prefix}/catalog/movie/films/search=Tom%20%26%20Jerry.json?token=s%20cret`);
    } finally {
      await server.close();
    }
  });
});

describe('tv items', () => {
  it('asks streams by channel id and not for ids the manifest routes elsewhere', async () => {
    const server = await serveTiny(
      guideAddon(2, (path) =>
        path === '/manifest.json'
          ? {
              body: {
                ...GUIDE_MANIFEST,
                resources: ['catalog', { name: 'meta', types: ['tv'], idPrefixes: ['other:'] }, 'stream'],
              },
            }
          : undefined,
      ),
    );
    try {
      const report = await runCheck(`${server.url}/manifest.json`, { rateLimit: 1000, now: () => NOW });
      // Meta is routed for other: ids only: the one meta request is the unknown-id probe.
      expect(server.requests.filter((r) => r.startsWith('/meta/'))).toEqual([
        '/meta/tv/other%3Amarquee-check-unknown.json',
      ]);
      expect(server.requests.filter((r) => r.startsWith('/stream/')).sort()).toEqual([
        '/stream/tv/gd%3Ach0.json',
        '/stream/tv/gd%3Ach1.json',
        '/stream/tv/gd%3Amarquee-check-unknown.json',
      ]);
      expect(report.checks.find((c) => c.id === 'meta')).toMatchObject({ infos: 1, errors: 0, warnings: 0 });
      expect(findings(report, 'info').find((f) => f.check === 'meta')?.message).toBe(
        '2 of 2 sampled items have ids or types the manifest does not route to this add-on for meta: not requested',
      );
    } finally {
      await server.close();
    }
  });
});
