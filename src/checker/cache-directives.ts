/**
 * Cache-Control directives no cache knows, and the one each most likely means: a handler's cache
 * hint written into the header under its own name (`staleRevalidate=60`) is a common slip.
 */
import type { Finding } from './types.js';

/** The directives of RFC 9111 §5.2.2 and RFC 5861 (`stale-*`), and `immutable` (RFC 8246). */
const KNOWN_DIRECTIVES = [
  'max-age',
  's-maxage',
  'no-cache',
  'no-store',
  'no-transform',
  'must-revalidate',
  'proxy-revalidate',
  'must-understand',
  'private',
  'public',
  'immutable',
  'stale-while-revalidate',
  'stale-if-error',
] as const;

/**
 * Names a handler's cache hints go by (the SDK's `cacheMaxAge`, `staleRevalidate`, `staleError`)
 * and the spellings they are mistaken for, by the directive each means.
 */
const MEANT: Record<string, string> = {
  cachemaxage: 'max-age',
  maxage: 'max-age',
  stalerevalidate: 'stale-while-revalidate',
  stalewhilerevalidate: 'stale-while-revalidate',
  staleerror: 'stale-if-error',
  staleiferror: 'stale-if-error',
  nocache: 'no-cache',
  nostore: 'no-store',
  smaxage: 's-maxage',
  mustrevalidate: 'must-revalidate',
};

const squash = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

/**
 * A note for each directive no cache knows, naming the one it most likely means:
 * `staleRevalidate=60` (a cache hint's name written as a header) is `stale-while-revalidate=60`.
 *
 * @example unknownDirectives('/manifest.json', 'max-age=300, staleRevalidate=60')[0].message
 * // '"staleRevalidate=60" is not a Cache-Control directive: did you mean stale-while-revalidate=60?'
 */
export function unknownDirectives(path: string, value: string): Finding[] {
  const out: Finding[] = [];
  for (const part of value.split(',')) {
    const directive = part.trim();
    if (directive === '') continue;
    const [name = '', ...rest] = directive.split('=');
    if ((KNOWN_DIRECTIVES as readonly string[]).includes(name.toLowerCase())) continue;
    const meant = MEANT[squash(name)] ?? closestDirective(name);
    const argument = rest.length > 0 ? `=${rest.join('=')}` : '';
    out.push({
      check: 'cache',
      severity: 'info',
      rule: 'cache.unknown-directive',
      path,
      message: `${JSON.stringify(directive.slice(0, 60))} is not a Cache-Control directive${
        meant ? `: did you mean ${meant}${argument.slice(0, 30)}?` : ''
      }`,
      effect: 'RFC 9111 §5.2.3: caches ignore directives they do not know, so this one has no effect',
    });
  }
  return out;
}

/** The known directive one or two typing slips away (`max-ag`, `stale-while-revalidat`), if any. */
function closestDirective(name: string): string | undefined {
  const typed = squash(name);
  let best: { name: string; distance: number } | undefined;
  for (const known of KNOWN_DIRECTIVES) {
    const distance = editDistance(typed, squash(known));
    if (best === undefined || distance < best.distance) best = { name: known, distance };
  }
  return best !== undefined && best.distance <= Math.max(1, Math.floor(best.name.length / 5)) ? best.name : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}
