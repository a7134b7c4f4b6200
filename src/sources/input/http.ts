/**
 * Reading a source over http(s) with node:http: redirects followed by hand (each hop passes
 * the SSRF guard), retries with exponential backoff and jitter on network errors, 5xx and 429
 * (never on other 4xx), conditional requests, and a size check on Content-Length up front.
 */
import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isMarqueeError, MarqueeError } from '../../errors.js';
import { type Deadline, sleep } from './deadline.js';
import { type AddressPolicy, addressPolicy, checkLiteralHost, guardedLookup } from './guard.js';
import { type HostMemo, UNREACHABLE_CONNECT_TIMEOUT_MS } from './hosts.js';
import { redactLocation } from './location.js';
import type { RawSource, SourceMetadata, SourceNotModified, SourceOptions } from './types.js';

export const DEFAULT_USER_AGENT = 'Marquee (Stremio add-on server; source reader)';

/** Network failures worth another attempt; DNS "no such host" and TLS errors are not. */
const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** A server's Retry-After is honoured up to this; longer waits are left to the next refresh. */
const MAX_RETRY_AFTER_MS = 60_000;

export interface HttpLimits {
  readonly maxBytes: number;
  readonly connectTimeoutMs: number;
  readonly maxRedirects: number;
  readonly retries: number;
  readonly retryDelayMs: number;
}

/**
 * Open `start` and return its body once a 2xx answer arrives, or `notModified` on 304.
 * @example const raw = await openHttp(new URL('https://x/list.m3u'), 'https://x/list.m3u', options, limits, deadline)
 */
export async function openHttp(
  start: URL,
  label: string,
  options: SourceOptions,
  limits: HttpLimits,
  deadline: Deadline,
): Promise<RawSource | SourceNotModified> {
  const headers: Record<string, string> = {
    ...extraHeaders(options.headers),
    'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
    'accept-encoding': 'gzip',
    accept: '*/*',
  };
  if (options.previous?.etag) headers['if-none-match'] = options.previous.etag;
  if (options.previous?.lastModified) headers['if-modified-since'] = options.previous.lastModified;

  let url = start;
  let redirects = 0;
  let failures = 0;
  const hosts = options.hosts;
  // A host that did not answer a source read before this one is asked once, briefly.
  const retries = hosts?.unreachable(start) ? 0 : limits.retries;
  for (;;) {
    const hop = url.href === start.href ? label : `${label} (redirected to ${redactLocation(url)})`;
    const connectTimeoutMs = hosts?.unreachable(url)
      ? Math.min(limits.connectTimeoutMs, UNREACHABLE_CONNECT_TIMEOUT_MS)
      : limits.connectTimeoutMs;
    // Each hop judged on its own: a URL allowed to reach private addresses admits itself only.
    const allow = addressPolicy(options, url);
    let response: IncomingMessage;
    try {
      await options.beforeRequest?.(url, deadline.signal);
      response = await send(url, headers, allow, hop, connectTimeoutMs, deadline.signal, hosts);
    } catch (error) {
      if (deadline.signal.aborted) throw deadline.signal.reason;
      hosts?.failed(url, error);
      if (!isRetryable(error) || failures >= retries) throw asUnreadable(error, hop, failures);
      await sleep(backoff(limits.retryDelayMs, failures++), deadline.signal);
      continue;
    }

    const status = response.statusCode ?? 0;
    if (REDIRECTS.has(status) && response.headers.location !== undefined) {
      response.destroy();
      if (++redirects > limits.maxRedirects) {
        throw new MarqueeError('SOURCE_UNREADABLE', `${label}: more than ${limits.maxRedirects} redirects`);
      }
      url = nextUrl(url, response.headers.location, hop);
      continue;
    }
    if (status === 304) {
      response.destroy();
      return { notModified: true, metadata: metadataOf(response, label, url) };
    }
    if (status === 429 || status >= 500) {
      response.destroy();
      if (failures >= limits.retries) throw httpError(hop, response, failures);
      const wait = Math.max(backoff(limits.retryDelayMs, failures++), retryAfterMs(response));
      await sleep(wait, deadline.signal);
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw httpError(hop, response, failures);
    }
    return bodyOf(response, label, url, limits.maxBytes, deadline);
  }
}

/** The caller's extra headers, names lower-cased so the reader's own always win. */
function extraHeaders(given: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(given ?? {})) out[name.toLowerCase()] = value;
  return out;
}

function send(
  url: URL,
  headers: Record<string, string>,
  allow: AddressPolicy,
  label: string,
  connectTimeoutMs: number,
  signal: AbortSignal,
  hosts: HostMemo | undefined,
): Promise<IncomingMessage> {
  checkLiteralHost(url, allow, label);
  return new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // A fresh socket per request (agent: false): a pooled one would skip the guarded lookup.
    const req = request(url, { headers, agent: false, lookup: guardedLookup(allow, label, hosts), signal }, resolve);
    const connectTimer = setTimeout(() => {
      req.destroy(new MarqueeError('SOURCE_TIMEOUT', `${label}: no connection within ${connectTimeoutMs} ms`));
    }, connectTimeoutMs);
    req.once('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    req.once('response', () => clearTimeout(connectTimer));
    // `on`, not `once`: a second socket error after the first must not crash the process.
    req.on('error', (error) => {
      clearTimeout(connectTimer);
      reject(error);
    });
    req.once('close', () => clearTimeout(connectTimer));
    req.end();
  });
}

function bodyOf(response: IncomingMessage, label: string, url: URL, maxBytes: number, deadline: Deadline): RawSource {
  const metadata = metadataOf(response, label, url);
  const encoding = (response.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip') {
    response.destroy();
    throw new MarqueeError('SOURCE_UNREADABLE', `${label}: unsupported Content-Encoding "${encoding}"`);
  }
  if (metadata.byteLength !== undefined && metadata.byteLength > maxBytes) {
    response.destroy();
    throw new MarqueeError(
      'SOURCE_TOO_LARGE',
      `${label}: Content-Length ${metadata.byteLength} is more than the limit of ${maxBytes} bytes`,
    );
  }
  const onAbort = () => response.destroy(deadline.signal.reason);
  deadline.signal.addEventListener('abort', onAbort, { once: true });
  async function* body(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) yield chunk;
    } catch (error) {
      if (deadline.signal.aborted) throw deadline.signal.reason;
      const reason = error instanceof Error ? error.message : String(error);
      throw new MarqueeError('SOURCE_UNREADABLE', `${label}: connection lost while reading (${reason})`, {
        cause: error,
      });
    } finally {
      deadline.signal.removeEventListener('abort', onAbort);
    }
  }
  return {
    notModified: false,
    body: body(),
    metadata,
    destroy: () => response.destroy(),
    closed: socketClosed(response),
    url,
    status: response.statusCode ?? 200,
  };
}

/** Resolves once the answer's socket is closed (each read has a socket of its own: agent false). */
function socketClosed(response: IncomingMessage): Promise<void> {
  const socket = response.socket;
  if (socket === null || socket.closed) return Promise.resolve();
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

function metadataOf(response: IncomingMessage, label: string, url: URL): SourceMetadata {
  const metadata: { -readonly [K in keyof SourceMetadata]: SourceMetadata[K] } = {
    location: label,
    finalUrl: redactLocation(url),
  };
  const length = Number(response.headers['content-length']);
  // With Content-Encoding the length is of the compressed bytes, which is what maxBytes caps.
  if (response.headers['content-length'] !== undefined && Number.isSafeInteger(length)) metadata.byteLength = length;
  if (response.headers.etag) metadata.etag = response.headers.etag;
  if (response.headers['last-modified']) metadata.lastModified = response.headers['last-modified'];
  if (response.headers['content-type']) metadata.contentType = response.headers['content-type'];
  if (response.headers['content-range']) metadata.contentRange = response.headers['content-range'];
  return metadata;
}

function nextUrl(from: URL, location: string, label: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch (cause) {
    throw new MarqueeError('SOURCE_UNREADABLE', `${label}: redirect to an invalid URL`, { cause });
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new MarqueeError('SOURCE_FORBIDDEN', `${label}: redirect to a ${next.protocol} URL refused`);
  }
  // Credentials written in the first URL are for its origin only.
  if (next.origin !== from.origin) {
    next.username = '';
    next.password = '';
  }
  return next;
}

function isRetryable(error: unknown): boolean {
  if (isMarqueeError(error)) return error.code === 'SOURCE_TIMEOUT'; // a connect timeout
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && RETRYABLE_CODES.has(code);
}

function asUnreadable(error: unknown, label: string, failures: number): MarqueeError {
  if (isMarqueeError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new MarqueeError('SOURCE_UNREADABLE', `${label}: ${reason}${attempts(failures)}`, { cause: error });
}

function httpError(label: string, response: IncomingMessage, failures: number): MarqueeError {
  const text = `HTTP ${response.statusCode} ${response.statusMessage ?? ''}`.trim();
  return new MarqueeError('SOURCE_UNREADABLE', `${label}: ${text}${attempts(failures)}`, {
    details: { status: response.statusCode },
  });
}

function attempts(failures: number): string {
  return failures > 0 ? ` (after ${failures + 1} attempts)` : '';
}

/** Exponential backoff with "equal jitter": half fixed, half random, so clients spread out. */
function backoff(baseMs: number, failures: number): number {
  const ceiling = baseMs * 2 ** failures;
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function retryAfterMs(response: IncomingMessage): number {
  const header = response.headers['retry-after'];
  if (header === undefined) return 0;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : 0;
}
