/**
 * One deadline for a whole remote read (attempts, backoff, redirects and body), merged with
 * the caller's cancel signal. Its signal's `reason` is the MarqueeError to report.
 */
import { MarqueeError } from '../../errors.js';

export interface Deadline {
  readonly signal: AbortSignal;
  /** Clears the timer and the listener on the caller's signal. */
  dispose(): void;
}

/**
 * Start a deadline of `timeoutMs` for `label`, also aborted by `cancel`.
 * @example const deadline = startDeadline(30_000, 'https://x/list.m3u', options.signal)
 */
export function startDeadline(timeoutMs: number, label: string, cancel?: AbortSignal): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new MarqueeError('SOURCE_TIMEOUT', `${label}: not read completely within ${timeoutMs} ms`));
  }, timeoutMs);
  // A forgotten stream must not keep the process alive for the whole timeout.
  timer.unref();
  const onCancel = () =>
    controller.abort(new MarqueeError('SOURCE_UNREADABLE', `${label}: read cancelled`, { cause: cancel?.reason }));
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener('abort', onCancel, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    },
  };
}

/**
 * Wait `ms`, or reject with the deadline's reason when it fires first.
 * @example await sleep(500, deadline.signal)
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
