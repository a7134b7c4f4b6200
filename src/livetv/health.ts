/**
 * A stream health pass over the store: the stream URLs of the chosen sources (every playlist by
 * default, Xtream accounts only when named: their panels count connections, and a check can cut a
 * viewer off) are checked by the health reader (sources/health), and what it found is written to
 * the store in one transaction. Serving reads it (health-view.ts); nothing is checked on a request.
 */
import { MarqueeError } from '../errors.js';
import {
  checkStreams,
  DEFAULT_PAUSE_MS,
  looksOffline,
  type OfflineFinding,
  type StreamCheck,
} from '../sources/health/index.js';
import type { HealthChange, HealthResult, HealthTarget, Store, StreamHealthState } from '../store/index.js';

/** The defaults of the `health.*` settings. */
export const HEALTH_DEFAULTS = {
  intervalHours: 6,
  concurrency: 16,
  perHost: 2,
  timeoutSeconds: 8,
  failuresBeforeDead: 2,
  /** Requests of one pass at most: a master playlist and its variant are two. */
  maxRequests: 50_000,
} as const;

export interface HealthPassOptions {
  /**
   * The sources whose streams are checked, by key (`sourceKey('playlist', location)`, as stored
   * with their streams). Default: every playlist, no Xtream account.
   */
  readonly sources?: readonly string[];
  readonly concurrency?: number;
  readonly perHost?: number;
  readonly timeoutSeconds?: number;
  /** Pause after each request to a host before the next one to it. Default 250 ms. */
  readonly pauseMs?: number;
  readonly maxRequests?: number;
  /**
   * May a check reach loopback and private addresses? A stream URL comes from a playlist's
   * content, not from the operator: `true`, or the URLs allowed (`sources.allowPrivate`). Default false.
   */
  readonly allowPrivate?: boolean | readonly string[];
  readonly signal?: AbortSignal;
  /** After each stream: how many are done of how many. */
  readonly onProgress?: (done: number, total: number) => void;
  /** How long to wait for another writer of the store. Default 60 s. */
  readonly lockTimeoutMs?: number;
}

type Counts = { ok: number; dead: number; blocked: number; notMedia: number; timeout: number };

export interface HealthPassResult {
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Stream URLs of the chosen sources. */
  readonly streams: number;
  /** Verdicts, by state. */
  readonly counts: Counts;
  /** Streams not checked this time, by why: they keep what they had. */
  readonly skipped: {
    readonly unsupported: number;
    readonly private: number;
    readonly rateLimited: number;
    readonly notStarted: number;
  };
  readonly requests: number;
  readonly budgetSpent: boolean;
  /** Streams whose state changed (a first check counts), oldest first. */
  readonly changes: readonly HealthChange[];
  /**
   * Set when the pass looked like one run on a machine that is offline (sources/health
   * offline.ts): nothing of it was recorded (`changes` is empty), every stream keeps what it had.
   */
  readonly offline?: OfflineFinding;
}

/**
 * Run one pass and record it. Throws IMPORT_FAILED when it cannot run (no stream to check, the
 * pass was stopped, the store could not take the results); what was recorded before stays. A
 * pass that looks like an offline machine's is returned with `offline` and not recorded.
 * @example const result = await runHealthPass(store, { concurrency: 16, perHost: 2 })
 */
export async function runHealthPass(store: Store, options: HealthPassOptions = {}): Promise<HealthPassResult> {
  const startedAt = Date.now();
  const chosen = new Set(
    options.sources ??
      store
        .sourceStates('livetv')
        .filter((s) => s.kind === 'playlist')
        .map((s) => s.key),
  );
  const all = store.healthTargets();
  if (all.length === 0) {
    throw new MarqueeError(
      'IMPORT_FAILED',
      `${store.file} holds no live-TV streams to check (run \`marquee import\` first)`,
    );
  }
  const targets = all.filter((t) => t.origins.some((o) => chosen.has(o)));
  if (targets.length === 0) {
    const legacy = all.every((t) => t.origins.length === 0);
    throw new MarqueeError(
      'IMPORT_FAILED',
      legacy
        ? `${store.file}: its streams were imported by an earlier Marquee and do not say which source they came from: import again, then check`
        : `no stream to check: ${all.length.toLocaleString('en-US')} streams, none from the sources checked (Xtream accounts are checked only when listed in health.sources)`,
    );
  }
  const allowed = privatePolicy(options.allowPrivate);
  let done = 0;
  const report = await checkStreams(
    targets.map((t) => ({ ...t, ...previousOf(t) })),
    {
      concurrency: options.concurrency ?? HEALTH_DEFAULTS.concurrency,
      perHost: options.perHost ?? HEALTH_DEFAULTS.perHost,
      pauseMs: options.pauseMs ?? DEFAULT_PAUSE_MS,
      maxRequests: options.maxRequests ?? HEALTH_DEFAULTS.maxRequests,
      timeoutMs: (options.timeoutSeconds ?? HEALTH_DEFAULTS.timeoutSeconds) * 1000,
      ...(options.signal ? { signal: options.signal } : {}),
      allowPrivateUrl: allowed,
      onChecked: () => options.onProgress?.(++done, targets.length),
    },
  );
  if (options.signal?.aborted) {
    throw new MarqueeError('IMPORT_FAILED', 'the health pass was stopped; the health of the last pass is kept');
  }
  const counts: Counts = { ok: 0, dead: 0, blocked: 0, notMedia: 0, timeout: 0 };
  const skipped = { unsupported: 0, private: 0, rateLimited: 0, notStarted: report.notStarted };
  const results: HealthResult[] = [];
  for (const check of report.checks) {
    const outcome = check.outcome;
    if ('skipped' in outcome) {
      if (outcome.skipped === 'rate-limited') skipped.rateLimited++;
      else if (outcome.skipped === 'private') skipped.private++;
      else if (outcome.skipped === 'unsupported') skipped.unsupported++;
      continue;
    }
    counts[outcome.state === 'not-media' ? 'notMedia' : outcome.state]++;
    results.push(resultOf(check, outcome.state, outcome.detail, outcome.validators));
  }
  const summary = {
    streams: targets.length,
    counts,
    skipped,
    requests: report.requests,
    budgetSpent: report.budgetSpent,
    rateLimitedHosts: report.rateLimitedHosts,
  };
  // This machine, not the streams: recorded, such a pass would retire every channel (issue 46).
  const offline = looksOffline(report.checks);
  if (offline) return { startedAt, finishedAt: Date.now(), ...summary, changes: [], offline };
  const changes = await store.recordHealthPass({
    startedAt,
    results,
    report: { ...summary, durationMs: Date.now() - startedAt },
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
  });
  return { startedAt, finishedAt: Date.now(), ...summary, changes };
}

/** Validators are sent back only for a stream whose last check was good. */
function previousOf(t: HealthTarget) {
  if (t.state !== 'ok' || (t.etag === undefined && t.lastModified === undefined)) return {};
  return {
    previous: {
      ...(t.etag !== undefined ? { etag: t.etag } : {}),
      ...(t.lastModified !== undefined ? { lastModified: t.lastModified } : {}),
    },
  };
}

function resultOf(
  check: StreamCheck,
  state: StreamHealthState,
  detail: string,
  validators: { etag?: string; lastModified?: string } | undefined,
): HealthResult {
  return {
    url: check.target.url,
    state,
    detail,
    at: check.at,
    ...(validators?.etag !== undefined ? { etag: validators.etag } : {}),
    ...(validators?.lastModified !== undefined ? { lastModified: validators.lastModified } : {}),
  };
}

function privatePolicy(allow: boolean | readonly string[] | undefined): (url: string) => boolean {
  if (allow === true) return () => true;
  if (Array.isArray(allow)) {
    const urls = new Set(allow);
    return (url) => urls.has(url);
  }
  return () => false;
}
