import { unknownDirectives } from './cache-directives.js';
import type { Exchange } from './requester.js';
import { type Finding, OPTION_FLAGS } from './types.js';

/**
 * HTTP-level rules for one answer: CORS, Cache-Control, time and size. Status, JSON and body
 * rules depend on what was asked and live with the caller (ask.ts).
 */

/** What the cached answer holds: programme data changes every few minutes, errors must not stick. */
export type CacheKind = 'data' | 'guide';

const YEAR_SECONDS = 365 * 24 * 3600;
/** Above this, an answer for the guide outlives the client's 15-minute refresh by far. */
const GUIDE_MAX_AGE = 3600;
/** An error answer cached longer than this keeps failing after the add-on recovered. */
const ERROR_MAX_AGE = 60;
/** One answer above this is a warning: the client parses it on the main thread of a TV or phone. */
export const LARGE_BODY_BYTES = 5 * 1024 * 1024;

/**
 * CORS on an answer the client reads: the web client runs in a browser, which hides the body
 * unless the add-on allows any origin (or echoes the web client's).
 *
 * @example corsFinding(exchange) // undefined when `Access-Control-Allow-Origin: *`
 */
export function corsFinding(exchange: Exchange): Finding | undefined {
  const value = exchange.headers?.get('access-control-allow-origin');
  if (value === '*' || value === 'https://web.stremio.com') return undefined;
  const effect =
    'Fetch standard (CORS): a browser page such as Stremio Web cannot read an answer without Access-Control-Allow-Origin: * (or its own origin)';
  return {
    check: 'cors',
    severity: 'error',
    rule: 'cors.allow-origin',
    path: exchange.path,
    message:
      value === null || value === undefined
        ? 'has no Access-Control-Allow-Origin header: send Access-Control-Allow-Origin: *'
        : `Access-Control-Allow-Origin is ${JSON.stringify(value.slice(0, 60))}: send *`,
    effect,
  };
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const DIRECTIVE = new RegExp(`^${TOKEN}(?:=(?:${TOKEN}|${QUOTED}))?$`);

/**
 * True when a Cache-Control value has the syntax of RFC 9111 §5.2: directives separated by
 * commas, each a token with an optional `=token` or `="quoted string"` argument.
 *
 * @example isCacheControlSyntax('max-age=300, public') // true; 'max-age=300 public' and 'max-age: 300' are false
 */
export function isCacheControlSyntax(value: string): boolean {
  const parts = value.split(',').map((p) => p.trim());
  return parts.every((p, i) => (p === '' ? i > 0 && i === parts.length - 1 : DIRECTIVE.test(p)));
}

/** The max-age of a Cache-Control value, NaN when it is there but not whole seconds, undefined when absent. */
function maxAge(value: string): number | undefined {
  for (const part of value.split(',')) {
    const [name = '', arg] = part.trim().split('=');
    if (name.toLowerCase() !== 'max-age') continue;
    const text = (arg ?? '').replace(/^"|"$/g, '');
    return /^\d+$/.test(text) ? Number(text) : Number.NaN;
  }
  return undefined;
}

/**
 * Cache-Control rules: present on answers, whole seconds, not a year (milliseconds by mistake),
 * short on guide data and on errors.
 *
 * @example cacheFindings(exchange, 'guide')
 */
export function cacheFindings(exchange: Exchange, kind: CacheKind): Finding[] {
  const value = exchange.headers?.get('cache-control') ?? null;
  const ok = exchange.status === 200;
  const at = (severity: Finding['severity'], message: string, effect: string, rule = 'cache.lifetime'): Finding => ({
    check: 'cache',
    severity,
    rule,
    path: exchange.path,
    message,
    effect,
  });
  if (value === null) {
    return ok
      ? [
          at(
            'warning',
            'has no Cache-Control header: send max-age=N (seconds), e.g. max-age=300, public',
            'RFC 9111: without a lifetime, browsers and CDNs may not reuse the answer, so visits ask the add-on again',
            'cache.missing',
          ),
        ]
      : [];
  }
  if (!isCacheControlSyntax(value)) {
    return [
      at(
        'warning',
        `${JSON.stringify(value.slice(0, 80))} is not Cache-Control syntax: directives are separated by commas, each name or name=value (e.g. max-age=300, public)`,
        'RFC 9111 §5.2: caches ignore directives they cannot parse, so the answer may not be cached as meant',
        'cache.syntax',
      ),
    ];
  }
  return [...lifetimeFindings(value, ok, exchange, kind, at), ...unknownDirectives(exchange.path, value)];
}

function lifetimeFindings(
  value: string,
  ok: boolean,
  exchange: Exchange,
  kind: CacheKind,
  at: (severity: Finding['severity'], message: string, effect: string, rule?: string) => Finding,
): Finding[] {
  const seconds = maxAge(value);
  if (seconds === undefined) return [];
  if (Number.isNaN(seconds)) {
    return [
      at(
        'warning',
        `${JSON.stringify(value.slice(0, 80))} has a max-age that is not whole seconds`,
        'RFC 9111 §1.2.2: a max-age that is not a whole number of seconds is invalid; caches treat the answer as stale',
        'cache.syntax',
      ),
    ];
  }
  if (!ok) {
    return seconds > ERROR_MAX_AGE && !/no-store/i.test(value)
      ? [
          at(
            'warning',
            `the HTTP ${exchange.status} answer may be cached for ${seconds} s: send no-store (or max-age ≤ ${ERROR_MAX_AGE}) on errors`,
            'RFC 9111: caches may keep serving the error for that long after the add-on has recovered',
          ),
        ]
      : [];
  }
  if (seconds > YEAR_SECONDS) {
    return [
      at(
        'warning',
        `max-age=${seconds} is over a year: cache lifetimes are seconds, not milliseconds`,
        'RFC 9111: caches may serve this answer for that long after it changes',
      ),
    ];
  }
  if (kind === 'guide' && seconds > GUIDE_MAX_AGE) {
    return [
      at(
        'warning',
        `max-age=${seconds} on programme data: the guide refreshes every 15 minutes; 300 is the suggested lifetime`,
        'spec: suggested cacheMaxAge for programme data is 300 (5 minutes); caches may serve an older schedule',
      ),
    ];
  }
  return [];
}

/**
 * Time and size of one answer.
 *
 * @example timingFindings(exchange, 5000)
 */
export function timingFindings(exchange: Exchange, slowMs: number): Finding[] {
  const out: Finding[] = [];
  if (exchange.ms > slowMs) {
    out.push({
      check: 'http',
      severity: 'warning',
      rule: 'http.slow',
      path: exchange.path,
      message: `took ${exchange.ms} ms, more than ${slowMs} ms (slowMs, ${OPTION_FLAGS.slowMs})`,
      effect: 'the client waits that long for this answer before it can show it',
    });
  }
  if (exchange.bytes > LARGE_BODY_BYTES) {
    out.push({
      check: 'http',
      severity: 'warning',
      rule: 'http.large',
      path: exchange.path,
      message: `is ${(exchange.bytes / 1048576).toFixed(1)} MiB: keep answers small (pages of at most 100 items, short descriptions)`,
      effect:
        'spec: a catalog page holds at most 100 items; large answers take long to load and parse on TVs and phones',
    });
  }
  return out;
}
