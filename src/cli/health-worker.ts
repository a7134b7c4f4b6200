/**
 * Runs a health pass in a worker thread for `marquee serve`. A pass is network work through Node's
 * HTTP client, which, run in the serving thread, left it answering cached pages slower afterwards
 * (the reason imports run in a worker too: import-worker.ts); in a worker it touches only the
 * worker. The serving thread's read connection sees the results when the pass commits.
 *
 * The same file is the worker's entry: it runs the pass when loaded as a worker.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { type HealthPassResult, runHealthPass } from '../livetv/index.js';
import { openStore } from '../store/index.js';
import { healthPassOptions } from './health.js';
import type { Settings } from './settings.js';
import { answerParent, fromWireError, runWorker, toWireError, type WireError } from './worker-job.js';

interface Job {
  readonly healthDb: string;
  readonly settings: Settings;
}

type Wire = { readonly result: HealthPassResult } | { readonly error: WireError };

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
  const wire = (await runWorker(new URL(import.meta.url), job, 'the health worker', options.signal)) as Wire;
  if ('result' in wire) return wire.result;
  throw fromWireError(wire.error);
}

if (!isMainThread && parentPort && (workerData as Job | undefined)?.healthDb) {
  const job = workerData as Job;
  answerParent(parentPort, (signal) =>
    pass(job.healthDb, job.settings, signal).then(
      (result): Wire => ({ result }),
      (error: unknown): Wire => ({ error: toWireError(error) }),
    ),
  );
}
