/**
 * Property: whatever request arrives — random or mutated paths, broken percent-encoding, overlong
 * segments, unicode, `..`, NUL, huge config segments, unknown resources, any method, odd headers
 * — the server answers without a crash, without a 5xx and without internals (stack frames,
 * source paths, error class names, SQLite codes) in the body. Three thousand cases in-process
 * against the core serving the composed live-TV + library add-on, then a few hundred as raw bytes
 * over a real socket, where Node's own parser meets them first. The 100,000-case run is
 * bench/reliability/fuzz-requests.mjs.
 */
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerProblems, type FuzzRequest, requestArbitrary } from '../../bench/reliability/request-cases.mjs';
import { MarqueeError } from '../../src/errors.js';
import { type CoreRequest, listen, type RequestHandler, type RunningServer } from '../../src/server/index.js';
import { servedPaths } from './crawl.js';
import { createSite, memoryLogger, type Site } from './site.js';

let site: Site;
let known: string[];
const logger = memoryLogger();

beforeAll(async () => {
  site = await createSite();
  known = await servedPaths(site.handler());
});
afterAll(() => site.close());

/** The request as the Node adapter would give it to the core, body limit included. */
function coreRequest(r: FuzzRequest): CoreRequest {
  const body = Buffer.from(r.body ?? '');
  return {
    method: r.method,
    url: r.url,
    header: (name) => r.headers[name],
    remoteAddress: '127.0.0.1',
    readBody: async (max) => {
      if (body.byteLength > max) throw new MarqueeError('BAD_REQUEST', `request body over ${max} bytes`);
      return body;
    },
  };
}

describe('the in-process core', () => {
  it('answers 3,000 hostile requests without a 5xx or internals in the body', async () => {
    const handle: RequestHandler = site.handler({ logger });
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(fc, known), async (r) => {
        const response = await handle(coreRequest(r));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const wire = Buffer.from(response.body);
        const encoding = response.headers['content-encoding'];
        const bytes = encoding === 'gzip' ? gunzipSync(wire) : encoding === 'br' ? brotliDecompressSync(wire) : wire;
        const body = bytes.toString('utf8');
        expect(answerProblems({ status: response.status, headers: response.headers, body })).toEqual([]);
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        if (response.status === 200 && response.headers['content-type']?.startsWith('application/json')) {
          expect(() => JSON.parse(body)).not.toThrow();
        }
      }),
      { numRuns: 3_000, seed: Number(process.env.FUZZ_SEED ?? 20260301) },
    );
    expect(logger.records.filter((r) => r.level === 'error')).toEqual([]);
    // The cases reached handlers, not only the router: real answers, 404s, 400s and 405s all occur.
    for (const status of [200, 400, 404, 405]) expect(statuses.get(status) ?? 0).toBeGreaterThan(30);
  });
});

/** Sends `r` as raw bytes (whatever the request line holds) and reads the status line and body. */
function rawExchange(port: number, r: FuzzRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 5 s to ${r.method} ${r.url.slice(0, 100)}`));
    }, 5_000);
    const body = Buffer.from(r.body ?? '');
    const lines = [`${r.method} ${r.url} HTTP/1.1`];
    for (const [name, value] of Object.entries(r.headers)) if (value !== undefined) lines.push(`${name}: ${value}`);
    if (r.headers.host === undefined) lines.push('host: 127.0.0.1');
    lines.push(`content-length: ${body.byteLength}`, 'connection: close', '', '');
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]));
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    // A parser error may reset the connection after its 400: what was read counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

describe('a real socket', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await listen(site.handler({ logger }), { port: 0 });
  });
  afterAll(() => server.close(100));

  it('answers 300 hostile requests sent as raw bytes, and still serves afterwards', async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(requestArbitrary(fc, known), async (r) => {
        const answer = await rawExchange(server.port, r);
        // 0: Node's parser closed the connection without an answer (a request line it refuses).
        if (answer.status !== 0) answered++;
        expect(answerProblems({ status: answer.status, headers: {}, body: answer.body })).toEqual([]);
      }),
      { numRuns: 300, seed: Number(process.env.FUZZ_SEED ?? 20260301) },
    );
    expect(answered).toBeGreaterThan(250);
    const after = await rawExchange(server.port, {
      method: 'GET',
      url: '/manifest.json',
      headers: {},
      body: undefined,
    });
    expect(after.status).toBe(200);
    expect(logger.records.filter((r) => r.level === 'error')).toEqual([]);
  });
});
