/**
 * Runs `importAll` in a worker thread. Parsing a guide and writing it to SQLite are synchronous
 * steps (better-sqlite3, the commit's index build), so in the serving thread a refresh stalled
 * the event loop for hundreds of milliseconds (measured by the soak in bench/reliability). In a
 * worker they block only the worker; the serving thread's read connection sees the new data at
 * commit through SQLite's WAL.
 *
 * The same file is the worker's entry: it runs the import when loaded as a worker.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { SourceState } from '../livetv/index.js';
import type { SourceValidators } from '../sources/input/index.js';
import { openStore } from '../store/index.js';
import { type ImportOutcome, importAll } from './app.js';
import type { Settings } from './settings.js';
import { answerParent, fromWireError, runWorker, toWireError, type WireError } from './worker-job.js';

interface Job {
  readonly db: string;
  readonly settings: Settings;
  readonly previous?: SourceState;
  readonly libraryValidators?: Readonly<Record<string, SourceValidators>>;
  readonly parseThread?: boolean;
}

/** Errors do not cross a thread whole: keep the message and the code. */
function toWire(outcome: ImportOutcome): unknown {
  const part = (r: unknown) =>
    r !== null && typeof r === 'object' && 'error' in r && r.error instanceof Error
      ? { error: toWireError(r.error) }
      : r;
  return { livetv: part(outcome.livetv), library: part(outcome.library), addonCatalogs: part(outcome.addonCatalogs) };
}

function fromWire(wire: Record<string, unknown>): ImportOutcome {
  const part = (r: unknown) => {
    if (r === undefined || r === null) return undefined;
    if (typeof r === 'object' && 'error' in r) {
      return { error: fromWireError((r as { error: WireError }).error) };
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
  const wire = await runWorker(new URL(import.meta.url), job, 'the import worker', options.signal);
  return fromWire(wire as Record<string, unknown>);
}

if (!isMainThread && parentPort && (workerData as Job | undefined)?.db) {
  const job = workerData as Job;
  answerParent(parentPort, async (signal) => {
    const store = openStore(job.db);
    try {
      const outcome = await importAll(store, job.settings, {
        signal,
        ...(job.previous ? { previous: job.previous } : {}),
        ...(job.libraryValidators ? { libraryValidators: job.libraryValidators } : {}),
        ...(job.parseThread !== undefined ? { parseThread: job.parseThread } : {}),
      });
      return toWire(outcome);
    } finally {
      store.close();
    }
  });
}
