/**
 * Per-address rate limiting behind a reverse proxy, over real sockets. The proxy here does what
 * nginx's `proxy_add_x_forwarded_for` does: it appends the address it saw to whatever
 * X-Forwarded-For the client sent. So only the last entry is an address someone trustworthy
 * wrote; the first is the client's to choose, and limiting by it let a client escape the limit
 * by sending a new X-Forwarded-For with every request. (Off by default and the plain limit:
 * test/server.test.ts.)
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleAddon } from '../../examples/example-addon.js';
import { createRequestHandler, listen, type RunningServer } from '../../src/server/index.js';
import { httpRequest } from '../helpers/http.js';

let behindProxy: RunningServer;
let direct: RunningServer;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  const limit = { perMinute: 60, burst: 3 };
  behindProxy = await listen(createRequestHandler(createExampleAddon(), { trustProxy: true, rateLimit: limit }), {
    port: 0,
  });
  direct = await listen(createRequestHandler(createExampleAddon(), { rateLimit: limit }), { port: 0 });
  proxy = createServer((req, res) => {
    const seen = req.socket.remoteAddress ?? '';
    const forwarded = req.headers['x-forwarded-for'];
    const upstream = request(
      {
        host: '127.0.0.1',
        port: behindProxy.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, 'x-forwarded-for': forwarded ? `${forwarded}, ${seen}` : seen },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await behindProxy.close(100);
  await direct.close(100);
});

async function statuses(base: string, n: number, forwardedFor: (i: number) => string | undefined): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const xff = forwardedFor(i);
    out.push((await httpRequest(base, '/manifest.json', xff ? { headers: { 'x-forwarded-for': xff } } : {})).status);
  }
  return out;
}

describe('rate limiting behind a proxy (trustProxy)', () => {
  it('limits a client that sends a new X-Forwarded-For with every request', async () => {
    const got = await statuses(proxyUrl, 6, (i) => `203.0.113.${i + 1}`);
    expect(got).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('gives each address the proxy saw its own allowance', async () => {
    // As the proxy would forward two clients at different addresses.
    const a = await statuses(behindProxy.url, 4, () => 'spoofed, 198.51.100.1');
    const b = await statuses(behindProxy.url, 4, () => '198.51.100.2');
    expect(a).toEqual([200, 200, 200, 429]);
    expect(b).toEqual([200, 200, 200, 429]);
  });
});

describe('rate limiting without trustProxy', () => {
  it('ignores X-Forwarded-For entirely and limits by the socket address', async () => {
    const got = await statuses(direct.url, 5, (i) => `203.0.113.${i + 1}`);
    expect(got).toEqual([200, 200, 200, 429, 429]);
  });
});
