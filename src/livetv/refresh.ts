/**
 * Scheduled refreshes: run a job every interval (jittered, so many servers started together do
 * not hit one IPTV provider at the same second), back off exponentially after failures (capped),
 * never run two at once. A failed run changes nothing served: imports are atomic.
 */
import { MarqueeError } from '../errors.js';
import type { Store } from '../store/index.js';
import { importLiveTv } from './import.js';
import type { LiveTvImportOptions, LiveTvImportResult, SourceState } from './types.js';

export interface RefresherOptions<T> {
  /** The job; `signal` is aborted by `stop()`. */
  readonly run: (signal: AbortSignal) => Promise<T>;
  /** Time between successful runs. */
  readonly intervalMs: number;
  readonly onResult?: (result: T) => void;
  /** `failures` counts consecutive failures; `retryInMs` is the delay before the next attempt. */
  readonly onError?: (error: unknown, info: { failures: number; retryInMs: number }) => void;
  /** First delay after a failure; doubles per consecutive failure. Default 1 minute. */
  readonly backoffMs?: number;
  /** Longest delay after failures. Default `intervalMs`. */
  readonly maxBackoffMs?: number;
  /** Each delay is moved by up to ± this fraction. Default 0.1. */
  readonly jitter?: number;
  /** Delay before the first run. Default `intervalMs` (the caller has just imported). */
  readonly firstDelayMs?: number;
  /** Random source in [0, 1), for tests. */
  readonly random?: () => number;
}

export interface Refresher {
  /** Runs the job now, or joins the run in progress; the schedule restarts after it. */
  trigger(): Promise<void>;
  /** When the next run is due (epoch ms), undefined while running or stopped. */
  readonly nextRunAt: number | undefined;
  readonly running: boolean;
  readonly failures: number;
  /** Cancels the schedule and the run in progress; resolves once that run has ended. */
  stop(): Promise<void>;
}

/**
 * Starts a refresh schedule.
 * @example const r = createRefresher({ run: () => importLiveTv(store, options), intervalMs: 6 * 3600_000, onError: log }); await r.stop()
 */
export function createRefresher<T>(options: RefresherOptions<T>): Refresher {
  const { intervalMs } = options;
  if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `the refresh interval must be a positive number of ms, got ${intervalMs}`,
    );
  }
  const backoffMs = options.backoffMs ?? 60_000;
  const maxBackoffMs = Math.max(backoffMs, options.maxBackoffMs ?? intervalMs);
  const jitter = Math.min(Math.max(options.jitter ?? 0.1, 0), 0.5);
  const random = options.random ?? Math.random;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextRunAt: number | undefined;
  let current: Promise<void> | undefined;
  let stopped = false;
  const controller = new AbortController();

  const jittered = (ms: number) => Math.max(0, Math.round(ms * (1 + jitter * (2 * random() - 1))));

  function schedule(delay: number): void {
    if (stopped) return;
    clearTimeout(timer);
    nextRunAt = Date.now() + delay;
    timer = setTimeout(() => void trigger(), delay);
    // A pending refresh must not keep a process alive that has nothing else to do.
    timer.unref?.();
  }

  function trigger(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (current) return current;
    clearTimeout(timer);
    nextRunAt = undefined;
    current = (async () => {
      try {
        const result = await options.run(controller.signal);
        failures = 0;
        if (!stopped) options.onResult?.(result);
        schedule(jittered(intervalMs));
      } catch (error) {
        if (stopped) return;
        failures++;
        const retryInMs = jittered(Math.min(maxBackoffMs, backoffMs * 2 ** (failures - 1)));
        options.onError?.(error, { failures, retryInMs });
        schedule(retryInMs);
      } finally {
        current = undefined;
      }
    })();
    return current;
  }

  schedule(jittered(options.firstDelayMs ?? intervalMs));
  return {
    trigger,
    get nextRunAt() {
      return nextRunAt;
    },
    get running() {
      return current !== undefined;
    },
    get failures() {
      return failures;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      nextRunAt = undefined;
      controller.abort();
      await current;
    },
  };
}

/**
 * A live-TV import job for `createRefresher` that remembers each source's ETag/Last-Modified from
 * the last successful import, in memory (a serve process keeps it for its lifetime; a restart
 * imports once in full): a refresh where no source changed touches nothing.
 * @example createRefresher({ run: liveTvRefreshJob(store, options), intervalMs: 6 * 3600_000 })
 */
export function liveTvRefreshJob(
  store: Store,
  options: Omit<LiveTvImportOptions, 'previous' | 'signal'>,
  initial?: SourceState,
): (signal: AbortSignal) => Promise<LiveTvImportResult> {
  let state = initial;
  return async (signal) => {
    const result = await importLiveTv(store, { ...options, signal, ...(state ? { previous: state } : {}) });
    state = result.state;
    return result;
  };
}
