/**
 * Hostile HTTP requests as fast-check arbitraries, shared by the fuzz test
 * (test/reliability/fuzz-requests.test.ts, a few thousand cases) and the bounded fuzz script
 * (bench/reliability/fuzz-requests.mjs, 100,000 cases): random and mutated add-on paths, bad
 * percent-encoding, overlong segments, unicode, `..`, NUL, huge config segments, unknown
 * resources, every method including odd ones, and odd headers. Plain JS so the script runs on
 * Node without a build step; request-cases.d.mts types it for the test.
 */

/** Methods a client, a scanner or a broken proxy may send. */
export const METHODS = [
  'GET',
  'HEAD',
  'OPTIONS',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'TRACE',
  'CONNECT',
  'PROPFIND',
  'MKCOL',
  'LOCK',
  'PURGE',
  'QUERY',
  'M-SEARCH',
  'SEARCH',
];

/** Segments that reach interesting branches: resources, types, traversal, broken and odd encodings. */
const TRICKY_SEGMENTS = [
  'catalog',
  'meta',
  'stream',
  'subtitles',
  'addon_catalog',
  'manifest.json',
  'manifest',
  'configure',
  'tv',
  'movie',
  'series',
  'channel',
  'mq-tv-channels',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%5C',
  '%00',
  '\u0000',
  '%',
  '%%',
  '%G1',
  '%E0%A4',
  '%C0%AF',
  '%ff%fe',
  '%ED%A0%80',
  '+',
  '&',
  '=',
  '&&&=',
  'skip=-1',
  'skip=1e309',
  'skip=99999999999999999999',
  'date=2026-02-30',
  'date=0000-00-00',
  'genre=',
  'search=%22%27%3B--',
  '.json',
  'x.json',
  '\u202e',
  '\ud800',
  '😀',
  'ﬁ',
];

/**
 * A request arbitrary. `known` are paths the site really serves; they are sent as they are and
 * mutated, so the fuzzer reaches handlers rather than stopping at the router.
 *
 * @param {typeof import('fast-check')} fc
 * @param {readonly string[]} known
 */
export function requestArbitrary(fc, known) {
  const encoded = (arb) => arb.map((s) => encodeURIComponent(s));
  const segment = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...TRICKY_SEGMENTS) },
    { weight: 3, arbitrary: encoded(fc.string({ unit: 'grapheme', maxLength: 40 })) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'a'.repeat(n)) },
    { weight: 1, arbitrary: encoded(fc.json({ maxDepth: 3 })) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 8_000, max: 70_000 })
        .map((n) => encodeURIComponent(JSON.stringify({ password: 'p'.repeat(n) }))),
    },
  );
  const extras = fc
    .array(
      fc.tuple(
        fc.constantFrom('skip', 'genre', 'search', 'date', 'videoHash', 'videoSize', 'filename', 'x'),
        fc.oneof(fc.constantFrom('0', '-5', '1.5', 'NaN', '1e400', '2026-03-01', ''), segment),
      ),
      { maxLength: 40 },
    )
    .map((pairs) => pairs.map(([n, v]) => `${n}=${v}`).join('&'));

  const knownPath = fc.constantFrom(...known);
  const mutated = fc
    .tuple(knownPath, fc.nat(), segment, fc.constantFrom('replace', 'insert', 'extras', 'append', 'config'), extras)
    .map(([path, at, seg, how, extra]) => {
      const body = path.replace(/\.json$/, '');
      const parts = body.split('/');
      const i = 1 + (at % Math.max(1, parts.length - 1));
      if (how === 'replace') parts[i] = seg;
      else if (how === 'insert') parts.splice(i, 0, seg);
      else if (how === 'extras') return `${body}/${extra}.json`;
      else if (how === 'config') return `/${seg}${path}`;
      else parts.push(seg);
      return `${parts.join('/')}.json`;
    });
  const random = fc
    .tuple(fc.array(segment, { minLength: 1, maxLength: 7 }), fc.boolean())
    .map(([segs, json]) => `/${segs.join('/')}${json ? '.json' : ''}`);
  const query = fc.option(
    fc.oneof(
      fc.constantFrom('?', '??', '?token=s3cr3t', '?a=%', '?&&&'),
      encoded(fc.string({ maxLength: 30 })).map((q) => `?${q}`),
    ),
    { nil: '' },
  );
  const path = fc
    .tuple(
      fc.oneof(
        { weight: 2, arbitrary: knownPath },
        { weight: 4, arbitrary: mutated },
        { weight: 3, arbitrary: random },
        {
          weight: 1,
          arbitrary: fc.constantFrom('/', '/configure', '//', '/./manifest.json', '/../manifest.json', '*'),
        },
      ),
      query,
    )
    .map(([p, q]) => p + q);

  const junk = fc.string({ unit: 'grapheme-ascii', maxLength: 60 });
  const headers = fc.record(
    {
      'accept-encoding': fc.oneof(
        fc.constantFrom('gzip', 'br', 'gzip, deflate, br', 'br;q=0, gzip;q=0', '*', 'identity;q=0', 'gzip;q=NaN'),
        fc.integer({ min: 100, max: 8_000 }).map((n) => 'gzip;q=0.1, '.repeat(n)),
        junk,
      ),
      'if-none-match': fc.oneof(
        fc.constantFrom('*', 'W/"x"', '"', 'W/', ',,,,', 'W/"' + 'a'.repeat(5_000) + '"'),
        junk,
      ),
      host: fc.oneof(
        fc.constantFrom(
          '',
          '[::1',
          '"><script>alert(1)</script>',
          'a:99999999',
          '::::',
          'localhost:0',
          '127.0.0.1:7000',
        ),
        fc.integer({ min: 100, max: 6_000 }).map((n) => 'h'.repeat(n)),
        junk,
      ),
      'x-forwarded-for': fc.oneof(fc.ipV4(), fc.ipV6(), junk),
      'x-forwarded-proto': fc.oneof(fc.constantFrom('https', 'http', 'javascript', ''), junk),
      'x-forwarded-host': junk,
      'access-control-request-headers': junk,
      'content-type': fc.oneof(fc.constantFrom('application/x-www-form-urlencoded', 'text/plain'), junk),
    },
    { requiredKeys: [] },
  );
  const body = fc.option(
    fc.oneof(
      fc.string({ maxLength: 200 }),
      fc
        .tuple(fc.string({ maxLength: 60 }), fc.constantFrom('on', 'true', ''), fc.string({ maxLength: 60 }))
        .map(
          ([groups, adult, previous]) =>
            `cfg_groups=${encodeURIComponent(groups)}&cfg_adult=${adult}&previous=${encodeURIComponent(previous)}`,
        ),
      fc.integer({ min: 60_000, max: 80_000 }).map((n) => `cfg_groups=${'g'.repeat(n)}`),
    ),
    { nil: undefined },
  );
  const method = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('GET', 'HEAD') },
    { weight: 4, arbitrary: fc.constantFrom(...METHODS) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z-]{1,12}$/) },
  );
  return fc.record({ method, url: path, headers, body });
}

/** Signs of internals in a body: stack frames, source paths, error class names, SQLite codes. */
export const INTERNALS =
  /\n\s+at [^\n]*:\d+:\d+|node_modules|\/src\/[\w/-]+\.(?:ts|js)|\.ts:\d+|SQLITE_|(?:Type|Reference|Range|Syntax)Error|better-sqlite3|Internal server error/;

/**
 * Problems with one answer: a 5xx, internals in the body, or missing base headers.
 *
 * @param {{ status: number, headers: Record<string, unknown>, body: string }} answer
 * @returns {string[]}
 */
export function answerProblems(answer) {
  const problems = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  if (INTERNALS.test(answer.body)) problems.push(`internals in the body: ${answer.body.slice(0, 200)}`);
  return problems;
}
