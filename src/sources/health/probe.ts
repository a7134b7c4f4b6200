/**
 * One stream's check: the least that tells "plays" from "does not". The stream is read through the
 * shared source reader (sources/input: the address guard on every hop, redirects, its deadline),
 * with the stream's own User-Agent and Referer, at most `headBytes` (64 KiB) of it and no retries:
 * - HLS: the playlist must be an `#EXTM3U` with segments, or a master whose first variant (the
 *   one players start with, or the next when it fails) is such a media playlist. No segment is read.
 * - anything else: the first bytes must be a media container (sniff.ts), never an HTML or JSON page.
 * Failures are classified by what was seen: `dead` (refused, no such host, 404, 410, 5xx, broken),
 * `blocked` (401, 403, 451), `not-media` (a page or unknown content), `timeout` (no answer, or a
 * stream that hangs). Some are not verdicts on the stream and are skipped: a scheme no check exists
 * for (rtmp, udp), an address the guard refuses, a host answering 429, a cancelled pass.
 */
import { isMarqueeError } from '../../errors.js';
import {
  type HostMemo,
  readSourceHead,
  type SourceHead,
  type SourceNotModified,
  type SourceOptions,
  type SourceValidators,
  validatorsOf,
} from '../input/index.js';
import { type Sniffed, sniff } from './sniff.js';

/** The User-Agent of a check, unless the stream names its own. */
export const HEALTH_USER_AGENT = 'Marquee (Stremio add-on server; stream health check)';
/** Bytes of an answer read at most. */
export const HEAD_BYTES = 64 * 1024;
/** Variants of an HLS master tried at most (the first, and the next when it fails). */
const MAX_VARIANTS = 2;

/** A stream to check: its URL and the request headers its playlist gave it. */
export interface StreamTarget {
  readonly url: string;
  readonly userAgent?: string;
  readonly referrer?: string;
  /** Validators of its last good check: an answer "not modified" (304) is good again, with no body. */
  readonly previous?: SourceValidators;
}

export type HealthState = 'ok' | 'dead' | 'blocked' | 'not-media' | 'timeout';

/**
 * How a request failed to reach its server at all: its name did not resolve (`no-such-host`:
 * the resolver answered that there is none; `lookup-failed`: it could not answer), the
 * connection was refused, the network or host was unreachable, or no connection was made in time.
 */
export type NetworkFailure = 'no-such-host' | 'lookup-failed' | 'refused' | 'unreachable' | 'no-connection';

/** A verdict on a stream. */
export interface ProbeVerdict {
  readonly state: HealthState;
  /** What was seen, for people: `HTTP 404`, `an HTML page`, `MPEG-TS`, `no answer within 8 s`. */
  readonly detail: string;
  /** Set when the request that failed reached no server (see NetworkFailure). */
  readonly network?: NetworkFailure;
  /** The HTTP status of the answer that decided, when there was one. */
  readonly status?: number;
  /** ETag / Last-Modified of a good answer, sent back next time. */
  readonly validators?: SourceValidators;
}

/** No verdict: the stream was not (fully) checked, and keeps what it had. */
export interface ProbeSkip {
  readonly skipped: 'unsupported' | 'private' | 'rate-limited' | 'cancelled';
  readonly detail: string;
}

export type ProbeOutcome = ProbeVerdict | ProbeSkip;

export interface ProbeOptions {
  /** The whole check (every request of it) within this. */
  readonly timeoutMs: number;
  /** Default HEALTH_USER_AGENT. */
  readonly userAgent?: string;
  readonly allowPrivateAddresses?: boolean;
  readonly allowAddress?: (address: string) => boolean;
  /** What this pass learned of unreachable hosts (sources/input hosts.ts). */
  readonly hosts?: HostMemo;
  /** Before each request (every hop): the pass waits here for a connection slot to its host. */
  readonly beforeRequest?: (url: URL, signal: AbortSignal) => void | Promise<void>;
  readonly signal?: AbortSignal;
  /** Default HEAD_BYTES. */
  readonly headBytes?: number;
}

/**
 * Check one stream.
 * @example const outcome = await probeStream({ url: 'https://x/live.m3u8' }, { timeoutMs: 8000 })
 */
export async function probeStream(target: StreamTarget, options: ProbeOptions): Promise<ProbeOutcome> {
  if (!/^https?:\/\//i.test(target.url)) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target.url)?.[1]?.toLowerCase() ?? 'this kind of';
    return { skipped: 'unsupported', detail: `${scheme} URLs are not checked` };
  }
  const end = Date.now() + options.timeoutMs;
  const first = await read(target.url, target, options, end, target.previous);
  if ('verdict' in first) return first.verdict;
  if (first.answer.notModified) {
    return {
      state: 'ok',
      detail: 'not modified since the last good check',
      status: 304,
      ...withValidators(target.previous),
    };
  }
  const answer = first.answer;
  const seen = sniff(answer.head, true);
  if (seen.kind !== 'hls-master') return verdictOf(seen, answer);
  const tried: string[] = [];
  let failure: ProbeOutcome | undefined;
  for (const [index, uri] of seen.variants.slice(0, MAX_VARIANTS).entries()) {
    const variant = resolveVariant(uri, answer.url);
    const name = `variant ${index + 1}`;
    if (variant === undefined) {
      failure ??= { state: 'not-media', detail: `HLS master: ${name} is not an http(s) URL` };
      tried.push(`${name}: not an http(s) URL`);
      continue;
    }
    const result = await read(variant, target, options, end);
    const outcome: ProbeOutcome =
      'verdict' in result
        ? result.verdict
        : result.answer.notModified
          ? { state: 'ok', detail: 'not modified' }
          : variantVerdict(sniff(result.answer.head, true));
    if ('skipped' in outcome) return outcome;
    if (outcome.state === 'ok') {
      const before = tried.length > 0 ? `${tried.join('; ')}; ` : '';
      return { state: 'ok', detail: `HLS master: ${before}${name}: ${outcome.detail}`, status: answer.status };
    }
    failure ??= outcome;
    tried.push(`${name}: ${outcome.detail}`);
  }
  const state = failure && 'state' in failure ? failure.state : 'not-media';
  return { state, detail: `HLS master: ${tried.join('; ')}` };
}

type Answer = (SourceHead & { readonly status: number }) | SourceNotModified;

/** One request of a check: its first bytes, or a verdict (or skip) from how it failed. */
async function read(
  url: string,
  target: StreamTarget,
  options: ProbeOptions,
  end: number,
  previous?: SourceValidators,
): Promise<{ answer: Answer } | { verdict: ProbeOutcome }> {
  const timeoutMs = Math.max(1, end - Date.now());
  const sourceOptions: SourceOptions = {
    userAgent: target.userAgent ?? options.userAgent ?? HEALTH_USER_AGENT,
    ...(target.referrer !== undefined ? { headers: { referer: target.referrer } } : {}),
    allowPrivateAddresses: options.allowPrivateAddresses ?? false,
    allowFiles: false,
    ...(options.allowAddress ? { allowAddress: options.allowAddress } : {}),
    timeoutMs,
    // A little under the check's own deadline, so a check that never connected (a lookup or a
    // connection that hangs) says so, rather than "no answer within".
    connectTimeoutMs: Math.max(1, Math.min(timeoutMs - 100, 10_000)),
    retries: 0,
    ...(options.hosts ? { hosts: options.hosts } : {}),
    ...(options.beforeRequest ? { beforeRequest: options.beforeRequest } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(previous ? { previous } : {}),
  };
  try {
    const answer = await readSourceHead(url, {
      ...sourceOptions,
      headBytes: options.headBytes ?? HEAD_BYTES,
      enough: (head) => sniff(head, false).kind !== 'undecided',
    });
    return { answer: answer.notModified ? answer : { ...answer, status: answer.status ?? 200 } };
  } catch (error) {
    if (options.signal?.aborted) return { verdict: { skipped: 'cancelled', detail: 'the pass was stopped' } };
    return { verdict: failureVerdict(error, options.timeoutMs) };
  }
}

/** The verdict on a first answer that is not a master playlist. */
function verdictOf(seen: Sniffed, answer: SourceHead & { readonly status: number }): ProbeVerdict {
  const status = answer.status;
  const validators = withValidators(validatorsOf(answer.metadata));
  switch (seen.kind) {
    case 'media':
      return { state: 'ok', detail: seen.format, status, ...validators };
    case 'hls-media':
      return { state: 'ok', detail: `HLS playlist with ${segments(seen.segments)}`, status, ...validators };
    case 'not-media': {
      const type = answer.metadata.contentType;
      return { state: 'not-media', detail: type ? `${seen.what} (${clip(type)})` : seen.what, status };
    }
    default:
      return { state: 'not-media', detail: 'content of no known media format', status };
  }
}

/** A variant must be a media playlist. */
function variantVerdict(seen: Sniffed): ProbeVerdict {
  if (seen.kind === 'hls-media') return { state: 'ok', detail: `${segments(seen.segments)}` };
  if (seen.kind === 'hls-master') return { state: 'not-media', detail: 'another master playlist' };
  if (seen.kind === 'not-media') return { state: 'not-media', detail: seen.what };
  return { state: 'not-media', detail: 'not an HLS media playlist' };
}

const RETRY_LATER = 429;

/** How a request failed, as a verdict: by its HTTP status, else by what the connection did. */
function failureVerdict(error: unknown, timeoutMs: number): ProbeOutcome {
  if (isMarqueeError(error, 'SOURCE_TIMEOUT')) {
    if (error.message.includes('no connection within'))
      return { state: 'timeout', detail: 'no connection in time', network: 'no-connection' };
    return { state: 'timeout', detail: `no answer within ${seconds(timeoutMs)}` };
  }
  if (isMarqueeError(error, 'SOURCE_FORBIDDEN')) {
    if (error.message.includes('private or local address')) {
      return { skipped: 'private', detail: 'a private or local address (sources.allowPrivate allows it)' };
    }
    return { state: 'dead', detail: 'redirected to a URL that is not http(s)' };
  }
  const status = isMarqueeError(error) ? error.details?.status : undefined;
  if (typeof status === 'number') {
    if (status === RETRY_LATER) return { skipped: 'rate-limited', detail: 'HTTP 429: the host asks to slow down' };
    const state: HealthState = status === 401 || status === 403 || status === 451 ? 'blocked' : 'dead';
    return { state, detail: `HTTP ${status}`, status };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/more than \d+ redirects/.test(message)) return { state: 'dead', detail: 'too many redirects' };
  if (message.includes('unsupported Content-Encoding'))
    return { state: 'not-media', detail: 'an unknown Content-Encoding' };
  const icy = icyVerdict(error);
  if (icy !== undefined) return icy;
  const code = causeCode(error);
  if (code !== undefined) {
    const network = NETWORK_CODES[code];
    return {
      state: code.startsWith('HPE_') ? 'not-media' : 'dead',
      detail: CODE_WORDS[code] ?? describeCode(code),
      ...(network ? { network } : {}),
    };
  }
  if (message.includes('connection lost while reading')) return { state: 'dead', detail: 'connection lost' };
  return { state: 'dead', detail: 'could not be read' };
}

const CODE_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'name lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
};

/** System errors by which a request reached no server. */
const NETWORK_CODES: Readonly<Record<string, NetworkFailure>> = {
  ENOTFOUND: 'no-such-host',
  EAI_AGAIN: 'lookup-failed',
  EAI_FAIL: 'lookup-failed',
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENETDOWN: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ETIMEDOUT: 'no-connection',
};

function describeCode(code: string): string {
  if (code.startsWith('HPE_')) return `not an HTTP answer (${code})`;
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `TLS: ${code}`;
  return code;
}

/**
 * A SHOUTcast v1 server answers `ICY 200 OK` where HTTP says `HTTP/1.0 200 OK`. Node's parser
 * refuses that status line, but players (mpv/ffmpeg, ExoPlayer's OkHttp, VLC) read it as HTTP, so
 * it is judged by its status and by whatever audio came with the headers: a radio stream is not
 * "not media" for its status line. Undefined when the failure was not an ICY answer.
 */
function icyVerdict(error: unknown): ProbeVerdict | undefined {
  const packet = causeField(error, 'rawPacket');
  if (!Buffer.isBuffer(packet)) return undefined;
  const status = /^ICY (\d{3})\b/.exec(packet.subarray(0, 16).toString('latin1'))?.[1];
  if (status === undefined) return undefined;
  const code = Number(status);
  if (code !== 200) {
    const state: HealthState = code === 401 || code === 403 || code === 451 ? 'blocked' : 'dead';
    return { state, detail: `ICY ${code}`, status: code };
  }
  const end = packet.indexOf('\r\n\r\n');
  const body = end < 0 ? Buffer.alloc(0) : packet.subarray(end + 4);
  const seen = body.length > 0 ? sniff(body, false) : { kind: 'undecided' as const };
  if (seen.kind === 'not-media') return { state: 'not-media', detail: `ICY 200: ${seen.what}`, status: code };
  if (seen.kind === 'media') return { state: 'ok', detail: `ICY (SHOUTcast) stream: ${seen.format}`, status: code };
  return { state: 'ok', detail: 'ICY (SHOUTcast) stream', status: code };
}

/** The first `code` of a system error along the error's causes. */
/** A field of the first error along the causes that has it. */
function causeField(error: unknown, field: string): unknown {
  let at: unknown = error;
  for (let depth = 0; depth < 5 && at !== null && typeof at === 'object'; depth++) {
    if (field in at) return (at as Record<string, unknown>)[field];
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

function causeCode(error: unknown): string | undefined {
  let at: unknown = error;
  for (let depth = 0; depth < 5 && at !== null && typeof at === 'object'; depth++) {
    const code = (at as { code?: unknown }).code;
    // A MarqueeError's own code says only that the read failed: the system error is its cause.
    if (!isMarqueeError(at) && typeof code === 'string') return code;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

function resolveVariant(uri: string, base: string): string | undefined {
  try {
    const url = new URL(uri, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The `validators` field of an outcome: sent back by the next check, when there are any. */
function withValidators(validators: SourceValidators | undefined): { validators?: SourceValidators } {
  return validators ? { validators } : {};
}

const segments = (n: number) => `${n} segment${n === 1 ? '' : 's'}`;
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);
