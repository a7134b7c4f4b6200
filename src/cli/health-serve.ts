/**
 * Health passes in `marquee serve` (`health.enabled`): one after each import that changed the live
 * TV, and one every `health.intervalHours` (0: only after imports), each in a worker thread, never
 * at the same time as an import (they would wait on each other's write lock). The first pass of a
 * store never checked runs shortly after start; otherwise when the last one is due.
 */
import { createRefresher, HEALTH_DEFAULTS, type HealthPassResult } from '../livetv/index.js';
import type { Store } from '../store/index.js';
import { describeHealthPass } from './health.js';
import { healthInWorker } from './health-worker.js';
import type { createLogger } from './log.js';
import type { Settings } from './settings.js';

/** Delay of a first pass after start: the server warms up and answers its first users first. */
export const FIRST_PASS_DELAY_MS = 10_000;
/** The longest timer Node keeps (about 24.8 days): "no schedule" when passes follow imports only. */
const NEVER_MS = 2 ** 31 - 1;

export interface HealthPasses {
  /** An import changed the live TV: check it (joins a pass in progress). */
  afterImport(): void;
  /** Stops the schedule and a pass in progress (nothing of it is recorded). */
  stop(): Promise<void>;
}

/**
 * Start the passes when `health.enabled`; undefined otherwise.
 * @example const passes = startHealthPasses({ db, settings, store, log, exclusive, onPass: () => void warm(addon) })
 */
export function startHealthPasses(options: {
  readonly db: string;
  readonly settings: Settings;
  readonly store: Store;
  readonly log: ReturnType<typeof createLogger>;
  /** Runs `job` when no import runs, and keeps imports out meanwhile. */
  readonly exclusive: <T>(job: () => Promise<T>) => Promise<T>;
  /** After a pass was recorded (its answers changed: rebuild what is warm). */
  readonly onPass: (result: HealthPassResult) => void;
}): HealthPasses | undefined {
  const { db, settings, store, log } = options;
  if (settings.health?.enabled !== true) return undefined;
  const hours = settings.health.intervalHours ?? HEALTH_DEFAULTS.intervalHours;
  const intervalMs = hours > 0 ? Math.min(hours * 3_600_000, NEVER_MS) : NEVER_MS;
  const last = store.lastHealthPass()?.finishedAt;
  const firstDelayMs =
    last === undefined
      ? FIRST_PASS_DELAY_MS
      : hours > 0
        ? Math.max(FIRST_PASS_DELAY_MS, Math.min(last + intervalMs - Date.now(), NEVER_MS))
        : NEVER_MS;
  const passes = createRefresher({
    intervalMs,
    firstDelayMs,
    // A failed pass is tried again within minutes, not hours (a busy store, a stopped worker).
    backoffMs: 60_000,
    maxBackoffMs: Math.min(intervalMs, 3_600_000),
    run: (signal) => options.exclusive(() => healthInWorker(db, settings, { signal })),
    onResult: (result) => {
      // Nothing recorded, nothing to rebuild: the next pass is at the next interval, as usual.
      if (result.offline) {
        log.warn(
          `health pass: ${describeHealthPass(result, []).join('; ')}; ${hours > 0 ? `the next pass is in ${hours} h` : 'the next pass follows the next import'}`,
        );
        return;
      }
      log.event(`health pass: ${describeHealthPass(result, []).join('; ')}`);
      options.onPass(result);
    },
    onError: (error, info) =>
      log.warn(`health pass failed: ${(error as Error).message}; the health of the last pass is kept`, {
        retryInMs: info.retryInMs,
      }),
  });
  return {
    afterImport: () => void passes.trigger(),
    stop: () => passes.stop(),
  };
}
