import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MarqueeError } from '../errors.js';
import type { CoreRequest, CoreResponse, RequestHandler } from './types.js';

function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      reject(new MarqueeError('BAD_REQUEST', `request body over ${maxBytes} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        req.destroy();
        reject(new MarqueeError('BAD_REQUEST', `request body over ${maxBytes} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    // The client hung up before its body arrived: its fault, not the server's (no 500, no stack).
    const closed = () =>
      reject(
        Object.assign(new MarqueeError('BAD_REQUEST', 'the client closed the connection before the body arrived'), {
          clientClosed: true,
        }),
      );
    req.on('aborted', closed);
    req.on('error', closed);
    req.on('close', () => {
      if (!req.complete) closed();
    });
  });
}

/**
 * A Node request as the core sees it: a class rather than an object literal with closures per
 * request, and the client's address read only when asked (rate limits, logs).
 */
class NodeRequest implements CoreRequest {
  readonly method: string;
  readonly url: string;
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
  }

  get protocol(): 'http' | 'https' {
    return 'encrypted' in this.#req.socket && this.#req.socket.encrypted ? 'https' : 'http';
  }

  get remoteAddress(): string | undefined {
    return this.#req.socket.remoteAddress || undefined;
  }

  header(name: string): string | undefined {
    const value = this.#req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  readBody(maxBytes: number): Promise<Uint8Array> {
    return readBody(this.#req, maxBytes);
  }
}

/** Writes a core response to Node's; a pooled body goes back once its last byte was handed to the OS. */
function writeResponse(res: ServerResponse, method: string, response: CoreResponse): void {
  const release = response.release;
  // 'finish': the last byte was handed to the OS. A response cut short ('close' alone) may
  // still have a write queued, so its body is left to the garbage collector instead.
  if (release !== undefined) res.once('finish', release);
  res.writeHead(response.status, response.headers);
  res.end(method === 'HEAD' ? undefined : response.body);
}

function writeFailure(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
  res.end('Internal server error');
}

/**
 * Adapt the core handler to a Node `request` listener. An answer ready at once (a cached page)
 * is written with no closure made for it: the hot path allocates the request view and nothing else.
 */
export function toNodeListener(handler: RequestHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const request = new NodeRequest(req);
    let result: CoreResponse | Promise<CoreResponse>;
    try {
      result = handler(request);
    } catch {
      writeFailure(res);
      return;
    }
    if (result instanceof Promise) {
      result.then(
        (response) => writeResponse(res, request.method, response),
        () => writeFailure(res),
      );
    } else {
      writeResponse(res, request.method, result);
    }
  };
}

/** While closing, how often connections whose requests were answered are closed. */
const CLOSE_POLL_MS = 20;

/** Connections one address may hold at once (`security.maxConnectionsPerAddress`). */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;

export interface ListenOptions {
  readonly port?: number;
  readonly host?: string;
  /**
   * Connections one client address may hold open at once; past it new ones are closed at once.
   * Default 64; 0 turns the cap off. With `trustProxy`, requests in flight per forwarded address.
   */
  readonly maxConnectionsPerAddress?: number;
  /** Behind a reverse proxy: count clients by X-Forwarded-For, not by the proxy's connections. */
  readonly trustProxy?: boolean;
}

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  /** `http://host:port` */
  readonly url: string;
  /** Stop accepting, let in-flight requests finish (up to `graceMs`), then close every connection. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Serve the handler on a port. `port: 0` picks a free one (tests).
 *
 * @example const running = await listen(createRequestHandler(addon), { port: 7000, host: '127.0.0.1' });
 */
export async function listen(handler: RequestHandler, options: ListenOptions = {}): Promise<RunningServer> {
  const cap = options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
  const perAddress = new Map<string, number>();
  const take = (address: string): boolean => {
    const n = perAddress.get(address) ?? 0;
    if (n >= cap) return false;
    perAddress.set(address, n + 1);
    return true;
  };
  const give = (address: string) => {
    const n = (perAddress.get(address) ?? 1) - 1;
    if (n <= 0) perAddress.delete(address);
    else perAddress.set(address, n);
  };
  const listener = toNodeListener(handler);
  const server = createServer(
    {
      keepAliveTimeout: 5_000,
      requestTimeout: 30_000,
      headersTimeout: 15_000,
      // How often the timeouts above are enforced (Node's default, 30 s, lets idle sockets pile up).
      connectionsCheckingInterval: 2_000,
    },
    (req, res) => {
      if (cap > 0 && options.trustProxy) {
        // Behind a proxy every connection is the proxy's: the cap counts each client's requests
        // in flight, by the address the proxy forwards.
        const forwarded = String(req.headers['x-forwarded-for'] ?? '')
          .split(',')[0]
          ?.trim();
        const address = forwarded || req.socket.remoteAddress || '';
        if (!take(address)) {
          res.writeHead(503, { 'retry-after': '5', connection: 'close', 'content-type': 'text/plain' });
          res.end('Too many requests from this address');
          return;
        }
        res.once('close', () => give(address));
      }
      listener(req, res);
    },
  );
  if (cap > 0 && !options.trustProxy) {
    // One address may hold `cap` connections; past that a new one is closed at once, so idle
    // connections from one host cannot take every file descriptor.
    server.on('connection', (socket) => {
      const address = socket.remoteAddress ?? '';
      if (!take(address)) {
        socket.destroy();
        return;
      }
      socket.once('close', () => give(address));
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 7000, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    port: address.port,
    url: `http://${host}:${address.port}`,
    async close(graceMs = 10_000) {
      // Requests in flight are not counted per request (a listener on every response cost the
      // cached-page path about 1%): once no longer listening, a connection whose request was
      // answered is idle, and idle connections are closed every CLOSE_POLL_MS until none is left.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const poll = setInterval(() => server.closeIdleConnections(), CLOSE_POLL_MS);
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      try {
        await Promise.race([closed, grace]);
      } finally {
        clearInterval(poll);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
