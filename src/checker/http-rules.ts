import type { Exchange } from './requester.js';
import type { Finding } from './types.js';

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
  const effect = 'Stremio Web (a browser page) cannot read the answer, so users of the web client get nothing from it';
  return {
    check: 'cors',
    severity: 'error',
    path: exchange.path,
    message:
      value === null || value === undefined
        ? 'has no Access-Control-Allow-Origin header: send Access-Control-Allow-Origin: *'
        : `Access-Control-Allow-Origin is ${JSON.stringify(value.slice(0, 60))}: send *`,
    effect,
  };
}

/** The max-age of a Cache-Control value, NaN when it is there but not whole seconds, undefined when absent. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const DIRECTIVE = new RegExp(`^(${TOKEN})(?:=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))?$`);
const KNOWN = new Set([
  'max-age',
  's-maxage',
  'public',
  'private',
  'no-cache',
  'no-store',
  'no-transform',
  'must-revalidate',
  'proxy-revalidate',
  'must-understand',
  'immutable',
  'stale-while-revalidate',
  'stale-if-error',
]);

/** What is wrong with a Cache-Control value's syntax, or undefined (RFC 9111: `token[=token|"quoted"]`, comma-separated). */
function syntaxProblem(value: string): string | undefined {
  for (const raw of value.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const m = DIRECTIVE.exec(part);
    if (!m)
      return `is not valid: ${JSON.stringify(part.slice(0, 40))} is no directive (directives are comma-separated, as name or name=value)`;
    const name = m[1]!.toLowerCase();
    if (!KNOWN.has(name)) return `has an unknown directive ${JSON.stringify(name)} (a typo of max-age?)`;
  }
  return undefined;
}

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
  const at = (severity: Finding['severity'], message: string, effect: string): Finding => ({
    check: 'cache',
    severity,
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
            'browsers and CDNs cannot reuse the answer, so every visit asks the add-on again',
          ),
        ]
      : [];
  }
  const bad = syntaxProblem(value);
  if (bad !== undefined) {
    return [
      at(
        'warning',
        `Cache-Control ${JSON.stringify(value.slice(0, 80))} ${bad}`,
        'spec (RFC 9111 §5.2): caches ignore what they cannot parse, so the answer is not reused as meant',
      ),
    ];
  }
  const seconds = maxAge(value);
  if (seconds === undefined) return [];
  if (Number.isNaN(seconds)) {
    return [
      at(
        'warning',
        `${JSON.stringify(value.slice(0, 80))} has a max-age that is not whole seconds`,
        'caches ignore the directive',
      ),
    ];
  }
  if (!ok) {
    return seconds > ERROR_MAX_AGE && !/no-store/i.test(value)
      ? [
          at(
            'warning',
            `the HTTP ${exchange.status} answer may be cached for ${seconds} s: send no-store (or max-age ≤ ${ERROR_MAX_AGE}) on errors`,
            'caches keep serving the error after the add-on has recovered',
          ),
        ]
      : [];
  }
  if (seconds > YEAR_SECONDS) {
    return [
      at(
        'warning',
        `max-age=${seconds} is over a year: cache lifetimes are seconds, not milliseconds`,
        'clients and CDNs keep serving this answer long after it changes',
      ),
    ];
  }
  if (kind === 'guide' && seconds > GUIDE_MAX_AGE) {
    return [
      at(
        'warning',
        `max-age=${seconds} on programme data: the guide refreshes every 15 minutes; 300 is the suggested lifetime`,
        'schedule changes reach users late',
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
      path: exchange.path,
      message: `took ${exchange.ms} ms (more than ${slowMs} ms)`,
      effect: 'users look at a spinner that long; the board row or page appears late',
    });
  }
  if (exchange.bytes > LARGE_BODY_BYTES) {
    out.push({
      check: 'http',
      severity: 'warning',
      path: exchange.path,
      message: `is ${(exchange.bytes / 1048576).toFixed(1)} MiB: keep answers small (pages of at most 100 items, short descriptions)`,
      effect: 'slow to load and parse on TVs and phones',
    });
  }
  return out;
}
