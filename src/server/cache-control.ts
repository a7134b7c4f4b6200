import type { CacheHints } from '../protocol/responses.js';

/** Cache lifetime of answers whose handler gave no hints: five minutes, as the spec suggests for programme data. */
export const DEFAULT_CACHE: CacheHints = { cacheMaxAge: 300 };

/** Errors must not be cached for long: the add-on may answer the same path correctly a moment later. */
export const ERROR_CACHE_CONTROL = 'no-store';

/**
 * The client's header form: `max-age=N, stale-while-revalidate=N, stale-if-error=N, public`.
 *
 * @example cacheControl({ cacheMaxAge: 300, staleRevalidate: 1800 }) // 'max-age=300, stale-while-revalidate=1800, public'
 */
export function cacheControl(hints: CacheHints): string {
  const parts: string[] = [];
  if (hints.cacheMaxAge !== undefined) parts.push(`max-age=${hints.cacheMaxAge}`);
  if (hints.staleRevalidate !== undefined) parts.push(`stale-while-revalidate=${hints.staleRevalidate}`);
  if (hints.staleError !== undefined) parts.push(`stale-if-error=${hints.staleError}`);
  if (parts.length === 0) return 'no-cache';
  parts.push('public');
  return parts.join(', ');
}
