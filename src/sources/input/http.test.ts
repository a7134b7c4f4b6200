import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MarqueeError } from '../../errors.js';
import { openSource, readSourceText } from './open.js';
import type { SourceOptions } from './types.js';

type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

let server: Server;
let base: string;
let port: number;
let routes: Map<string, Handler>;
let hits: Map<string, number>;
let requests: IncomingMessage[];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    requests.push(req);
    const hit = (hits.get(path) ?? 0) + 1;
    hits.set(path, hit);
    const handler = routes.get(path);
    if (handler) handler(req, res, hit);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  routes = new Map();
  hits = new Map();
  requests = [];
});

// Operators' own sources: the test server is on loopback.
const trusted: SourceOptions = { allowPrivateAddresses: true, retryDelayMs: 5 };

async function failure(promise: Promise<unknown>): Promise<MarqueeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarqueeError);
  return error as MarqueeError;
}

async function text(location: string, options: SourceOptions = trusted): Promise<string> {
  const result = await readSourceText(location, options);
  if (result.notModified) throw new Error('expected content');
  return result.text;
}

describe('remote sources', () => {
  it('reads a plain answer with its metadata, sending a Marquee User-Agent', async () => {
    routes.set('/list.m3u', (_req, res) =>
      res
        .writeHead(200, {
          'content-type': 'audio/x-mpegurl',
          'content-length': 8,
          etag: '"v1"',
          'last-modified': 'Tue, 01 Apr 2025 10:00:00 GMT',
        })
        .end('#EXTM3U\n'),
    );
    const result = await readSourceText(`${base}/list.m3u`, trusted);
    expect(result).toEqual({
      notModified: false,
      text: '#EXTM3U\n',
      metadata: {
        location: `${base}/list.m3u`,
        finalUrl: `${base}/list.m3u`,
        byteLength: 8,
        etag: '"v1"',
        lastModified: 'Tue, 01 Apr 2025 10:00:00 GMT',
        contentType: 'audio/x-mpegurl',
      },
    });
    expect(requests[0]?.headers['user-agent']).toMatch(/^Marquee /);
  });

  it('gunzips by magic bytes, with a misleading name and type, and with Content-Encoding', async () => {
    const xml = '<tv><channel id="a"/></tv>';
    routes.set('/guide.xml', (_req, res) => res.writeHead(200, { 'content-type': 'text/xml' }).end(gzipSync(xml)));
    routes.set('/encoded.xml.gz', (_req, res) =>
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(gzipSync(xml))),
    );
    expect(await text(`${base}/guide.xml`)).toBe(xml);
    expect(await text(`${base}/encoded.xml.gz`)).toBe(xml);
  });

  it('refuses a too-large answer by Content-Length, and aborts a chunked one past the limit', async () => {
    routes.set('/big', (_req, res) => res.writeHead(200, { 'content-length': 5000 }).end('x'.repeat(5000)));
    const byLength = await failure(readSourceText(`${base}/big`, { ...trusted, maxBytes: 1000 }));
    expect(byLength.code).toBe('SOURCE_TOO_LARGE');
    expect(byLength.message).toBe(`${base}/big: Content-Length 5000 is more than the limit of 1000 bytes`);

    routes.set('/endless', (_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024, 'y')), 1);
      res.on('close', () => clearInterval(timer));
    });
    const streamed = await failure(readSourceText(`${base}/endless`, { ...trusted, maxBytes: 100_000 }));
    expect(streamed.code).toBe('SOURCE_TOO_LARGE');
    expect(streamed.message).toBe(`${base}/endless: more than 100000 bytes`);
  });

  it('bounds a gzip bomb served over HTTP', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
    routes.set('/bomb', (_req, res) => res.writeHead(200).end(bomb));
    const error = await failure(readSourceText(`${base}/bomb`, { ...trusted, maxBytes: 256 * 1024 }));
    expect(error.code).toBe('SOURCE_TOO_LARGE');
    expect(error.message).toMatch(/: more than 262144 bytes once decompressed$/);
  });

  it('times out on a server that never answers, and on a body that stalls', async () => {
    routes.set('/silent', () => {});
    const silent = await failure(readSourceText(`${base}/silent`, { ...trusted, timeoutMs: 200 }));
    expect(silent.code).toBe('SOURCE_TIMEOUT');
    expect(silent.message).toBe(`${base}/silent: not read completely within 200 ms`);

    routes.set('/stall', (_req, res) => {
      res.writeHead(200, { 'content-length': 100 });
      res.write('first bytes');
    });
    const started = Date.now();
    const stalled = await failure(readSourceText(`${base}/stall`, { ...trusted, timeoutMs: 300 }));
    expect(stalled.code).toBe('SOURCE_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a connection lost mid-body as unreadable', async () => {
    routes.set('/cut', (_req, res) => {
      res.writeHead(200, { 'content-length': 1000 });
      res.write('only a part', () => res.destroy());
    });
    const error = await failure(readSourceText(`${base}/cut`, trusted));
    expect(error.code).toBe('SOURCE_UNREADABLE');
    expect(error.message).toMatch(new RegExp(`^${base}/cut: connection lost while reading`));
  });

  it('follows redirects up to the limit and gives up on a loop', async () => {
    routes.set('/a', (_req, res) => res.writeHead(301, { location: '/b' }).end());
    routes.set('/b', (_req, res) => res.writeHead(302, { location: `${base}/c` }).end());
    routes.set('/c', (_req, res) => res.writeHead(200).end('arrived'));
    const result = await readSourceText(`${base}/a`, trusted);
    expect(!result.notModified && [result.text, result.metadata.finalUrl]).toEqual(['arrived', `${base}/c`]);

    const tooFar = await failure(readSourceText(`${base}/a`, { ...trusted, maxRedirects: 1 }));
    expect(tooFar.message).toBe(`${base}/a: more than 1 redirects`);

    routes.set('/loop', (_req, res) => res.writeHead(307, { location: '/loop' }).end());
    const loop = await failure(readSourceText(`${base}/loop`, trusted));
    expect(loop.code).toBe('SOURCE_UNREADABLE');
    expect(loop.message).toBe(`${base}/loop: more than 5 redirects`);
    expect(hits.get('/loop')).toBe(6);
  });

  it('retries 5xx, 429 and dropped connections, then succeeds', async () => {
    routes.set('/flaky', (_req, res, hit) => {
      if (hit === 1)
        res.destroy(); // a network error
      else if (hit === 2) res.writeHead(503).end();
      else if (hit === 3) res.writeHead(429, { 'retry-after': '0' }).end();
      else res.writeHead(200).end('finally');
    });
    expect(await text(`${base}/flaky`, { ...trusted, retries: 3 })).toBe('finally');
    expect(hits.get('/flaky')).toBe(4);
  });

  it('gives up after the retries, and never retries a 4xx', async () => {
    routes.set('/down', (_req, res) => res.writeHead(502, 'Bad Gateway').end());
    const down = await failure(readSourceText(`${base}/down`, { ...trusted, retries: 2 }));
    expect(down.message).toBe(`${base}/down: HTTP 502 Bad Gateway (after 3 attempts)`);
    expect(hits.get('/down')).toBe(3);

    routes.set('/gone', (_req, res) => res.writeHead(410, 'Gone').end());
    const gone = await failure(readSourceText(`${base}/gone`, { ...trusted, retries: 2 }));
    expect(gone.message).toBe(`${base}/gone: HTTP 410 Gone`);
    expect(hits.get('/gone')).toBe(1);
  });

  it('sends conditional headers and reports notModified on 304', async () => {
    routes.set('/cond', (req, res) => {
      if (req.headers['if-none-match'] === '"v7"') res.writeHead(304, { etag: '"v7"' }).end();
      else res.writeHead(200, { etag: '"v7"' }).end('body');
    });
    const previous = { etag: '"v7"', lastModified: 'Tue, 01 Apr 2025 10:00:00 GMT' };
    const result = await openSource(`${base}/cond`, { ...trusted, previous });
    expect(result.notModified).toBe(true);
    expect(result.metadata.etag).toBe('"v7"');
    expect(requests[0]?.headers['if-modified-since']).toBe(previous.lastModified);
    expect(await text(`${base}/cond`)).toBe('body');
  });

  it('never prints credentials of the URL in errors', async () => {
    const error = await failure(
      readSourceText(`http://me:hunter2@127.0.0.1:${port}/x?password=hunter2&type=m3u`, trusted),
    );
    expect(error.message).toBe(`http://***@127.0.0.1:${port}/x?password=***&type=m3u: HTTP 404 Not Found`);
    expect(requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from('me:hunter2').toString('base64')}`);
  });

  it('refuses an unsupported Content-Encoding and can be cancelled', async () => {
    routes.set('/br', (_req, res) => res.writeHead(200, { 'content-encoding': 'br' }).end('....'));
    const br = await failure(readSourceText(`${base}/br`, trusted));
    expect(br.message).toBe(`${base}/br: unsupported Content-Encoding "br"`);

    routes.set('/wait', () => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const cancelled = await failure(readSourceText(`${base}/wait`, { ...trusted, signal: controller.signal }));
    expect(cancelled.message).toBe(`${base}/wait: read cancelled`);
  });
});

describe('SSRF guard', () => {
  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port}/list.m3u`],
    ['::1', () => `http://[::1]:${port}/list.m3u`],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port}/list.m3u`],
    ['decimal loopback', () => `http://2130706433:${port}/list.m3u`],
    ['10.0.0.1', () => 'http://10.0.0.1/list.m3u'],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['localhost (by DNS)', () => `http://localhost:${port}/list.m3u`],
  ])('refuses %s without connecting', async (_name, location) => {
    routes.set('/list.m3u', (_req, res) => res.end('#EXTM3U\n'));
    const error = await failure(readSourceText(location()));
    expect(error.code).toBe('SOURCE_FORBIDDEN');
    expect(error.message).toMatch(/is a private or local address, which this source may not reach$/);
    expect(requests).toHaveLength(0);
  });

  it('checks every redirect target too', async () => {
    // Allow only the test server's address, as an operator allow-list would.
    const options: SourceOptions = { allowAddress: (address) => address === '127.0.0.1' };
    routes.set('/to-private', (_req, res) => res.writeHead(302, { location: 'http://10.0.0.1/x' }).end());
    routes.set('/to-loopback', (_req, res) => res.writeHead(302, { location: `http://127.0.0.2:${port}/x` }).end());
    routes.set('/to-file', (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
    for (const path of ['/to-private', '/to-loopback', '/to-file']) {
      const error = await failure(readSourceText(`${base}${path}`, options));
      expect(error.code).toBe('SOURCE_FORBIDDEN');
    }
    expect(requests.map((r) => r.url)).toEqual(['/to-private', '/to-loopback', '/to-file']);
  });

  it('refuses schemes other than http(s)', async () => {
    const error = await failure(readSourceText('gopher://127.0.0.1/x'));
    expect(error.code).toBe('SOURCE_FORBIDDEN');
  });
});
