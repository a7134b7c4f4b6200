/**
 * What one import learned about the hosts its sources are on. A playlist may name a hundred
 * guides on one host (`x-tvg-url`); when that host is unreachable (its name does not resolve, it
 * refuses or drops connections), reading each guide as if nothing were known cost a lookup and a
 * connect timeout each: 101 guides on a host that did not resolve took 16 s, some lookups
 * waiting out a resolver's 5 s timeout. With the memo each source is still read, and judged, on
 * its own, but a name that did not resolve is not looked up again within the import (a negative
 * cache, as resolvers keep), and a host that did not answer is tried with a short connect
 * timeout and no retries.
 */

/** Connect timeout for a host that was unreachable earlier in the same import. */
export const UNREACHABLE_CONNECT_TIMEOUT_MS = 2_000;

/** Connection-level failures: the host, not the path, is the problem. */
const UNREACHABLE = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ETIMEDOUT',
]);

export interface HostMemo {
  /** True when `url`'s host and port did not answer earlier in this import. */
  unreachable(url: URL): boolean;
  /** Note a failure to reach `url`'s host; failures that are not the host's are ignored. */
  failed(url: URL, error: unknown): void;
  /** The lookup failure of `hostname` earlier in this import ("no such host"), to give again at once. */
  lookupFailure(hostname: string): Error | undefined;
  /** Note a lookup of `hostname` that found no such host. */
  lookupFailed(hostname: string, error: Error): void;
}

/**
 * A memo for one import (create one per import: a host down at 03:00 may be up at 09:00).
 * @example const hosts = createHostMemo(); await openSource(url, { hosts });
 */
export function createHostMemo(): HostMemo {
  const down = new Set<string>();
  const lookups = new Map<string, Error>();
  const key = (url: URL) => `${url.protocol}//${url.host}`;
  return {
    unreachable: (url) => down.has(key(url)),
    failed(url, error) {
      const code = (error as { code?: unknown } | null)?.code;
      // The connect timer's own error (http.ts) is a SOURCE_TIMEOUT raised before any answer.
      if ((typeof code === 'string' && UNREACHABLE.has(code)) || code === 'SOURCE_TIMEOUT') down.add(key(url));
    },
    lookupFailure: (hostname) => lookups.get(hostname.toLowerCase()),
    lookupFailed(hostname, error) {
      if ((error as { code?: unknown }).code === 'ENOTFOUND') lookups.set(hostname.toLowerCase(), error);
    },
  };
}
