/**
 * Runs `importAll` in a worker thread. Parsing a guide and writing it to SQLite are synchronous
 * steps (better-sqlite3, the commit's index build), so in the serving thread a refresh stalled
 * the event loop for hundreds of milliseconds (measured by the soak in bench/reliability). In a
 * worker they block only the worker; the serving thread's read connection sees the new data at
 * commit through SQLite's WAL.
 *
 * The same file is the worker's entry: it runs the import when loaded as a worker.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { MarqueeError } from '../errors.js';
import type { SourceState } from '../livetv/index.js';
import type { SourceValidators } from '../sources/input/index.js';
import { openStore } from '../store/index.js';
import { type ImportOutcome, importAll } from './app.js';
import type { Settings } from './settings.js';

interface Job {
  readonly db: string;
  readonly settings: Settings;
  readonly previous?: SourceState;
  readonly libraryValidators?: Readonly<Record<string, SourceValidators>>;
  readonly parseThread?: boolean;
}

type Wire = { readonly error: { readonly message: string; readonly code?: string } };

/** Errors do not cross a thread whole: keep the message and the code. */
function toWire(outcome: ImportOutcome): unknown {
  const part = (r: unknown) =>
    r !== null && typeof r === 'object' && 'error' in r && r.error instanceof Error
      ? { error: { message: r.error.message, code: (r.error as { code?: string }).code } }
      : r;
  return { livetv: part(outcome.livetv), library: part(outcome.library), addonCatalogs: part(outcome.addonCatalogs) };
}

function fromWire(wire: Record<string, unknown>): ImportOutcome {
  const part = (r: unknown) => {
    if (r === undefined || r === null) return undefined;
    if (typeof r === 'object' && 'error' in r) {
      const { message, code } = (r as Wire).error;
      return { error: new MarqueeError((code as never) ?? 'IMPORT_FAILED', message) };
    }
    return r;
  };
  const out: Record<string, unknown> = {};
  for (const key of ['livetv', 'library', 'addonCatalogs']) {
    const value = part(wire[key]);
    if (value !== undefined) out[key] = value;
  }
  return out as ImportOutcome;
}

/** True when this module runs from the build (a worker cannot load TypeScript sources). */
const canUseWorker = import.meta.url.endsWith('.js');

/**
 * Import every configured source in a worker thread (in this thread when running from the
 * TypeScript sources, as in the tests). Aborting asks the worker to stop; the import rolls back.
 * `parseThread`: ImportHooks.parseThread, for an import that may have both cores (serve's first).
 *
 * @example const outcome = await importInWorker('tv.db', settings, { previous, signal })
 */
export async function importInWorker(
  db: string,
  settings: Settings,
  options: {
    previous?: SourceState;
    libraryValidators?: Readonly<Record<string, SourceValidators>>;
    signal?: AbortSignal;
    parseThread?: boolean;
  } = {},
): Promise<ImportOutcome> {
  if (!canUseWorker) {
    const store = openStore(db);
    try {
      return await importAll(store, settings, options);
    } finally {
      store.close();
    }
  }
  const job: Job = {
    db,
    settings,
    ...(options.previous ? { previous: options.previous } : {}),
    ...(options.libraryValidators ? { libraryValidators: options.libraryValidators } : {}),
    ...(options.parseThread !== undefined ? { parseThread: options.parseThread } : {}),
  };
  const worker = new Worker(new URL(import.meta.url), { workerData: job });
  return new Promise<ImportOutcome>((resolve, reject) => {
    const abort = () => worker.postMessage('abort');
    options.signal?.addEventListener('abort', abort, { once: true });
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', abort);
      fn();
    };
    worker.once('message', (wire: Record<string, unknown>) => done(() => resolve(fromWire(wire))));
    worker.once('error', (error) => done(() => reject(error)));
    worker.once('exit', (code) =>
      done(() =>
        reject(new MarqueeError('IMPORT_FAILED', `the import worker stopped (exit code ${code}) before it reported`)),
      ),
    );
  });
}

if (!isMainThread && parentPort && (workerData as Job | undefined)?.db) {
  const job = workerData as Job;
  const port = parentPort;
  const controller = new AbortController();
  port.on('message', (message) => {
    if (message === 'abort') controller.abort();
  });
  const store = openStore(job.db);
  importAll(store, job.settings, {
    signal: controller.signal,
    ...(job.previous ? { previous: job.previous } : {}),
    ...(job.libraryValidators ? { libraryValidators: job.libraryValidators } : {}),
    ...(job.parseThread !== undefined ? { parseThread: job.parseThread } : {}),
  })
    .then((outcome) => port.postMessage(toWire(outcome)))
    .finally(() => {
      store.close();
      port.close();
    });
}
