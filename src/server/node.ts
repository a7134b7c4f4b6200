import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { MarqueeError } from '../errors.js';
import { capConnections } from './node-cap.js';
import { listenRedirect } from './node-redirect.js';
import {
  readTlsPair,
  type TlsCertificateInfo,
  type TlsOptions,
  type TlsReloadEvent,
  watchTlsPair,
} from './node-tls.js';
import { FLAT_HEADERS } from './respond.js';
import type { BodyStream, CoreRequest, CoreResponse, RequestHandler } from './types.js';

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
  // A prepared answer's flat header list: node:http writes it without walking an object's keys.
  const flat = (response as CoreResponse & { readonly [FLAT_HEADERS]?: string[] })[FLAT_HEADERS];
  res.writeHead(response.status, flat ?? response.headers);
  if (response.stream !== undefined) {
    if (method === 'HEAD') res.end();
    else void writeStream(res, response.stream);
    return;
  }
  res.end(method === 'HEAD' ? undefined : response.body);
}

/**
 * A body that arrives over time, written with backpressure: the next chunk is asked for only once
 * the socket took the last one ('drain'), so a slow client holds one chunk, never a growing queue.
 * A client that goes away ends the iteration (`return()`); a body that fails mid-way closes the
 * connection (its headers are out: there is no status left to say it with).
 */
async function writeStream(res: ServerResponse, body: BodyStream): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  let closed = res.destroyed;
  let wake: (() => void) | undefined;
  const onClose = () => {
    closed = true;
    wake?.();
  };
  const onDrain = () => wake?.();
  res.on('close', onClose);
  res.on('drain', onDrain);
  const wait = () => new Promise<void>((resolve) => (wake = resolve));
  let pending: Promise<IteratorResult<Uint8Array>> | undefined;
  try {
    while (!closed) {
      // A live body may wait long for its next chunk: a client that leaves meanwhile is noticed at once.
      pending ??= iterator.next();
      const next = await Promise.race([pending, wait().then(() => undefined)]);
      wake = undefined;
      if (next === undefined) continue;
      pending = undefined;
      if (next.done) break;
      if (!res.write(next.value) && !closed) {
        await wait();
        wake = undefined;
      }
    }
    if (!closed) res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('close', onClose);
    res.off('drain', onDrain);
    // Not awaited: a generator waiting for its next chunk ends once that comes.
    iterator.return?.()?.catch(() => {});
  }
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
  const cached = handler.cached;
  return (req, res) => {
    if (cached !== undefined) {
      // A cached page straight from the request's own fields: no request view, no promise.
      const method = req.method ?? 'GET';
      const headers = req.headers;
      const hit = cached(method, req.url ?? '/', headers['accept-encoding'], headers['if-none-match']);
      if (hit !== undefined) {
        writeResponse(res, method, hit);
        return;
      }
    }
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
  /**
   * Serve HTTPS (HTTP/1.1 over TLS) with this certificate and key, read again when they change;
   * the same limits, caps and timeouts as plain HTTP.
   */
  readonly tls?: TlsOptions;
  /** With `tls`: also listen on this plain-HTTP port, answering every request with a redirect to https. */
  readonly httpsRedirectPort?: number;
  /**
   * The https address users reach the server at: the redirect port sends clients to its host.
   * Without it, to a name the certificate covers (never to the request's `Host`).
   */
  readonly publicUrl?: string;
}

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  /** `http://host:port`, or `https://host:port` with `tls` */
  readonly url: string;
  /** With `tls`: the certificate in use, and a check of its files now (SIGHUP) instead of at the next poll. */
  readonly tls?: {
    certificate(): TlsCertificateInfo;
    reload(): Promise<TlsReloadEvent | undefined>;
  };
  /** With `httpsRedirectPort`: the plain port that redirects to https. */
  readonly redirect?: { readonly port: number };
  /** Stop accepting, let in-flight requests finish (up to `graceMs`), then close every connection. */
  close(graceMs?: number): Promise<void>;
}

/** Node's connection timeouts: the same for plain HTTP, HTTPS and the redirect port. */
const TIMEOUTS: ServerOptions = {
  keepAliveTimeout: 5_000,
  requestTimeout: 30_000,
  headersTimeout: 15_000,
  // How often the timeouts above are enforced (Node's default, 30 s, lets idle sockets pile up).
  connectionsCheckingInterval: 2_000,
};
/**
 * A TLS handshake must be done within the time the request headers have: Node's default is 120 s,
 * which would let idle handshakes hold sockets eight times longer than idle plain connections.
 */
const HANDSHAKE_TIMEOUT_MS = 15_000;

/**
 * Serve the handler on a port. `port: 0` picks a free one (tests).
 *
 * @example const running = await listen(createRequestHandler(addon), { port: 7000, host: '127.0.0.1' });
 * @example await listen(handler, { port: 8443, host: '0.0.0.0', tls: { certFile: 'fullchain.pem', keyFile: 'key.pem' } });
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
  // The listener itself when no cap counts requests: one call less per request.
  const served =
    cap === 0 || !options.trustProxy
      ? listener
      : (req: IncomingMessage, res: ServerResponse) => {
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
          listener(req, res);
        };
  if (options.httpsRedirectPort !== undefined && options.tls === undefined) {
    throw new MarqueeError('INVALID_SETTINGS', 'a redirect to https needs a certificate (tls)');
  }
  const pair = options.tls ? await readTlsPair(options.tls.certFile, options.tls.keyFile) : undefined;
  // HTTP/1.1 over TLS (Node's https server offers no other protocol): the same listener and limits.
  const server: Server = pair
    ? (createHttpsServer(
        { ...TIMEOUTS, cert: pair.cert, key: pair.key, handshakeTimeout: HANDSHAKE_TIMEOUT_MS },
        served,
      ) as unknown as Server)
    : createServer(TIMEOUTS, served);
  const connections = cap > 0 && !options.trustProxy ? capConnections(server, cap) : undefined;
  const host = options.host ?? '127.0.0.1';
  await listenOn(server, options.port ?? 7000, host);
  const address = server.address() as AddressInfo;
  let certificate = pair?.info;
  let redirect: { server: Server; port: number; stop(): void } | undefined;
  try {
    if (options.httpsRedirectPort !== undefined) {
      const target = {
        ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
        names: () => certificate?.names ?? [],
        listenHost: host,
        httpsPort: address.port,
      };
      redirect = await listenRedirect(options.httpsRedirectPort, host, target, cap, TIMEOUTS);
    }
  } catch (error) {
    server.close();
    throw error;
  }
  const watch =
    pair && options.tls
      ? watchTlsPair(
          server as unknown as HttpsServer,
          {
            ...options.tls,
            onReload: (event) => {
              if (event.ok) certificate = event;
              options.tls?.onReload?.(event);
            },
          },
          pair,
        )
      : undefined;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    port: address.port,
    url: `${pair ? 'https' : 'http'}://${shownHost}:${address.port}`,
    ...(watch ? { tls: { certificate: () => certificate!, reload: () => watch.check() } } : {}),
    ...(redirect ? { redirect: { port: redirect.port } } : {}),
    async close(graceMs = 10_000) {
      watch?.stop();
      const redirected = redirect ? closeNow(redirect.server, redirect.stop) : Promise.resolve();
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
        connections?.stop();
      }
      server.closeAllConnections();
      await Promise.all([closed, redirected]);
    },
  };
}

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeNow(server: Server, stop: () => void): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  stop();
  return closed;
}
