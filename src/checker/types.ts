/**
 * The checker's data: findings, the report `marquee check` prints or emits as JSON, and the
 * options that bound a run. Everything here is plain JSON-serialisable data.
 */

/** The checks, in the order the summary table lists them. Ids are stable: scripts read `--json`. */
export const CHECKS = [
  { id: 'manifest', title: 'Manifest' },
  { id: 'catalog-feed', title: 'Catalog feeds' },
  { id: 'catalog-paging', title: 'Catalog paging' },
  { id: 'catalog-genre', title: 'Genre filters' },
  { id: 'catalog-search', title: 'Search' },
  { id: 'guide', title: 'Guide days' },
  { id: 'meta', title: 'Item details (meta)' },
  { id: 'stream', title: 'Streams' },
  { id: 'subtitles', title: 'Subtitles' },
  { id: 'addon-catalog', title: 'Add-on catalogs' },
  { id: 'not-found', title: '404 on undeclared paths' },
  { id: 'cors', title: 'CORS' },
  { id: 'cache', title: 'Cache-Control' },
  { id: 'http', title: 'Response time and size' },
  { id: 'crawl', title: 'Crawl bounds' },
] as const;

export type CheckId = (typeof CHECKS)[number]['id'];

export type Severity = 'error' | 'warning' | 'info';

/** Where a finding was seen: a request path and, for a body, the JSON path inside it. */
export interface FindingPlace {
  readonly path: string;
  readonly jsonPath?: string;
}

/**
 * One problem or note. `effect` says what the real client does about it where a test shows it
 * (test/checker-client.test.ts), else the rule and its source ("spec: …"). The report groups the
 * same rule with the same message: `count` places, `examples` the first three of them.
 */
export interface Finding {
  readonly check: CheckId;
  readonly severity: Severity;
  /** Stable rule id (`stream.title+description`, `http.status`); docs/checker.md lists them. */
  readonly rule?: string;
  /** The request path relative to the add-on (`/catalog/movie/top/skip=100.json`). */
  readonly path: string;
  /** JSON path inside that request's body (`$.metas[3].poster`), when the finding is about the body. */
  readonly jsonPath?: string;
  readonly message: string;
  readonly effect: string;
  /** In a report: how many places share this rule and message (1 when omitted). */
  readonly count?: number;
  /** In a report, when `count` > 1: up to three places, the first being `path`/`jsonPath`. */
  readonly examples?: readonly FindingPlace[];
}

export interface CheckSummary {
  readonly id: CheckId;
  readonly title: string;
  /** fail: errors; warn: warnings only; pass: it ran and found no error or warning; skip: nothing to check. */
  readonly status: 'pass' | 'warn' | 'fail' | 'skip';
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** The first grouped findings (errors first), at most 50; errors/warnings/infos count every place. */
  readonly findings: readonly Finding[];
  /** Grouped findings counted but not listed. */
  readonly omitted: number;
}

export interface Spread {
  readonly p50: number;
  readonly max: number;
}

export interface RequestStats {
  /** Requests sent, the manifest included. */
  readonly count: number;
  /** Requests that got no usable answer (timeout, network error, body over the size limit). */
  readonly failed: number;
  readonly timeMs: Spread;
  readonly bytes: Spread & { readonly total: number };
  readonly slowest?: { readonly path: string; readonly ms: number };
  readonly largest?: { readonly path: string; readonly bytes: number };
}

export interface CheckReport {
  /** The manifest URL as checked (a `stremio://` link is read as https). */
  readonly url: string;
  /** False when any finding is an error, or when the check could not run (`fatal`). */
  readonly ok: boolean;
  /** Why the check could not run at all (bad URL, manifest unreachable or not JSON). The CLI exits 2. */
  readonly fatal?: string;
  readonly addon?: { readonly id: string; readonly name: string; readonly version: string };
  /** False when a bound (requests, time, pages) or cancellation cut the crawl short; see the crawl check. */
  readonly complete: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly totals: { readonly errors: number; readonly warnings: number; readonly infos: number };
  readonly checks: readonly CheckSummary[];
  readonly requests: RequestStats;
}

export interface CheckProgress {
  /** Requests answered (or failed) so far. */
  readonly done: number;
  /** The request budget (`maxRequests`). */
  readonly limit: number;
  readonly path: string;
  readonly status?: number;
  readonly ms: number;
}

/** A fetch with the subset of the standard signature the checker uses. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface CheckOptions {
  /** Most requests for the whole run, the manifest included (default 300). */
  readonly maxRequests?: number;
  /** Requests in flight at once (default 4). */
  readonly concurrency?: number;
  /** Requests started per second at most (default 10): the checker must not hammer someone's server. */
  readonly rateLimit?: number;
  /** Per request, body included (default 10 000 ms). */
  readonly timeoutMs?: number;
  /** Whole run (default 120 000 ms); past it, in-flight requests are dropped and the report says so. */
  readonly maxDurationMs?: number;
  /** Pages per catalog feed and per guide day (default 20). */
  readonly maxPages?: number;
  /** Items whose meta, streams and subtitles are requested (default 20). */
  readonly sampleSize?: number;
  /** Genres probed per catalog (default 30). */
  readonly maxGenres?: number;
  /** A body above this is cut off and reported (default 16 MiB). */
  readonly maxBodyBytes?: number;
  /** A response slower than this is a warning (default 5 000 ms). */
  readonly slowMs?: number;
  /** Report only these checks (default: all); the crawl is the same, the exit code counts only these. */
  readonly only?: readonly CheckId[];
  /** Items that exist, checked like catalog items (meta, streams of the item or its first episode). */
  readonly ids?: ReadonlyArray<{ readonly type: string; readonly id: string }>;
  /** The clock for guide days (default Date.now). */
  readonly now?: () => number;
  readonly fetch?: FetchLike;
  readonly onProgress?: (progress: CheckProgress) => void;
  /** Aborting stops the crawl; the report of what was checked so far is still returned. */
  readonly signal?: AbortSignal;
  /**
   * Which resolved addresses are loopback, private or link-local: a check that starts on a public
   * address never follows a redirect to one (it reports it), one that starts on a private address
   * may. Default: the rule of the sources' SSRF guard. For tests, to play a public add-on on
   * 127.0.0.1; `marquee check` never sets it.
   */
  readonly isPrivateAddress?: (address: string) => boolean;
}

export type ResolvedOptions = Required<Omit<CheckOptions, 'onProgress' | 'signal' | 'isPrivateAddress'>> &
  Pick<CheckOptions, 'onProgress' | 'signal' | 'isPrivateAddress'>;

export const DEFAULT_OPTIONS = {
  maxRequests: 300,
  concurrency: 4,
  rateLimit: 10,
  timeoutMs: 10_000,
  maxDurationMs: 120_000,
  maxPages: 20,
  sampleSize: 20,
  maxGenres: 30,
  maxBodyBytes: 16 * 1024 * 1024,
  slowMs: 5_000,
  only: [] as readonly CheckId[],
  ids: [] as ReadonlyArray<{ readonly type: string; readonly id: string }>,
};

/**
 * The `marquee check` flag of each option a report's notes name, so a note's advice can be
 * followed from the command line ("raise maxGenres, --max-genres").
 */
export const OPTION_FLAGS = {
  maxRequests: '--max-requests',
  concurrency: '--concurrency',
  rateLimit: '--rate',
  timeoutMs: '--timeout',
  maxDurationMs: '--max-duration',
  maxPages: '--max-pages',
  sampleSize: '--sample',
  maxGenres: '--max-genres',
  maxBodyBytes: '--max-body-bytes',
  slowMs: '--slow',
} as const satisfies Record<Exclude<keyof typeof DEFAULT_OPTIONS, 'only' | 'ids'>, string>;

/** "raise maxPages (--max-pages)": the advice of a note whose bound cut the crawl. */
export const raise = (option: keyof typeof OPTION_FLAGS): string => `raise ${option} (${OPTION_FLAGS[option]})`;
