import { describe, expect, it } from 'vitest';
import { createFindings } from './findings.js';
import { formatGithub, formatReport } from './format.js';
import type { CheckReport, Finding } from './types.js';

function report(findings: Finding[], extra: Partial<CheckReport> = {}): CheckReport {
  const collector = createFindings(5);
  for (const f of findings) collector.add(f);
  collector.ran('manifest');
  const checks = collector.summaries();
  const totals = {
    errors: checks.reduce((n, c) => n + c.errors, 0),
    warnings: checks.reduce((n, c) => n + c.warnings, 0),
    infos: checks.reduce((n, c) => n + c.infos, 0),
  };
  return {
    url: 'http://127.0.0.1:7000/manifest.json',
    ok: totals.errors === 0,
    addon: { id: 'org.x', name: 'X', version: '1.0.0' },
    complete: true,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1234,
    totals,
    checks,
    requests: { count: 12, failed: 1, timeMs: { p50: 8, max: 90 }, bytes: { p50: 2048, max: 3 * 1048576, total: 1 } },
    ...extra,
  };
}

/** One broken item; `i` is in the message, so items do not group. */
const item = (i: number): Finding => ({
  check: 'catalog-feed',
  severity: 'error',
  rule: 'preview.poster',
  path: '/catalog/movie/top.json',
  jsonPath: `$.metas[${i}].poster`,
  message: `must be an absolute URL (got "p${i}.jpg")`,
  effect: 'the client drops this item',
});

/** The same warning on another request path each time: these group. */
const uncached = (i: number): Finding => ({
  check: 'cache',
  severity: 'warning',
  rule: 'cache.missing',
  path: `/catalog/movie/top/skip=${i * 100}.json`,
  message: 'has no Cache-Control header',
  effect: 'RFC 9111: …',
});

describe('findings', () => {
  it('sorts errors first and JSON paths numerically, counts beyond what it lists', () => {
    const collector = createFindings(3);
    collector.add({ ...item(1), severity: 'warning' });
    for (const i of [10, 2, 30, 4]) collector.add(item(i));
    const [, feed] = collector.summaries();
    expect(feed!.findings.map((f) => f.jsonPath)).toEqual([
      '$.metas[2].poster',
      '$.metas[4].poster',
      '$.metas[10].poster',
    ]);
    expect(feed).toMatchObject({ status: 'fail', errors: 4, warnings: 1, omitted: 2 });
  });

  it('stores a bounded number per check but counts them all', () => {
    const collector = createFindings(50, 100);
    for (let i = 0; i < 5000; i++) collector.add(item(i));
    const feed = collector.summaries().find((c) => c.id === 'catalog-feed')!;
    expect(feed.errors).toBe(5000);
    expect(feed.findings).toHaveLength(50);
    expect(feed.omitted).toBe(4950);
  });

  it('groups one rule with one message on many paths: a count and the first three places in order', () => {
    const collector = createFindings();
    for (const i of [52, 3, 0, 17, 1, ...Array.from({ length: 48 }, (_, k) => k + 100)]) collector.add(uncached(i));
    const cache = collector.summaries().find((c) => c.id === 'cache')!;
    expect(cache).toMatchObject({ status: 'warn', warnings: 53, omitted: 0 });
    expect(cache.findings).toEqual([
      {
        ...uncached(0),
        count: 53,
        examples: [0, 1, 3].map((i) => ({ path: uncached(i).path })),
      },
    ]);
    // A single place stays a plain finding.
    const one = createFindings();
    one.add(uncached(7));
    expect(one.summaries().find((c) => c.id === 'cache')!.findings).toEqual([uncached(7)]);
  });
});

describe('formatReport', () => {
  it('prints the header, one row per check, the first examples and the verdict', () => {
    const text = formatReport(report([0, 1, 2, 3, 4].map(item)), { color: false, examples: 2 });
    expect(text).toContain('X 1.0.0 (org.x)');
    expect(text).toContain(
      '12 requests in 1.2 s (1 without answer) · time p50 8 ms, max 90 ms · size p50 2.0 kB, max 3.0 MB',
    );
    expect(text).toMatch(/^ {2}Manifest +PASS +0 +0 +0$/m);
    expect(text).toMatch(/^ {2}Catalog feeds +FAIL +5 +0 +0$/m);
    expect(text).toMatch(/^ {2}Subtitles +SKIP /m);
    expect(text).toContain(
      [
        'Catalog feeds: 5 errors',
        '  ✗ /catalog/movie/top.json $.metas[0].poster',
        '      must be an absolute URL (got "p0.jpg")',
        '      → the client drops this item',
        '  ✗ /catalog/movie/top.json $.metas[1].poster',
      ].join('\n'),
    );
    expect(text).toContain('    … 3 more (--format json lists up to 5)');
    expect(text.trimEnd().split('\n').at(-1)).toBe('FAILED: 5 errors, 0 warnings');
    expect(text).not.toContain('\u001b');
  });

  it('prints a group once, with its count and example places', () => {
    const text = formatReport(report([0, 1, 2, 3].map(uncached)), { color: false });
    expect(text).toContain(
      [
        'Cache-Control: 4 warnings',
        '  ! 4 places, e.g.',
        '      /catalog/movie/top/skip=0.json',
        '      /catalog/movie/top/skip=100.json',
        '      /catalog/movie/top/skip=200.json',
        '      has no Cache-Control header',
      ].join('\n'),
    );
  });

  it('writes GitHub Actions annotations that add-on text cannot break out of', () => {
    const hostile: Finding = { ...item(0), message: 'bad%\n::error::injected, x:y' };
    const out = formatGithub(report([hostile, ...[0, 1].map(uncached)]));
    const lines = out.trimEnd().split('\n');
    expect(lines).toEqual([
      '::error title=marquee check%3A Catalog feeds (preview.poster)::/catalog/movie/top.json $.metas[0].poster: bad%25%0A::error::injected, x:y → the client drops this item',
      '::warning title=marquee check%3A Cache-Control (cache.missing)::2 places, e.g. /catalog/movie/top/skip=0.json, /catalog/movie/top/skip=100.json: has no Cache-Control header → RFC 9111: …',
      'marquee check http://127.0.0.1:7000/manifest.json: FAILED: 1 error, 2 warnings, 0 notes',
    ]);
    expect(formatGithub(report([], { fatal: 'no manifest', ok: false }))).toBe(
      '::error title=marquee check::cannot check http://127.0.0.1:7000/manifest.json: no manifest\n',
    );
  });

  it('colours only when asked, and never lets add-on text drive the terminal', () => {
    const hostile = report([], { addon: { id: 'a', name: 'Evil\u001b[2J\u0007', version: '1\r2' } });
    const plain = formatReport(hostile, { color: false });
    expect(plain).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(plain).toContain('Evil\ufffd[2J\ufffd 1\ufffd2 (a)');
    expect(formatReport(hostile, { color: true })).toContain('\u001b[32mOK');
  });

  it('says why the check could not run', () => {
    const fatal = report([], { fatal: 'the manifest answers HTTP 404 instead of 200', ok: false });
    expect(formatReport(fatal, { color: false })).toBe(
      'marquee check http://127.0.0.1:7000/manifest.json\n\n✗ cannot check: the manifest answers HTTP 404 instead of 200\n',
    );
  });

  it('says when bounds cut the crawl short', () => {
    const text = formatReport(report([], { complete: false }), { color: false });
    expect(text.trimEnd().split('\n').at(-1)).toBe('OK: 0 errors, 0 warnings (crawl cut short: see Crawl bounds)');
  });
});
