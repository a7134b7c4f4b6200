import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, reportExitCode, runCheck } from '../src/checker/index.js';

/**
 * The checker against an add-on we did not write: built with the official stremio-addon-sdk
 * (addonBuilder + getRouter), served with node:http on port 0 (serveHTTP is not used: it picks
 * its own port and may open a browser). The add-on is written the way the SDK's README shows.
 */

type Handler = (args: { type: string; id: string; extra: Record<string, string> }) => Promise<unknown>;
interface Builder {
  defineCatalogHandler(h: Handler): Builder;
  defineMetaHandler(h: Handler): Builder;
  defineStreamHandler(h: Handler): Builder;
  getInterface(): unknown;
}
interface Sdk {
  addonBuilder: new (manifest: unknown) => Builder;
  getRouter(
    addonInterface: unknown,
  ): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
}

const sdk = createRequire(import.meta.url)('stremio-addon-sdk') as Sdk;

const GENRES = ['Drama', 'Rock & Roll'];
const MOVIES = Array.from({ length: 130 }, (_, i) => ({
  id: `sdk:${i}`,
  type: 'movie',
  name: `Movie ${i}`,
  poster: `https://img.example.org/sdk/${i}.jpg`,
  genres: [GENRES[i % 2]!],
}));

function buildAddon(): unknown {
  const builder = new sdk.addonBuilder({
    id: 'org.test.sdkaddon',
    version: '1.2.3',
    name: 'SDK add-on',
    description: 'Built with the official stremio-addon-sdk for the checker tests.',
    resources: ['catalog', 'meta', 'stream'],
    types: ['movie'],
    idPrefixes: ['sdk:'],
    catalogs: [
      {
        type: 'movie',
        id: 'sdk-top',
        name: 'Top',
        extra: [{ name: 'genre', options: GENRES }, { name: 'search' }, { name: 'skip' }],
      },
    ],
  });
  builder.defineCatalogHandler(({ type, id, extra }) => {
    // As in the SDK's examples: anything else gets an empty list.
    if (type !== 'movie' || id !== 'sdk-top') return Promise.resolve({ metas: [] });
    const skip = Number(extra.skip ?? 0);
    const hits = MOVIES.filter(
      (m) =>
        (extra.genre === undefined || m.genres.includes(extra.genre)) &&
        (extra.search === undefined || m.name.toLowerCase().includes(extra.search.toLowerCase())),
    );
    return Promise.resolve({ metas: hits.slice(skip, skip + 100), cacheMaxAge: 3600 });
  });
  builder.defineMetaHandler(({ id }) => {
    const movie = MOVIES.find((m) => m.id === id);
    return Promise.resolve({ meta: movie ? { ...movie, description: 'A movie.' } : null });
  });
  builder.defineStreamHandler(({ id }) =>
    Promise.resolve({ streams: [{ title: 'Sample', url: `https://video.example.org/${encodeURIComponent(id)}.mp4` }] }),
  );
  return builder.getInterface();
}

let url: string;
let close: () => Promise<void>;
let report: CheckReport;

beforeAll(async () => {
  const router = sdk.getRouter(buildAddon());
  const server = createServer((req, res) =>
    router(req, res, () => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  report = await runCheck(`${url}/manifest.json`, { rateLimit: 1000 });
});
afterAll(() => close());

describe('an add-on built with stremio-addon-sdk', () => {
  it('pages, filters, searches and samples it without a protocol error in its data', async () => {
    const byId = Object.fromEntries(report.checks.map((c) => [c.id, c]));
    for (const id of [
      'manifest',
      'catalog-feed',
      'catalog-paging',
      'catalog-genre',
      'catalog-search',
      'stream',
      'cors',
    ]) {
      expect(byId[id]!.status, id).toBe('pass');
    }
    expect(report.addon).toEqual({ id: 'org.test.sdkaddon', name: 'SDK add-on', version: '1.2.3' });
    expect(report.complete).toBe(true);
  });

  it('finds what such an add-on gets wrong, as warnings: the client loses nothing', async () => {
    const all = report.checks.flatMap((c) => c.findings);
    expect(all.filter((f) => f.severity === 'error')).toEqual([]);
    // The SDK answers 200 { metas: [] } for an undeclared catalog and { meta: null } for an
    // unknown id; it sets Cache-Control only from a handler's cacheMaxAge (the catalog gives one).
    const warnings = all.filter((f) => f.severity === 'warning');
    expect(new Set(warnings.map((f) => `${f.check}: ${f.rule}`))).toEqual(
      new Set(['not-found: not-found.status', 'cache: cache.missing', 'meta: meta.null']),
    );
    // One grouped finding for every uncached answer (manifest, metas, streams).
    const uncached = warnings.find((f) => f.rule === 'cache.missing')!;
    expect(uncached.count).toBeGreaterThan(20);
    expect(uncached.examples?.[0]?.path).toBe('/manifest.json');
    expect(warnings.find((f) => f.rule === 'meta.null')).toMatchObject({
      path: '/meta/movie/sdk%3Amarquee-check-unknown.json',
      message:
        'an id the add-on cannot have: answers { meta: null }: the client needs a meta object (answer 404 when there is none)',
    });
    expect(report.ok).toBe(true);
    expect(reportExitCode(report)).toBe(0);
  });
});
