/**
 * A Fetch handler (`(Request) => Response`, a Worker's `fetch`) served by node:http on
 * 127.0.0.1 port 0, as Node-based hosts of such handlers do: the request's body streamed in, the
 * response's headers and bytes written as they are (a compressed body is not compressed again).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface BridgeServer {
  readonly url: string;
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', base), {
    method: req.method ?? 'GET',
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

/** Serve `fetch` on 127.0.0.1, port 0. */
export async function serveFetch(fetch: (request: Request) => Promise<Response>): Promise<BridgeServer> {
  let base = '';
  const server = createServer(async (req, res) => {
    try {
      const response = await fetch(toRequest(req, base));
      const headers: Record<string, string[]> = {};
      response.headers.forEach((value, name) => {
        headers[name] = [...(headers[name] ?? []), value];
      });
      res.writeHead(response.status, headers);
      if (response.body === null) res.end();
      else res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
