/**
 * The checker's severities, calibrated against the real client (src/checker/calibration.ts): the
 * same hand-written add-on is fed to stremio-core and to `marquee check`. What the client accepts
 * (a manifest without description, a catalog without name, catalogs while resources lacks
 * "catalog", website: null, poster: "", an unknown posterShape) is no error in the report, and the
 * crawl goes on; what the client drops (a stream with both title and description) is an error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../src/checker/index.js';
import { runCli } from './helpers/cli.js';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';

const MANIFEST = {
  id: 'org.example.lenient',
  version: '1.0.0',
  name: 'Lenient',
  types: ['movie'],
  resources: ['meta', 'stream'],
  idPrefixes: ['cx:'],
  catalogs: [{ type: 'movie', id: 'top' }],
};
const ITEMS = [
  { id: 'cx:1', type: 'movie', name: 'One', poster: '' },
  { id: 'cx:2', type: 'movie', name: 'Two', poster: 'https://img.example/two.jpg', posterShape: 'regular' },
];
const ANSWERS: Record<string, unknown> = {
  '/manifest.json': MANIFEST,
  '/catalog/movie/top.json': { metas: ITEMS },
  '/meta/movie/cx:1.json': { meta: { ...ITEMS[0], website: null, posterShape: 'regular' } },
  '/meta/movie/cx:2.json': { meta: { ...ITEMS[1] } },
  '/stream/movie/cx:1.json': {
    streams: [{ url: 'https://media.example/one.mp4', title: 'HD', description: 'One in HD' }],
  },
  '/stream/movie/cx:2.json': { streams: [{ url: 'https://media.example/two.mp4', title: 'HD' }] },
};

let server: Server;
let url: string;
let client: StremioClient;
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = ANSWERS[decodeURIComponent((req.url ?? '').split('?')[0]!)];
    const headers = { 'access-control-allow-origin': '*', 'content-type': 'application/json' };
    if (body === undefined) res.writeHead(404, headers).end('{}');
    else res.writeHead(200, { ...headers, 'cache-control': 'max-age=60' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/manifest.json`;
  client = await createStremioClient();
}, 60_000);
afterAll(async () => {
  client?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the real client', () => {
  it('installs the manifest, requests the unnamed catalog and keeps both items', async () => {
    await client.installAddon(url);
    const page = await client.loadCatalog({ transportUrl: url, type: 'movie', id: 'top' });
    expect(page.items.map((i) => i.id)).toEqual(['cx:1', 'cx:2']);
  });

  it('loads a meta with website: null, poster: "" and posterShape "regular"', async () => {
    const { meta, metaError } = await client.loadMeta({ transportUrl: url, type: 'movie', id: 'cx:1', videoId: null });
    expect(metaError).toBeNull();
    expect(meta?.id).toBe('cx:1');
  });

  it('drops a stream with both title and description, and keeps one with a title alone', async () => {
    expect((await client.loadMeta({ transportUrl: url, type: 'movie', id: 'cx:1' })).streams).toEqual([]);
    expect((await client.loadMeta({ transportUrl: url, type: 'movie', id: 'cx:2' })).streams).toHaveLength(1);
  });
});

describe('marquee check on the same add-on', () => {
  it('agrees: no error for what the client accepts, the crawl goes on, one error for the dropped stream', async () => {
    const report = await runCheck(url, { rateLimit: 1000 });
    const check = (id: string) => report.checks.find((c) => c.id === id)!;
    expect(report.fatal).toBeUndefined();
    expect(check('manifest')).toMatchObject({ errors: 0 });
    expect(
      check('manifest')
        .findings.map((f) => f.jsonPath)
        .sort(),
    ).toEqual(['$.catalogs', '$.catalogs[0].name', '$.description']);
    for (const f of check('manifest').findings)
      expect(f.effect).toMatch(/the real client .* \(test\/checker-calibration\.test\.ts\)/);
    expect(check('catalog-feed').status).not.toBe('skip');
    expect(check('meta')).toMatchObject({ errors: 0 });
    expect(check('meta').warnings).toBeGreaterThanOrEqual(3);
    expect(check('stream')).toMatchObject({ errors: 1 });
    expect(check('stream').findings[0]).toMatchObject({
      path: '/stream/movie/cx%3A1.json',
      jsonPath: '$.streams[0]',
      message: 'carries both title and description',
    });
  });
});

describe('marquee check in CI', () => {
  it('prints GitHub Actions annotations, narrows the report with --only, and refuses an unknown check before crawling', async () => {
    const github = await runCli(['check', url, '--format', 'github', '--rate', '1000'], { cwd: process.cwd() });
    expect(github.code).toBe(1);
    const lines = github.stdout.trim().split('\n');
    expect(lines).toContain(
      '::error title=marquee check%3A Streams::/stream/movie/cx%253A1.json $.streams[0]: carries both title and description → ' +
        'the real client reads title as another name for description and drops the stream (test/checker-calibration.test.ts)',
    );
    expect(lines.filter((l) => l.startsWith('::warning title=marquee check%3A Manifest::'))).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/^marquee check http:\/\/127\.0\.0\.1:\d+\/manifest\.json: 1 errors, \d+ warnings/);

    const only = await runCli(['check', url, '--only', 'manifest,catalog-feed', '--format', 'json', '--rate', '1000'], {
      cwd: process.cwd(),
    });
    expect(only.code).toBe(0);
    const report = JSON.parse(only.stdout);
    expect(report.checks.map((c: { id: string }) => c.id)).toEqual(['manifest', 'catalog-feed']);
    expect(report.ok).toBe(true);

    const unknown = await runCli(['check', url, '--only', 'streams'], { cwd: process.cwd() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--only: unknown check "streams"; the checks are manifest, catalog-feed/);
  });
});

describe('an add-on without catalogs', () => {
  it('gets its streams checked with a well-known id of its prefix and with --id, and its unknown-id answers rated', async () => {
    const seen: string[] = [];
    const streamOnly = createServer((req, res) => {
      const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
      seen.push(path);
      const headers = {
        'access-control-allow-origin': '*',
        'content-type': 'application/json',
        'cache-control': 'max-age=60',
      };
      if (path === '/manifest.json') {
        return void res.writeHead(200, headers).end(
          JSON.stringify({
            id: 'org.example.streams',
            version: '1.0.0',
            name: 'Streams',
            description: 'streams only',
            types: ['movie', 'series'],
            resources: ['stream'],
            idPrefixes: ['tt'],
            catalogs: [],
          }),
        );
      }
      if (path.includes('marquee-check-unknown')) return void res.writeHead(500, headers).end('{"err":"boom"}');
      res
        .writeHead(200, headers)
        .end(JSON.stringify({ streams: [{ url: 'https://media.example/x.mp4', title: 'HD', description: 'x' }] }));
    });
    await new Promise<void>((resolve) => streamOnly.listen(0, '127.0.0.1', resolve));
    try {
      const address = `http://127.0.0.1:${(streamOnly.address() as AddressInfo).port}/manifest.json`;
      const { code, stdout } = await runCli(
        ['check', address, '--id', 'series:tt0903747:1:1', '--format', 'json', '--rate', '1000'],
        { cwd: process.cwd() },
      );
      expect(code).toBe(1);
      expect(seen).toEqual(
        expect.arrayContaining([
          '/stream/movie/tt0111161.json',
          '/stream/series/tt0903747:1:1.json',
          '/stream/movie/ttmarquee-check-unknown.json',
        ]),
      );
      const report = JSON.parse(stdout);
      const stream = report.checks.find((c: { id: string }) => c.id === 'stream');
      expect(stream.findings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ severity: 'error', message: 'carries both title and description', count: 3 }),
          expect.objectContaining({ severity: 'warning', message: 'an unknown id answers HTTP 500: answer 404' }),
        ]),
      );
    } finally {
      streamOnly.closeAllConnections();
      await new Promise((resolve) => streamOnly.close(resolve));
    }
  });
});

describe('a search that builds a regular expression from the query', () => {
  it('is found: a probe starting with * fails it', async () => {
    const films = [{ id: 'rx:1', type: 'movie', name: 'Heat', poster: 'https://img.example/heat.jpg' }];
    const naive = createServer((req, res) => {
      const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
      const headers = {
        'access-control-allow-origin': '*',
        'content-type': 'application/json',
        'cache-control': 'max-age=60',
      };
      const manifest = {
        id: 'org.example.regex',
        version: '1.0.0',
        name: 'Regex',
        description: 'naive search',
        types: ['movie'],
        resources: ['catalog'],
        catalogs: [{ type: 'movie', id: 'films', name: 'Films', extra: [{ name: 'search' }] }],
      };
      if (path === '/manifest.json') return void res.writeHead(200, headers).end(JSON.stringify(manifest));
      const search = /\/search=(.*)\.json$/.exec(path)?.[1];
      try {
        // What such add-ons do: the user's text as a pattern.
        const pattern = search === undefined ? undefined : new RegExp(search, 'i');
        res
          .writeHead(200, headers)
          .end(JSON.stringify({ metas: films.filter((f) => !pattern || pattern.test(f.name)) }));
      } catch {
        res.writeHead(500, headers).end('{}');
      }
    });
    await new Promise<void>((resolve) => naive.listen(0, '127.0.0.1', resolve));
    try {
      const address = `http://127.0.0.1:${(naive.address() as AddressInfo).port}/manifest.json`;
      const report = await runCheck(address, { rateLimit: 1000 });
      const search = report.checks.find((c) => c.id === 'catalog-search')!;
      expect(search.errors).toBe(1);
      expect(search.findings[0]).toMatchObject({
        severity: 'error',
        message: 'answers HTTP 500 instead of 200: answer 200 with { metas: [] } when there is nothing',
        effect: 'a search for "*batteries not included" shows an error in this catalog\'s row instead of results',
      });
    } finally {
      naive.closeAllConnections();
      await new Promise((resolve) => naive.close(resolve));
    }
  });
});
