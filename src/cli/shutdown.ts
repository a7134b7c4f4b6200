/**
 * How long `serve` (plain or hosted) may take to stop (`shutdownSeconds`). Requests in flight get
 * up to 10 s to finish; refreshes, health passes and imports are asked to stop at the same time.
 * Whatever still runs at the bound (a request still arriving when the bound is under 10 s, a
 * synchronous step of an import, a file read that never returns) is cut: the process logs it and
 * exits 1, so a supervisor's stop never hangs.
 */
import type { Io } from './command.js';
import type { Settings } from './settings.js';

/**
 * The longest `marquee import` and `marquee health` take to end after SIGINT/SIGTERM: their work
 * is aborted at once (nothing half done is recorded: a pass records at its end, an import commits
 * or rolls back whole); a synchronous step still running at this bound is cut by exiting.
 */
export const WORK_STOP_MS = 2_000;

/** The stop of an import's or a health pass's work. */
export interface WorkStop {
  /** Aborted once the process is asked to stop. */
  readonly signal: AbortSignal;
  /** The name of the signal that asked, once one did. */
  readonly by: string | undefined;
}

/**
 * Aborts the work of `command` when the process is asked to stop, and bounds that stop at
 * WORK_STOP_MS.
 * @example const stop = stopOnSignal(io, 'import'); await importAll(store, settings, { signal: stop.signal }); if (stop.by) …
 */
export function stopOnSignal(io: Io, command: string): WorkStop {
  const controller = new AbortController();
  let by: string | undefined;
  void io.stopped.then((signal) => {
    by = signal;
    io.boundStop?.(WORK_STOP_MS, () =>
      io.stderr.write(
        `marquee ${command}: still stopping ${WORK_STOP_MS / 1000} s after ${signal}: exiting now (what was committed stays, the rest is rolled back)\n`,
      ),
    );
    controller.abort();
  });
  return {
    signal: controller.signal,
    get by() {
      return by;
    },
  };
}

/** `shutdownSeconds` when the settings do not say. */
export const DEFAULT_SHUTDOWN_SECONDS = 15;
/** The longest requests in flight are waited for (cut at `shutdownSeconds` when that is shorter). */
const REQUEST_GRACE_MS = 10_000;

/**
 * Starts the bound of a stop that has just been asked for, and says what the stop will wait for.
 * @example const { graceMs } = boundServeStop(io, settings, signal, log); await running.close(graceMs)
 */
export function boundServeStop(
  io: Io,
  settings: Settings,
  signal: string,
  log: { event(message: string): void; error(record: { msg: string }): void },
): { graceMs: number } {
  const seconds = settings.shutdownSeconds ?? DEFAULT_SHUTDOWN_SECONDS;
  io.boundStop?.(seconds * 1000, () =>
    log.error({
      msg: `still stopping ${seconds} s after ${signal} (shutdownSeconds): exiting now, with what was not finished cut short`,
    }),
  );
  log.event(`${signal}: finishing requests in flight, then stopping (at most ${seconds} s)`);
  return { graceMs: REQUEST_GRACE_MS };
}
