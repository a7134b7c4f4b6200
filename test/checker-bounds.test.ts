import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type CheckOptions, type CheckReport, type Finding, reportExitCode, runCheck } from '../src/checker/index.js';
import { isMarqueeError } from '../src/errors.js';
import { films, movieAddon, type Route, serveTiny, type TinyServer } from './fixtures/checker/tiny-addon.js';

/**
 * The checker's bounds: a run is limited in requests, per-request time, whole-run time, body size,
 * rate and concurrency, and it ends with a report (not a hang, not a throw) when the add-on never
 * answers or cannot be reached.
 */

async function withServer<T>(route: Route, body: (server: TinyServer) => Promise<T>): Promise<T> {
  const server = await serveTiny(route);
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

function all(report: CheckReport): Finding[] {
  return report.checks.flatMap((c) => c.findings);
}

const FAST: CheckOptions = { rateLimit: 1000 };

describe('request budget', () => {
  it('maxRequests stops the crawl with a note; what was found so far is reported', async () => {
    await withServer(movieAddon(films(30)), async (server) => {
      const report = await runCheck(`${server.url}/manifest.json`, { ...FAST, maxRequests: 5 });
      expect(server.requests).toHaveLength(5);
      expect(report.requests.count).toBe(5);
      expect(report.complete).toBe(false);
      expect(report.ok).toBe(true);
      expect(all(report)).toContainEqual(
        expect.objectContaining({
          check: 'crawl',
          severity: 'info',
          message:
            'the crawl stopped early: the run reached its limit of 5 requests: raise maxRequests (--max-requests) for more',
        }),
      );
    });
  });

  it('maxPages stops paging a long catalog with a note', async () => {
    await withServer(movieAddon(films(450)), async (server) => {
      const report = await runCheck(`${server.url}/manifest.json`, { ...FAST, maxPages: 2 });
      expect(server.requests.filter((r) => /\/catalog\/movie\/films(\/skip=\d+)?\.json$/.test(r))).toEqual([
        '/catalog/movie/films.json',
        '/catalog/movie/films/skip=100.json',
      ]);
      expect(report.complete).toBe(false);
      expect(all(report).find((f) => f.check === 'crawl')?.message).toBe(
        'paging stopped after 2 pages (200 items); the catalog goes on: raise maxPages (--max-pages) to follow it',
      );
    });
  });
});

describe('an add-on that does not answer', () => {
  it('a catalog that never answers is a finding after timeoutMs, not a hang', async () => {
    const route = movieAddon(films(30), (path) => (path === '/catalog/movie/films.json' ? { hang: true } : undefined));
    await withServer(route, async (server) => {
      const started = performance.now();
      const report = await runCheck(`${server.url}/manifest.json`, { ...FAST, timeoutMs: 500 });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(all(report).filter((f) => f.severity === 'error')).toEqual([
        {
          check: 'catalog-feed',
          severity: 'error',
          rule: 'http.timeout',
          path: '/catalog/movie/films.json',
          message: 'no complete answer within 500 ms: raise timeoutMs (--timeout) to wait longer',
          effect: 'the client shows an error instead of the catalog (its board row and Discover)',
        },
      ]);
      expect(report.requests.failed).toBe(1);
      expect(reportExitCode(report)).toBe(1);
    });
  });

  it('a manifest that never answers makes the check unable to run (exit code 2)', async () => {
    await withServer(
      () => ({ hang: true }),
      async (server) => {
        const report = await runCheck(`${server.url}/manifest.json`, { ...FAST, timeoutMs: 200 });
        expect(report.fatal).toBe(
          'the manifest cannot be fetched: no complete answer within 200 ms: raise timeoutMs (--timeout) to wait longer',
        );
        expect(report.ok).toBe(false);
        expect(reportExitCode(report)).toBe(2);
      },
    );
  });

  it('the whole run stops at maxDurationMs even when each request may take longer', async () => {
    const route = movieAddon(films(30), (path) => (path.startsWith('/catalog/') ? { hang: true } : undefined));
    await withServer(route, async (server) => {
      const started = performance.now();
      const report = await runCheck(`${server.url}/manifest.json`, { ...FAST, timeoutMs: 20_000, maxDurationMs: 600 });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(report.complete).toBe(false);
      expect(all(report)).toContainEqual(
        expect.objectContaining({
          check: 'crawl',
          message:
            'the crawl stopped early: the run reached its time limit of 600 ms: raise maxDurationMs (--max-duration) for more',
        }),
      );
      // Requests we dropped ourselves are not the add-on's fault.
      expect(report.totals.errors).toBe(0);
    });
  });

  it('cancelling through the signal returns the report of what was checked', async () => {
    const controller = new AbortController();
    const route = movieAddon(films(30), (path) => (path.startsWith('/catalog/') ? { hang: true } : undefined));
    await withServer(route, async (server) => {
      const pending = runCheck(`${server.url}/manifest.json`, {
        ...FAST,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.path === '/manifest.json') setTimeout(() => controller.abort(), 50);
        },
      });
      const report = await pending;
      expect(report.checks.find((c) => c.id === 'manifest')?.status).toBe('pass');
      expect(all(report)).toContainEqual(
        expect.objectContaining({ check: 'crawl', message: 'the crawl stopped early: the run was cancelled' }),
      );
    });
  });

  it('an unreachable add-on, a non-manifest URL, a 404 or HTML manifest: fatal', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await runCheck(`http://127.0.0.1:${port}/manifest.json`, FAST);
    expect(refused.fatal).toBe('the manifest cannot be fetched: the request failed: ECONNREFUSED');

    const wrong = await runCheck('http://127.0.0.1:1/catalog/movie/x.json', FAST);
    expect(wrong.fatal).toBe('the add-on address ends in /manifest.json; /catalog/movie/x.json does not');
    expect(wrong.requests.count).toBe(0);
    expect((await runCheck('ftp://127.0.0.1/manifest.json', FAST)).fatal).toMatch(
      /^ftp: URLs are not add-on addresses/,
    );

    await withServer(
      (path) => (path === '/manifest.json' ? { raw: '<!doctype html><p>hello' } : undefined),
      async (server) => {
        expect((await runCheck(`${server.url}/manifest.json`, FAST)).fatal).toBe(
          'the manifest is not JSON (it starts with "<!doctype html><p>hello")',
        );
        expect((await runCheck(`${server.url}/other/manifest.json`, FAST)).fatal).toBe(
          'the manifest answers HTTP 404 instead of 200',
        );
      },
    );
  });
});

describe('politeness and size', () => {
  it('starts at most rateLimit requests per second', async () => {
    const starts: number[] = [];
    const route = movieAddon(films(30));
    await withServer(
      (path, query) => {
        starts.push(performance.now());
        return route(path, query);
      },
      async (server) => {
        await runCheck(`${server.url}/manifest.json`, { rateLimit: 20, maxRequests: 9 });
        expect(starts).toHaveLength(9);
        // 9 starts at 20/s span at least 8 intervals of 50 ms.
        expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(8 * 50 - 10);
      },
    );
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const route = movieAddon(films(30));
    await withServer(
      (path, query) => {
        const reply = route(path, query);
        return reply && { ...reply, delayMs: 30 };
      },
      async (server) => {
        await runCheck(`${server.url}/manifest.json`, { ...FAST, concurrency: 2 });
        expect(server.maxInFlight()).toBe(2);
      },
    );
  });

  it('cuts a body above maxBodyBytes and reports it', async () => {
    await withServer(movieAddon(films(30)), async (server) => {
      const report = await runCheck(`${server.url}/manifest.json`, { ...FAST, maxBodyBytes: 2000 });
      expect(all(report)).toContainEqual(
        expect.objectContaining({
          check: 'catalog-feed',
          severity: 'error',
          path: '/catalog/movie/films.json',
          message:
            'the body is over 2000 bytes; reading stopped there: raise maxBodyBytes (--max-body-bytes) to read more',
        }),
      );
    });
  });

  it('uses the injected fetch for every request', async () => {
    await withServer(movieAddon(films(3)), async (server) => {
      const seen: string[] = [];
      const report = await runCheck(`${server.url}/manifest.json`, {
        ...FAST,
        fetch: (url, init) => {
          seen.push(url);
          return fetch(url, init);
        },
      });
      expect(seen).toHaveLength(report.requests.count);
      expect(seen.map((u) => new URL(u).pathname).sort()).toEqual([...server.requests].sort());
    });
  });

  it('refuses options out of range with INVALID_SETTINGS', async () => {
    for (const options of [{ maxRequests: 0 }, { concurrency: 1.5 }, { rateLimit: -1 }, { timeoutMs: Number.NaN }]) {
      const error = await runCheck('http://127.0.0.1:1/manifest.json', options).catch((e: unknown) => e);
      expect(isMarqueeError(error, 'INVALID_SETTINGS'), JSON.stringify(options)).toBe(true);
    }
  });
});
