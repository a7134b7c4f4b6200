import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleAddon, EXAMPLE_MOVIES, type ExampleMovie } from '../examples/example-addon.js';
import { type CheckReport, formatReport, reportExitCode, runCheck } from '../src/checker/index.js';
import { createRequestHandler, listen, type RunningServer } from '../src/server/index.js';

/**
 * The checker against our own example add-on, served by our server: it must come out clean.
 * Expected warnings: none. Every answer carries CORS and Cache-Control, guide pages carry the
 * suggested 300 s lifetime, programmes are filtered to the day, undeclared paths answer 404.
 * Expected notes: none either (streams exist for every item, every id routes to the add-on).
 */

function manyMovies(n: number): ExampleMovie[] {
  return Array.from({ length: n }, (_, i) => ({
    ...EXAMPLE_MOVIES[i % EXAMPLE_MOVIES.length]!,
    id: `mqex:movie:gen-${i}`,
    name: `Film ${String(i).padStart(3, '0')}`,
  }));
}

const NOW = Date.parse('2026-05-01T09:30:00.000Z');
let server: RunningServer;
let report: CheckReport;
const paths: string[] = [];

beforeAll(async () => {
  server = await listen(createRequestHandler(createExampleAddon({ movies: manyMovies(230), now: () => NOW })), {
    port: 0,
    host: '127.0.0.1',
  });
  report = await runCheck(`${server.url}/manifest.json`, {
    rateLimit: 1000,
    now: () => NOW,
    onProgress: (p) => paths.push(p.path),
  });
});
afterAll(() => server.close());

describe('the example add-on', () => {
  it('is clean: no error, no warning, no note, exit code 0', () => {
    expect(report.checks.flatMap((c) => c.findings)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, infos: 0 });
    expect(report.ok).toBe(true);
    expect(report.complete).toBe(true);
    expect(reportExitCode(report)).toBe(0);
    expect(report.addon).toEqual({ id: 'org.marquee.example', name: 'Marquee Example', version: '1.0.0' });
  });

  it('was crawled the way the client does', () => {
    // Paging by the running count of kept items, to the empty page.
    expect(paths).toEqual(
      expect.arrayContaining([
        '/catalog/movie/mqex-movies.json',
        '/catalog/movie/mqex-movies/skip=100.json',
        '/catalog/movie/mqex-movies/skip=200.json',
        '/catalog/movie/mqex-movies/skip=230.json',
        '/catalog/movie/mqex-movies/genre=Action%20%26%20Adventure.json',
        '/catalog/movie/mqex-movies/search=Film.json',
        '/catalog/movie/mqex-movies/search=Tom%20%26%20Jerry.json',
        // Guide: yesterday to two days ahead in UTC, then skip by channels received.
        '/catalog/tv/mqex-channels/date=2026-04-30.json',
        '/catalog/tv/mqex-channels/date=2026-05-03.json',
        '/catalog/tv/mqex-channels/date=2026-05-01&skip=1.json',
        '/catalog/movie/marquee-check-nonexistent.json',
        // Streams of a channel are asked by its id.
        '/stream/tv/mqex%3Atv%3Aclassics.json',
      ]),
    );
    expect(paths.filter((p) => p.startsWith('/meta/') && !p.includes('marquee-check-unknown'))).toHaveLength(20);
    // Meta and streams for an id no add-on has, for each routed type.
    expect(paths).toEqual(
      expect.arrayContaining([
        '/meta/movie/mqex%3Amarquee-check-unknown.json',
        '/stream/tv/mqex%3Amarquee-check-unknown.json',
      ]),
    );
    expect(report.checks.filter((c) => c.status === 'skip').map((c) => c.id)).toEqual(['subtitles', 'addon-catalog']);
    expect(report.requests.count).toBe(paths.length);
  });

  it('gives a JSON-serialisable report and a terminal summary', () => {
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    const text = formatReport(report, { color: false });
    expect(text).toContain('Marquee Example 1.0.0 (org.marquee.example)');
    expect(text).toMatch(/^ {2}Guide days +PASS +0 +0 +0$/m);
    expect(text).toMatch(/OK: 0 errors, 0 warnings\n$/);
    // No colour codes unless asked.
    expect(text).not.toContain('\u001b[');
    expect(formatReport(report, { color: true })).toContain('\u001b[32mPASS');
  });
});
