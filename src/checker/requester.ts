import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isForbiddenAddress } from '../sources/input/index.js';
import type { AddonAddress } from './address.js';
import type { CheckProgress, FetchLike, RequestStats } from './types.js';
import { raise } from './types.js';

/**
 * The checker's only way out to the network: a GET client bounded in every direction the checked
 * add-on controls or the user asked for. Requests are started at most `rateLimit` per second, at
 * most `concurrency` at once, at most `maxRequests` in all, each within `timeoutMs` (body
 * included) and `maxBodyBytes`, and none after the run's deadline or cancellation.
 */

export type Outcome =
  /** An HTTP answer, whatever its status. */
  | 'response'
  | 'timeout'
  /** Connection refused or reset, DNS failure, TLS error. */
  | 'network'
  | 'too-large'
  /** Not sent or dropped because of our own bounds (budget, deadline, cancellation): not the add-on's fault. */
  | 'skipped'
  /** A redirect from the add-on's public address to a loopback, private or link-local one: not followed. */
  | 'private-redirect';

export interface Exchange {
  readonly path: string;
  readonly outcome: Outcome;
  readonly status?: number;
  readonly headers?: Headers;
  readonly text?: string;
  readonly ms: number;
  readonly bytes: number;
  /** Why the request failed or was skipped, in words. */
  readonly reason?: string;
}

export interface RequesterOptions {
  readonly address: AddonAddress;
  readonly fetch: FetchLike;
  readonly concurrency: number;
  readonly rateLimit: number;
  readonly timeoutMs: number;
  readonly maxRequests: number;
  readonly maxDurationMs: number;
  readonly maxBodyBytes: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: CheckProgress) => void;
  /**
   * Is this resolved address loopback, private, link-local (or another non-public one)? Default:
   * the sources' SSRF rule (`isForbiddenAddress`). Only tests pass another, to play a public add-on
   * on 127.0.0.1.
   */
  readonly isPrivateAddress?: (address: string) => boolean;
}

export interface Requester {
  /** GET an add-on path (`/catalog/movie/top.json`); never throws. */
  get(path: string): Promise<Exchange>;
  /** Why no further request will be sent (budget, deadline, cancelled), or undefined while they still are. */
  stopped(): string | undefined;
  stats(): RequestStats;
  /** Clear the deadline timer. */
  close(): void;
}

/** A browser-like Origin: the web client sends one, and some CORS setups answer only when they see it. */
const ORIGIN = 'https://web.stremio.com';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** As browsers' fetch: past 20 redirects a request fails. */
const MAX_REDIRECTS = 20;

/**
 * A bounded requester for one run.
 *
 * @example const requester = createRequester({ address, fetch, concurrency: 4, rateLimit: 10, timeoutMs: 10_000, maxRequests: 300, maxDurationMs: 120_000, maxBodyBytes: 1 << 24 });
 */
export function createRequester(options: RequesterOptions): Requester {
  const run = new AbortController();
  let stopReason: string | undefined;
  const stop = (reason: string) => {
    if (stopReason === undefined) stopReason = reason;
    run.abort();
  };
  const deadline = setTimeout(
    () => stop(`the run reached its time limit of ${options.maxDurationMs} ms: ${raise('maxDurationMs')} for more`),
    options.maxDurationMs,
  );
  deadline.unref?.();
  const onCancel = () => stop('the run was cancelled');
  if (options.signal?.aborted) onCancel();
  else options.signal?.addEventListener('abort', onCancel, { once: true });

  const isPrivate = options.isPrivateAddress ?? isForbiddenAddress;
  // Where the check starts decides where it may be sent: an add-on on a private address (one's own
  // network, a test) may redirect within it; one on a public address may not lead the checker
  // into the network it runs in (its answers are printed).
  let startPrivate: Promise<boolean> | undefined;
  const startsPrivate = () => {
    startPrivate ??= privateHost(new URL(options.address.manifestUrl), isPrivate);
    return startPrivate;
  };

  const interval = 1000 / options.rateLimit;
  let nextStart = 0;
  let active = 0;
  const waiting: Array<() => void> = [];
  let reserved = 0;
  let done = 0;
  const records: Array<{ path: string; ms: number; bytes: number; failed: boolean }> = [];

  async function slot(): Promise<void> {
    // A released slot is handed straight to the next waiter, so `active` never overshoots.
    if (active >= options.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    const now = performance.now();
    const at = Math.max(now, nextStart);
    nextStart = at + interval;
    if (at > now) await sleep(at - now, run.signal);
  }

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }

  async function get(path: string): Promise<Exchange> {
    if (stopReason !== undefined) return skipped(path, stopReason);
    if (reserved >= options.maxRequests) {
      stopReason ??= `the run reached its limit of ${options.maxRequests} requests: ${raise('maxRequests')} for more`;
      return skipped(path, stopReason);
    }
    reserved++;
    await slot();
    try {
      if (run.signal.aborted) return skipped(path, stopReason ?? 'stopped');
      const exchange = await send(path);
      if (exchange.outcome !== 'skipped') {
        done++;
        records.push({ path, ms: exchange.ms, bytes: exchange.bytes, failed: exchange.outcome !== 'response' });
        options.onProgress?.({
          done,
          limit: options.maxRequests,
          path,
          ms: exchange.ms,
          ...(exchange.status === undefined ? {} : { status: exchange.status }),
        });
      }
      return exchange;
    } finally {
      release();
    }
  }

  async function send(path: string): Promise<Exchange> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = AbortSignal.any([timeout, run.signal]);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failed = (outcome: Outcome, reason: string, extra: Partial<Exchange> = {}): Exchange => ({
      path,
      outcome,
      ms: elapsed(),
      bytes: 0,
      reason,
      ...extra,
    });
    try {
      // Redirects followed here, each target checked before it is asked.
      let url = new URL(options.address.resolve(path));
      let response: Response;
      for (let hops = 0; ; hops++) {
        response = await options.fetch(url.href, {
          signal,
          redirect: 'manual',
          headers: { origin: ORIGIN, 'user-agent': 'marquee-check' },
        });
        const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
        if (location === null) break;
        await response.body?.cancel().catch(() => undefined);
        if (hops >= MAX_REDIRECTS) return failed('network', `more than ${MAX_REDIRECTS} redirects`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return failed('network', `a redirect to an invalid URL (${JSON.stringify(location.slice(0, 100))})`);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          return failed('network', `a redirect to a ${next.protocol} URL, which is not followed`);
        }
        if (!(await startsPrivate()) && (await privateHost(next, isPrivate))) {
          return failed(
            'private-redirect',
            `HTTP ${response.status} redirects to ${next.origin}${next.pathname}, a loopback, private or link-local address: ` +
              'not followed, as the add-on is on a public address (nothing from there was read)',
            { status: response.status },
          );
        }
        url = next;
      }
      const head = { status: response.status, headers: response.headers };
      const body = await readBody(response, options.maxBodyBytes);
      if (body === undefined) {
        return failed(
          'too-large',
          `the body is over ${options.maxBodyBytes} bytes; reading stopped there: ${raise('maxBodyBytes')} to read more`,
          {
            ...head,
            bytes: options.maxBodyBytes,
          },
        );
      }
      return { path, outcome: 'response', ...head, text: body.text, ms: elapsed(), bytes: body.bytes };
    } catch (error) {
      if (timeout.aborted)
        return failed(
          'timeout',
          `no complete answer within ${options.timeoutMs} ms: ${raise('timeoutMs')} to wait longer`,
        );
      if (run.signal.aborted) return skipped(path, stopReason ?? 'stopped');
      return failed('network', describeNetworkError(error));
    }
  }

  return {
    get,
    stopped: () => stopReason,
    stats: () => summarise(records),
    close() {
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onCancel);
    },
  };
}

/**
 * Does `url`'s host name a private address (any of its addresses, as the SSRF guard of sources
 * judges a host)? A name that does not resolve is not: its request fails on its own.
 */
async function privateHost(url: URL, isPrivate: (address: string) => boolean): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return isPrivate(host);
  try {
    return (await lookup(host, { all: true })).some((entry) => isPrivate(entry.address));
  } catch {
    return false;
  }
}

function skipped(path: string, reason: string): Exchange {
  return { path, outcome: 'skipped', ms: 0, bytes: 0, reason };
}

/** The body as text, or undefined when it passes `max` bytes (the stream is cancelled there). */
async function readBody(response: Response, max: number): Promise<{ text: string; bytes: number } | undefined> {
  if (response.body === null) return { text: '', bytes: 0 };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return { text: new TextDecoder().decode(whole), bytes };
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `the request failed: ${code ?? message}`.slice(0, 200);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function summarise(records: ReadonlyArray<{ path: string; ms: number; bytes: number; failed: boolean }>): RequestStats {
  const answered = records.filter((r) => !r.failed);
  const times = answered.map((r) => r.ms).sort((a, b) => a - b);
  const sizes = answered.map((r) => r.bytes).sort((a, b) => a - b);
  const slowest = answered.reduce<(typeof answered)[number] | undefined>(
    (m, r) => (!m || r.ms > m.ms ? r : m),
    undefined,
  );
  const largest = answered.reduce<(typeof answered)[number] | undefined>(
    (m, r) => (!m || r.bytes > m.bytes ? r : m),
    undefined,
  );
  return {
    count: records.length,
    failed: records.length - answered.length,
    timeMs: { p50: median(times), max: times.at(-1) ?? 0 },
    bytes: { p50: median(sizes), max: sizes.at(-1) ?? 0, total: sizes.reduce((a, b) => a + b, 0) },
    ...(slowest ? { slowest: { path: slowest.path, ms: slowest.ms } } : {}),
    ...(largest ? { largest: { path: largest.path, bytes: largest.bytes } } : {}),
  };
}

function median(sorted: readonly number[]): number {
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
}
