/**
 * Library files read from http(s) URLs (issue 38), through the reader playlists and guides use:
 * `--library http://…/movies.json` is asked (it used to fail with "cannot be read (ENOENT)"),
 * redirects are followed, gzip is inflated, the size limit holds, an HTML answer is refused like a
 * file's, credentials never show, and a URL read again with its ETag / Last-Modified that answers
 * 304 is served from its last good copy. A real HTTP server on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importLibrary } from '../src/library/index.js';
import { openStore, type Store } from '../src/store/index.js';
import { runCli } from './helpers/cli.js';
import { excerpt } from './helpers/corpus.js';

/** A film library (198 films of Wikipedia, test/fixtures/corpus), as an operator would publish it. */
const FILMS = readFileSync(excerpt('library', 'marquee-movies.json'));
const CSV = 'type,name,year,genres\nmovie,Sintel,2010,Animation\nmovie,Tears of Steel,2012,Science Fiction\n';

type Route = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let base: string;
let routes: Map<string, Route>;
let requests: IncomingMessage[];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req);
    const route = routes.get((req.url ?? '/').split('?')[0]!);
    if (route) route(req, res);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let dir: string;
let store: Store;
beforeEach(() => {
  routes = new Map();
  requests = [];
  dir = mkdtempSync(join(tmpdir(), 'marquee-library-url-'));
  store = openStore(join(dir, 'marquee.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The films with an ETag and Last-Modified, answering 304 to a request that carries either. */
function publish(path: string, body: Buffer, headers: Record<string, string> = {}): void {
  routes.set(path, (req, res) => {
    if (req.headers['if-none-match'] === '"v1"' || req.headers['if-modified-since'] !== undefined) {
      res.writeHead(304).end();
      return;
    }
    res.writeHead(200, { etag: '"v1"', 'last-modified': 'Tue, 10 Mar 2026 12:00:00 GMT', ...headers }).end(body);
  });
}

describe('library URLs', () => {
  it('marquee import --library http://… reads the URL (redirected, gzip) and status shows it', async () => {
    publish('/films.json', gzipSync(FILMS), { 'content-encoding': 'gzip', 'content-type': 'application/json' });
    routes.set('/old', (_req, res) => res.writeHead(301, { location: '/films.json' }).end());
    const url = `${base}/old`;
    const result = await runCli(['import', '--db', join(dir, 'cli.db'), '--library', url], { cwd: dir });
    expect(result.stdout).toMatch(/^library: [1-9][\d,]* movies/m);
    expect(result.stdout).not.toContain('ENOENT');
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.url)).toEqual(['/old', '/films.json']);
    const status = await runCli(['status', '--db', join(dir, 'cli.db'), '--library', url], { cwd: dir });
    expect(status.stdout).toContain(`ok   library ${url}`);
    expect(status.code).toBe(0);
  });

  it('asks again with the last good read validators; 304 serves the last good copy', async () => {
    publish('/films.json', FILMS);
    const url = `${base}/films.json`;
    const first = await importLibrary(store, { files: [url] });
    const FILM_COUNT = first.report.counts.items;
    // Every film of the file is imported (the excerpt has 198).
    expect(FILM_COUNT).toBe((JSON.parse(FILMS.toString('utf8')) as { items: unknown[] }).items.length);
    expect(first.validators).toEqual({
      [url]: { etag: '"v1"', lastModified: 'Tue, 10 Mar 2026 12:00:00 GMT' },
    });

    const second = await importLibrary(store, { files: [url], validators: first.validators });
    expect(requests.at(-1)?.headers['if-none-match']).toBe('"v1"');
    expect(requests.at(-1)?.headers['if-modified-since']).toBe('Tue, 10 Mar 2026 12:00:00 GMT');
    expect(second.sources).toEqual([
      expect.objectContaining({ location: url, outcome: 'unchanged', counts: { items: FILM_COUNT } }),
    ]);
    expect(second.report.counts.items).toBe(FILM_COUNT);
    expect(second.validators).toEqual(first.validators);
    expect(store.sourceStates('library')[0]).toMatchObject({ outcome: 'unchanged', goodCounts: { items: FILM_COUNT } });
  });

  it('judges the answer like a file: HTML refused, the size limit held, the last good copy kept', async () => {
    publish('/films.json', FILMS);
    const url = `${base}/films.json`;
    const FILM_COUNT = (await importLibrary(store, { files: [url] })).report.counts.items;

    routes.set('/films.json', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>Maintenance</body></html>'),
    );
    const html = await importLibrary(store, { files: [url] });
    expect(html.sources[0]).toMatchObject({
      outcome: 'kept',
      reason: 'failed: line 1: is an HTML page, not a library file',
    });
    expect(html.report.counts.items).toBe(FILM_COUNT);

    // Past the size limit (here 100 kB, beside a small CSV): refused while it arrives.
    publish('/films.json', FILMS);
    routes.set('/small.csv', (_req, res) => res.end(CSV));
    const other = openStore(join(dir, 'limited.db'));
    try {
      const limited = await importLibrary(other, {
        files: [url, `${base}/small.csv`],
        read: { maxFileBytes: 100_000 },
      });
      expect(limited.sources[0]).toMatchObject({ outcome: 'none', reason: 'failed: more than 100000 bytes' });
      expect(limited.report.counts.items).toBe(2);
    } finally {
      other.close();
    }
  });

  it('never shows the credentials of a URL, and reads a CSV whose name says nothing by its content', async () => {
    routes.set('/export', (_req, res) => res.writeHead(200, { 'content-type': 'text/csv' }).end(CSV));
    const url = `http://me:hunter2@${base.slice(7)}/export?token=s3cret`;
    const result = await runCli(['import', '--db', join(dir, 'csv.db'), '--library', url], { cwd: dir });
    expect(result.stdout).toMatch(/^library: 2 movies/m);
    expect(requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from('me:hunter2').toString('base64')}`);
    const status = await runCli(['status', '--db', join(dir, 'csv.db'), '--library', url, '--json'], { cwd: dir });
    expect(status.stdout).not.toMatch(/hunter2|s3cret/);
    expect(JSON.parse(status.stdout).sources[0].source).toBe(`http://***@${base.slice(7)}/export?token=***`);

    routes.set('/export', (_req, res) => res.writeHead(503).end());
    const failing = await runCli(['import', '--db', join(dir, 'csv.db'), '--library', url], { cwd: dir });
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain(`kept: library http://***@${base.slice(7)}/export?token=*** failed: HTTP 503`);
    expect(failing.stdout + failing.stderr).not.toMatch(/hunter2|s3cret/);
  });
});
