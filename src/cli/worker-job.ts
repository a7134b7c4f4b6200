/**
 * One job in a worker thread, both sides: `runWorker` starts a module as a worker and waits for
 * its one answer, `answerParent` is the worker's side (import-worker.ts, health-worker.ts). An
 * Error does not cross a thread whole: `toWireError`/`fromWireError` keep its message and code.
 */
import { type MessagePort, Worker } from 'node:worker_threads';
import { MarqueeError } from '../errors.js';

/** An error as it crosses a thread. */
export interface WireError {
  readonly message: string;
  readonly code?: string;
}

/** @example toWireError(new MarqueeError('IMPORT_FAILED', 'disk full')) // { message: 'disk full', code: 'IMPORT_FAILED' } */
export function toWireError(error: unknown): WireError {
  const code = (error as { code?: unknown } | undefined)?.code;
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(code !== undefined ? { code: String(code) } : {}),
  };
}

/** The error back on this side of the thread (IMPORT_FAILED when it had no code). */
export function fromWireError(error: WireError): MarqueeError {
  return new MarqueeError((error.code as never) ?? 'IMPORT_FAILED', error.message);
}

/**
 * Starts the module at `url` as a worker with `data` and resolves with the first message it
 * posts; `signal` asks it to stop (an `'abort'` message). A worker that ends without answering
 * rejects with IMPORT_FAILED naming `what`.
 * @example const answer = await runWorker(new URL(import.meta.url), job, 'the import worker', signal)
 */
export function runWorker(url: URL, data: unknown, what: string, signal?: AbortSignal): Promise<unknown> {
  const worker = new Worker(url, { workerData: data });
  return new Promise((resolve, reject) => {
    const abort = () => worker.postMessage('abort');
    signal?.addEventListener('abort', abort, { once: true });
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      fn();
    };
    worker.once('message', (answer: unknown) => done(() => resolve(answer)));
    worker.once('error', (error) => done(() => reject(error)));
    worker.once('exit', (code) =>
      done(() => reject(new MarqueeError('IMPORT_FAILED', `${what} stopped (exit code ${code}) before it reported`))),
    );
  });
}

/**
 * The worker's side: runs `job` with a signal that the parent's `'abort'` message aborts, posts
 * its answer and closes the port.
 * @example if (!isMainThread && parentPort) answerParent(parentPort, (signal) => work(signal))
 */
export function answerParent(port: MessagePort, job: (signal: AbortSignal) => Promise<unknown>): void {
  const controller = new AbortController();
  port.on('message', (message) => {
    if (message === 'abort') controller.abort();
  });
  job(controller.signal)
    .then((answer) => port.postMessage(answer))
    .finally(() => port.close());
}
