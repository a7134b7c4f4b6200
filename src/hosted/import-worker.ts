/**
 * Runs a source set's import in a worker thread, as `marquee serve` runs its refreshes: parsing a
 * guide and writing SQLite are synchronous, and in the serving thread they would stall every
 * user's requests. The serving thread's read connection sees the commit through SQLite's WAL.
 * The same file is the worker's entry. From the TypeScript sources (the tests) it runs in this thread.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { MarqueeError } from '../errors.js';
import { openStore } from '../store/index.js';
import { importSourceSet, type SetImportOptions, type SetImportResult, type SetProgress } from './import.js';
import type { HostedSources } from './sources.js';

interface Job {
  readonly hostedImport: true;
  readonly file: string;
  readonly sources: HostedSources;
  readonly options: Omit<SetImportOptions, 'signal' | 'onProgress'>;
}

type Message = { progress: SetProgress } | { result: SetImportResult } | { error: { message: string; code?: string } };

const canUseWorker = import.meta.url.endsWith('.js');

/** Import `sources` into the store file `file`, in a worker thread when running from the build. */
export async function importInWorker(
  file: string,
  sources: HostedSources,
  options: SetImportOptions = {},
): Promise<SetImportResult> {
  const { signal, onProgress, ...plain } = options;
  if (!canUseWorker) {
    const store = openStore(file);
    try {
      return await importSourceSet(store, sources, options);
    } finally {
      store.close();
    }
  }
  const job: Job = { hostedImport: true, file, sources, options: plain };
  // A young generation of 24 MB instead of V8's 48: an import's garbage is short-lived (a list's
  // elements, parsed and dropped), and the default's two 16 MB semi-spaces were a quarter of what
  // an import of a hostile 267 MB panel answer held. A 50,000-entry playlist and a 50 MB guide
  // imported with 228-248 MB peak instead of 251-318, in the same time within the noise of a
  // shared machine (1.8-4.5 s against 2.2-3.7 s).
  const worker = new Worker(new URL(import.meta.url), {
    workerData: job,
    resourceLimits: { maxYoungGenerationSizeMb: 24 },
  });
  return new Promise<SetImportResult>((resolve, reject) => {
    const abort = () => worker.postMessage('abort');
    signal?.addEventListener('abort', abort, { once: true });
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      fn();
    };
    worker.on('message', (message: Message) => {
      if ('progress' in message) onProgress?.(message.progress);
      else if ('result' in message) done(() => resolve(message.result));
      else
        done(() => reject(new MarqueeError((message.error.code as never) ?? 'IMPORT_FAILED', message.error.message)));
    });
    worker.once('error', (error) => done(() => reject(error)));
    worker.once('exit', (code) =>
      done(() => reject(new MarqueeError('IMPORT_FAILED', `the import worker stopped (exit code ${code})`))),
    );
  });
}

if (!isMainThread && parentPort && (workerData as Job | undefined)?.hostedImport === true) {
  const job = workerData as Job;
  const port = parentPort;
  const controller = new AbortController();
  port.on('message', (message) => {
    if (message === 'abort') controller.abort();
  });
  let last = 0;
  const store = openStore(job.file);
  importSourceSet(store, job.sources, {
    ...job.options,
    signal: controller.signal,
    onProgress: (progress) => {
      // A few messages a second are enough for a progress page.
      const now = Date.now();
      if (now - last < 250) return;
      last = now;
      port.postMessage({ progress } satisfies Message);
    },
  })
    .then(
      (result) => port.postMessage({ result } satisfies Message),
      (error: Error) =>
        port.postMessage({
          error: { message: error.message, code: (error as { code?: string }).code },
        } satisfies Message),
    )
    .finally(() => {
      store.close();
      port.close();
    });
}
