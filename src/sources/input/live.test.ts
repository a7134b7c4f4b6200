import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MarqueeError } from '../../errors.js';
import { openLive } from './live.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let base: string;
let routes: Map<string, Handler>;
let requests: IncomingMessage[];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req);
    const handler = routes.get((req.url ?? '/').split('?')[0]!);
    if (handler) handler(req, res);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  routes = new Map();
  requests = [];
});

/** A stream that writes `chunk` every `everyMs` until `stopAfter` writes, then holds the connection open. */
function live(chunk: Buffer, everyMs: number, stopAfter = Number.POSITIVE_INFINITY): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp2t' });
    let n = 0;
    const timer = setInterval(() => {
      if (n++ >= stopAfter) return clearInterval(timer);
      res.write(chunk);
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

async function drain(body: NodeJS.ReadableStream, seen: Buffer[]): Promise<unknown> {
  return pipeline(
    body,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        seen.push(chunk);
        done();
      },
    }),
  ).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('openLive', () => {
  it('sends the given headers on every hop and hands the bytes on in bounded chunks', async () => {
    routes.set('/redirect', (_req, res) => res.writeHead(302, { location: '/live.ts' }).end());
    routes.set('/live.ts', live(Buffer.alloc(100_000, 0x47), 10, 3));
    const source = await openLive(`${base}/redirect`, {
      allowPrivateAddresses: true,
      stallTimeoutMs: 300,
      maxChunkBytes: 32_768,
      userAgent: 'Player/1.0',
      headers: { referer: 'https://tv.example/' },
    });
    expect(source.url).toBe(`${base}/live.ts`);
    expect(source.metadata.contentType).toBe('video/mp2t');
    const seen: Buffer[] = [];
    const error = await drain(source.body, seen);
    // Three writes, then silence: the stream stalls.
    expect(seen.reduce((n, c) => n + c.length, 0)).toBe(300_000);
    expect(Math.max(...seen.map((c) => c.length))).toBeLessThanOrEqual(32_768);
    expect(error).toBeInstanceOf(MarqueeError);
    expect((error as MarqueeError).code).toBe('SOURCE_TIMEOUT');
    expect((error as MarqueeError).message).toMatch(/no bytes for 0.3 s/);
    for (const req of requests) {
      expect(req.headers['user-agent']).toBe('Player/1.0');
      expect(req.headers.referer).toBe('https://tv.example/');
    }
    expect(requests).toHaveLength(2);
  });

  it('refuses a private address unless allowed, on the first hop and on a redirect', async () => {
    await expect(openLive(`${base}/live.ts`, { stallTimeoutMs: 1000 })).rejects.toMatchObject({
      code: 'SOURCE_FORBIDDEN',
    });
    routes.set('/away', (_req, res) => res.writeHead(302, { location: 'http://127.0.0.2:9/x.ts' }).end());
    await expect(
      openLive(`${base}/away`, { stallTimeoutMs: 1000, privateUrls: [`${base}/away`] }),
    ).rejects.toMatchObject({ code: 'SOURCE_FORBIDDEN' });
    expect(requests).toHaveLength(1);
  });

  it('fails on an answer that is not 2xx, naming the status', async () => {
    routes.set('/gone.ts', (_req, res) => res.writeHead(403).end('no'));
    await expect(openLive(`${base}/gone.ts`, { allowPrivateAddresses: true, stallTimeoutMs: 500 })).rejects.toThrow(
      /HTTP 403/,
    );
  });

  it('times out an answer that never comes', async () => {
    routes.set('/silent.ts', () => {});
    const started = Date.now();
    await expect(
      openLive(`${base}/silent.ts`, { allowPrivateAddresses: true, stallTimeoutMs: 200, openTimeoutMs: 300 }),
    ).rejects.toMatchObject({ code: 'SOURCE_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('close() ends the read quietly and closes the socket', async () => {
    routes.set('/live.ts', live(Buffer.alloc(1_000, 0x47), 5));
    const source = await openLive(`${base}/live.ts`, { allowPrivateAddresses: true, stallTimeoutMs: 1000 });
    const seen: Buffer[] = [];
    const done = drain(source.body, seen);
    await new Promise((resolve) => setTimeout(resolve, 50));
    source.close();
    const error = await done;
    expect((error as { code?: string } | undefined)?.code ?? 'ERR_STREAM_PREMATURE_CLOSE').toBe(
      'ERR_STREAM_PREMATURE_CLOSE',
    );
    expect(seen.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const open = await new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)));
    expect(open).toBe(0);
  });
});
