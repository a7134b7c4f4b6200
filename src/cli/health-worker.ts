/**
 * Runs a health pass in a worker thread for `marquee serve`. A pass is network work through Node's
 * HTTP client, which, run in the serving thread, left it answering cached pages slower afterwards
 * (the reason imports run in a worker too: import-worker.ts); in a worker it touches only the
 * worker. The serving thread's read connection sees the results when the pass commits.
 *
 * The same file is the worker's entry: it runs the pass when loaded as a worker.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { MarqueeError } from '../errors.js';
import { type HealthPassResult, runHealthPass } from '../livetv/index.js';
import { openStore } from '../store/index.js';
import { healthPassOptions } from './health.js';
import type { Settings } from './settings.js';

interface Job {
  readonly healthDb: string;
  readonly settings: Settings;
}

type Wire =
  | { readonly result: HealthPassResult }
  | { readonly error: { readonly message: string; readonly code?: string } };

/** True when this module runs from the build (a worker cannot load TypeScript sources). */
const canUseWorker = import.meta.url.endsWith('.js');

async function pass(db: string, settings: Settings, signal?: AbortSignal): Promise<HealthPassResult> {
  const store = openStore(db);
  try {
    return await runHealthPass(store, { ...healthPassOptions(settings, store), ...(signal ? { signal } : {}) });
  } finally {
    store.close();
  }
}

/**
 * One health pass over the store in `db`, in a worker thread (in this thread when running from the
 * TypeScript sources, as in the tests). Aborting stops the pass; nothing of it is recorded then.
 * @example const result = await healthInWorker('tv.db', settings, { signal })
 */
export async function healthInWorker(
  db: string,
  settings: Settings,
  options: { signal?: AbortSignal } = {},
): Promise<HealthPassResult> {
  if (!canUseWorker) return pass(db, settings, options.signal);
  const job: Job = { healthDb: db, settings };
  const worker = new Worker(new URL(import.meta.url), { workerData: job });
  return new Promise<HealthPassResult>((resolve, reject) => {
    const abort = () => worker.postMessage('abort');
    options.signal?.addEventListener('abort', abort, { once: true });
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', abort);
      fn();
    };
    worker.once('message', (wire: Wire) =>
      done(() =>
        'result' in wire
          ? resolve(wire.result)
          : reject(new MarqueeError((wire.error.code as never) ?? 'IMPORT_FAILED', wire.error.message)),
      ),
    );
    worker.once('error', (error) => done(() => reject(error)));
    worker.once('exit', (code) =>
      done(() =>
        reject(new MarqueeError('IMPORT_FAILED', `the health worker stopped (exit code ${code}) before it reported`)),
      ),
    );
  });
}

if (!isMainThread && parentPort && (workerData as Job | undefined)?.healthDb) {
  const job = workerData as Job;
  const port = parentPort;
  const controller = new AbortController();
  port.on('message', (message) => {
    if (message === 'abort') controller.abort();
  });
  pass(job.healthDb, job.settings, controller.signal)
    .then(
      (result): Wire => ({ result }),
      (error: unknown): Wire => ({
        error: {
          message: error instanceof Error ? error.message : String(error),
          ...((error as { code?: unknown })?.code !== undefined
            ? { code: String((error as { code: unknown }).code) }
            : {}),
        },
      }),
    )
    .then((wire) => port.postMessage(wire))
    .finally(() => port.close());
}
