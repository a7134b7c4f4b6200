/**
 * A refresh whose remote source is down, slow, broken or lying keeps the last good data, byte for
 * byte, through the refresher a serve process runs (createRefresher + liveTvRefreshJob) against a
 * playlist and a guide served over HTTP on 127.0.0.1: connection refused, an answer that never
 * comes (timeout), 503s past the retries, an HTML page with 200, a gzip body cut short, a guide
 * swapped for something that is not XMLTV. Each source that fails is kept from its last good copy
 * (docs/reliability.md): the refresh's report names it with its credentials hidden and says why,
 * and the next good refresh imports again.
 * (Limits, retries, redirects and SSRF of one read: src/sources/input/*.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAddon } from '../../src/addon/index.js';
import {
  createLiveTvPart,
  createRefresher,
  type LiveTvImportResult,
  liveTvRefreshJob,
} from '../../src/livetv/index.js';
import { createRequestHandler, listen, type RunningServer } from '../../src/server/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { tempDir } from '../../src/store/testing.js';
import { fixture, NOW } from '../fixtures/livetv/setup.js';
import { servedPaths, type WholeAnswer, wholeAnswers } from './crawl.js';

type Mode = 'good' | 'refused' | 'hang' | 'unavailable' | 'html' | 'cut-gzip' | 'not-xmltv';

let mode: Mode = 'good';
let source: Server;
let sourcePort = 0;
const sockets = new Set<Socket>();
const playlist = readFileSync(fixture('channels.m3u'));
const guide = readFileSync(fixture('guide.xml'));

async function startSource(port = 0): Promise<void> {
  source = createServer((req, res) => {
    const isGuide = req.url?.startsWith('/guide');
    if (mode === 'hang') return; // never answers
    if (mode === 'unavailable') return void res.writeHead(503).end('maintenance');
    if (mode === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
    if (mode === 'cut-gzip' && isGuide) {
      const gz = gzipSync(guide);
      return void res.writeHead(200, { 'content-type': 'application/gzip' }).end(gz.subarray(0, gz.length / 2));
    }
    if (mode === 'not-xmltv' && isGuide) return void res.writeHead(200).end('<rss><channel/></rss>');
    res.writeHead(200).end(isGuide ? guide : playlist);
  });
  source.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => source.listen(port, '127.0.0.1', resolve));
  sourcePort = (source.address() as AddressInfo).port;
}

async function stopSource(): Promise<void> {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => source.close(resolve));
}

let tmp: ReturnType<typeof tempDir>;
let store: Store;
let server: RunningServer;
let paths: string[];
let before: WholeAnswer[];

beforeAll(async () => {
  await startSource();
  tmp = tempDir('marquee-remote-');
  store = openStore(`${tmp.dir}/store.db`);
});
afterAll(async () => {
  await server?.close(100);
  await stopSource().catch(() => undefined);
  store.close();
  tmp.remove();
});

describe('refreshes from a remote source that breaks', () => {
  it('keep the last good data byte for byte through every kind of failure, then import again', async () => {
    const base = () => `http://user:s3cret@127.0.0.1:${sourcePort}`;
    const job = () =>
      liveTvRefreshJob(store, {
        playlists: [{ location: `${base()}/tv.m3u?token=t0k` }],
        guides: [{ location: `${base()}/guide.xml` }],
        now: NOW,
        sourceOptions: { timeoutMs: 400, connectTimeoutMs: 400, retries: 1, retryDelayMs: 20 },
      });
    const run = job();
    const errors: unknown[] = [];
    const results: LiveTvImportResult[] = [];
    const refresher = createRefresher({
      run: (signal) => run(signal),
      intervalMs: 3_600_000,
      onResult: (r) => results.push(r),
      onError: (e) => errors.push(e),
    });
    await refresher.trigger();
    expect(results.map((r) => r.status)).toEqual(['imported']);
    const handler = createRequestHandler(
      () =>
        composeAddon({ id: 'org.marquee.remote', version: '1.0.0', name: 'Remote', description: 'r' }, [
          createLiveTvPart(store, { now: () => NOW }),
        ]),
      { responseCache: false },
    );
    server = await listen(handler, { port: 0 });
    paths = await servedPaths(handler);
    before = await wholeAnswers(server.url, paths);
    expect(paths.length).toBeGreaterThan(20);

    const cases: [Mode, RegExp][] = [
      ['hang', /SOURCE_TIMEOUT|timed out|did not answer|not read completely within/],
      ['unavailable', /503/],
      ['html', /playlist .* is an HTML page, not a playlist/],
      ['cut-gzip', /gzip|unexpected end|truncated|SOURCE_UNREADABLE/i],
      ['not-xmltv', /not an XMLTV guide/],
    ];
    for (const [failing, why] of cases) {
      mode = failing;
      const started = Date.now();
      await refresher.trigger();
      expect(Date.now() - started, failing).toBeLessThan(5_000);
      expect(errors, failing).toEqual([]);
      const result = results.at(-1)!;
      const kept = result.sources.filter((r) => r.outcome === 'kept');
      expect(kept.length, failing).toBeGreaterThan(0);
      const said = kept.map((r) => r.message).join('\n');
      expect(said, failing).toMatch(why);
      expect(said).toMatch(/127\.0\.0\.1/);
      expect(said).toMatch(/keeping the last good data/);
      expect(said).not.toMatch(/s3cret|t0k\b/);
      expect(await wholeAnswers(server.url, paths), failing).toEqual(before);
      errors.length = 0;
    }

    // The source host goes away entirely: connection refused.
    const port = sourcePort;
    await stopSource();
    await refresher.trigger();
    const refused = results.at(-1)!.sources;
    expect(refused.map((r) => r.outcome)).toEqual(['kept', 'kept']);
    expect(refused[0]!.message).toMatch(/refused|ECONNREFUSED|unreachable|SOURCE_UNREADABLE/i);
    expect(await wholeAnswers(server.url, paths)).toEqual(before);

    // Back on the same port with good data: the next refresh imports again.
    mode = 'good';
    await startSource(port);
    await refresher.trigger();
    expect(results.at(-1)!.sources.map((r) => r.outcome)).toEqual(['imported', 'imported']);
    expect(errors).toEqual([]);
    expect(await wholeAnswers(server.url, paths)).toEqual(before);
    await refresher.stop();
  });
});
