import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve, sep } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body after undoing any content-encoding. */
  readonly body: Buffer;
  /** Bytes as they came over the wire. */
  readonly wireBytes: number;
  text(): string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  json(): any;
}

/** A raw HTTP request on a real socket; no client-side decoding beyond content-encoding. */
export function httpRequest(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const wire = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const body = encoding === 'gzip' ? gunzipSync(wire) : encoding === 'br' ? brotliDecompressSync(wire) : wire;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            wireBytes: wire.byteLength,
            text: () => body.toString('utf8'),
            json: () => JSON.parse(body.toString('utf8')),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** A static host over plain HTTP on 127.0.0.1: `folder`'s files as they are, `/` as index.html. */
export interface StaticHost {
  readonly base: string;
  close(): Promise<void>;
}

/**
 * Serves an exported folder as a static host would (HTML as text/html, the rest as JSON; 404
 * for what is not there or lies outside the folder).
 * @example const host = await serveFolder(out); await tab.goto(`${host.base}/`); await host.close();
 */
export async function serveFolder(folder: string): Promise<StaticHost> {
  const root = resolve(folder);
  const server = createServer((req, res) => {
    const path = req.url === '/' ? 'index.html' : decodeURIComponent((req.url ?? '').slice(1).split(/[?#]/)[0]!);
    const file = resolve(root, path);
    try {
      if (!file.startsWith(`${root}${sep}`)) throw new Error('outside the folder');
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': file.endsWith('.html') ? 'text/html' : 'application/json' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
