/**
 * Compression on Node (negotiation is in encoding.ts, what other runtimes do in
 * web-platform.ts). Bodies are compressed in threads of their own (from the
 * build), so that Node's stream code, which every request and socket runs through, never sees a
 * zlib stream in the serving thread: the callback zlib API compresses through a Transform stream,
 * and a serving thread that had compressed a few pages answered cached pages 2-5% slower for the
 * rest of its life (bench/README.md, "Compression in a thread of its own"). A thread compresses
 * with zlib's synchronous calls, one body at a time, and sends the bytes back transferred; a
 * second thread starts while the first is busy, up to one per core and four in all. A thread is
 * given its next body only once it has answered the last: the bodies waiting are held here, the
 * small ones (a manifest, a catalog page, a meta) before the large ones, so a body never waits
 * behind more than the one each thread is compressing (issue 48: four 29 MB answers queued in
 * the threads held every other user's catalog for seconds).
 *
 * From the TypeScript sources (the tests) and with MARQUEE_COMPRESS_THREAD=off, bodies are
 * compressed in this thread by zlib's callback API on libuv's pool, as before. If a thread fails,
 * what it had not answered is compressed that way, and its next body starts a new thread; after
 * three failures in a row the threads are given up for the process, with a warning.
 */
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type BrotliOptions, brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { Compressed } from './encoding.js';

export { COMPRESS_MIN_BYTES, type Encoding, negotiateEncoding } from './encoding.js';

/**
 * Brotli at quality 5: close to gzip's speed, ~15% smaller on guide JSON; quality 11 would take
 * tens of milliseconds on a 1 MB guide page.
 */
function brotliOptions(size: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

const GZIP_OPTIONS = { level: 6 } as const;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** In this thread, off the event loop (libuv's pool): the fallback, and the path of the sources. */
function compressHere(body: Uint8Array, encoding: Compressed): Promise<Buffer> {
  return encoding === 'br' ? brotliAsync(body, brotliOptions(body.byteLength)) : gzipAsync(body, GZIP_OPTIONS);
}

/** Marks a worker as the compression thread (its workerData). */
const THREAD_MARK = { compressThread: true } as const;

interface Job {
  readonly id: number;
  readonly body: Uint8Array;
  readonly encoding: Compressed;
}

type Reply = { readonly id: number; readonly body: ArrayBuffer } | { readonly id: number; readonly error: string };

interface Pending {
  readonly body: Uint8Array;
  readonly encoding: Compressed;
  readonly resolve: (body: Buffer) => void;
  readonly reject: (error: Error) => void;
}

/** Failures in a row after which bodies are compressed in this thread for the rest of the process. */
const MAX_FAILURES = 3;

/**
 * Bodies from this size on wait behind the smaller ones. A 100-channel guide page is about 1 MB
 * and takes about 60 ms of gzip; a catalog or meta page is tens of KB.
 */
export const LARGE_BODY_BYTES = 256 * 1024;

/**
 * Compression threads at most: one per core, up to libuv's default pool of four (which compressed
 * before). A second starts only while the ones started are all busy: a 1.1 MB body took 60 ms of
 * gzip, and one thread halved a burst's throughput against the pool on two cores.
 */
const MAX_THREADS = Math.min(4, Math.max(1, availableParallelism()));

interface ThreadHooks {
  /** A body was answered. */
  readonly answered: () => void;
  /** The thread failed to start or ended unasked. */
  readonly failed: (error?: Error) => void;
}

/**
 * One compression thread, started on its first body and kept while the process lives. It holds
 * the process open only while it has bodies to answer; if it ends, the next body starts another.
 */
class CompressionThread {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  readonly #hooks: ThreadHooks;
  #next = 0;

  constructor(hooks: ThreadHooks) {
    this.#hooks = hooks;
  }

  /** Bodies sent and not yet answered. */
  get pending(): number {
    return this.#pending.size;
  }

  compress(body: Uint8Array, encoding: Compressed): Promise<Buffer> {
    let worker: Worker;
    try {
      worker = this.#worker ?? this.#start();
    } catch (error) {
      this.#hooks.failed(error as Error);
      return compressHere(body, encoding);
    }
    return new Promise<Buffer>((resolve, reject) => {
      const id = this.#next++;
      // A copy of exactly the body's bytes, transferred: a view's whole ArrayBuffer would be
      // cloned otherwise, and a cached body may be a view into a larger one.
      const copy = new Uint8Array(body);
      this.#pending.set(id, { body, encoding, resolve, reject });
      if (this.#pending.size === 1) worker.ref();
      worker.postMessage({ id, body: copy, encoding } satisfies Job, [copy.buffer]);
    });
  }

  /** Ends the thread; what it had not answered is compressed in this thread. False: it was not running. */
  async stop(): Promise<boolean> {
    const worker = this.#worker;
    if (worker === undefined) return false;
    this.#lost(worker);
    await worker.terminate();
    return true;
  }

  #start(): Worker {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: THREAD_MARK,
      // Bodies come and go one at a time; the compressed bytes are outside the heap.
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
    });
    this.#worker = worker;
    worker.on('message', (reply: Reply) => {
      const job = this.#pending.get(reply.id);
      if (job === undefined) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) worker.unref();
      this.#hooks.answered();
      if ('error' in reply) job.reject(new Error(reply.error));
      else job.resolve(Buffer.from(reply.body));
    });
    const failed = (error?: Error) => {
      if (this.#worker !== worker) return;
      this.#lost(worker);
      this.#hooks.failed(error);
    };
    worker.on('error', failed);
    worker.on('exit', () => failed());
    worker.unref();
    return worker;
  }

  /** Forgets `worker`; its unanswered bodies are compressed here. */
  #lost(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    worker.removeAllListeners('message');
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const job of pending) compressHere(job.body, job.encoding).then(job.resolve, job.reject);
  }
}

/** A body waiting for a thread. */
interface Waiting {
  readonly body: Uint8Array;
  readonly encoding: Compressed;
  readonly resolve: (body: Buffer) => void;
  readonly reject: (error: Error) => void;
}

/**
 * The compression threads of this process. Each thread has one body at a time; the others wait
 * here, small ones first (in the order they came), then large ones, and go to the first thread
 * that is free (a new one starts while every thread is busy, up to MAX_THREADS).
 */
class CompressionThreads {
  readonly #threads: CompressionThread[] = [];
  readonly #small: Waiting[] = [];
  readonly #large: Waiting[] = [];
  #failures = 0;
  readonly #hooks: ThreadHooks = {
    answered: () => {
      this.#failures = 0;
    },
    failed: (error) => {
      this.#failures++;
      if (this.#failures === MAX_FAILURES) {
        process.emitWarning(
          `the compression thread failed ${MAX_FAILURES} times in a row${error ? ` (last: ${error.message})` : ''}; compressing in the serving thread from now on`,
          { code: 'MARQUEE_COMPRESS_THREAD' },
        );
      }
    },
  };

  get usable(): boolean {
    return this.#failures < MAX_FAILURES;
  }

  /** Bodies waiting for a thread (for tests). */
  get waiting(): number {
    return this.#small.length + this.#large.length;
  }

  compress(body: Uint8Array, encoding: Compressed): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      (body.byteLength >= LARGE_BODY_BYTES ? this.#large : this.#small).push({ body, encoding, resolve, reject });
      this.#next();
    });
  }

  /** Gives waiting bodies to the threads that are free. */
  #next(): void {
    for (;;) {
      const job = this.#small[0] ?? this.#large[0];
      if (job === undefined) return;
      let free = this.#threads.find((thread) => thread.pending === 0);
      if (free === undefined && this.#threads.length < MAX_THREADS) {
        free = new CompressionThread(this.#hooks);
        this.#threads.push(free);
      }
      if (free === undefined) return;
      (this.#small[0] === job ? this.#small : this.#large).shift();
      const done = () => this.#next();
      free.compress(job.body, job.encoding).then(
        (out) => {
          job.resolve(out);
          done();
        },
        (error: Error) => {
          job.reject(error);
          done();
        },
      );
    }
  }

  /**
   * Ends every thread (the next bodies start them again); how many were running. What they had
   * not answered, and the bodies still waiting for one, are compressed in this thread.
   */
  async stop(): Promise<number> {
    for (const job of this.#small.splice(0).concat(this.#large.splice(0))) {
      compressHere(job.body, job.encoding).then(job.resolve, job.reject);
    }
    const stopped = await Promise.all(this.#threads.map((thread) => thread.stop()));
    return stopped.filter(Boolean).length;
  }
}

const built = import.meta.url.endsWith('.js');
let threads: CompressionThreads | undefined;

/** Whether bodies are compressed in threads of their own here (see the top of this file). */
export function compressThreadUsed(): boolean {
  return built && process.env.MARQUEE_COMPRESS_THREAD !== 'off' && (threads?.usable ?? true);
}

/** Compress a body off the event loop: in a compression thread, or on libuv's pool without them. */
export function compress(body: Uint8Array, encoding: Compressed): Promise<Buffer> {
  if (!compressThreadUsed()) return compressHere(body, encoding);
  threads ??= new CompressionThreads();
  return threads.compress(body, encoding);
}

/**
 * Ends the compression threads that are running (the next bodies start them again): how many
 * there were. For tests and shutdown.
 */
export async function stopCompressThread(): Promise<number> {
  return (await threads?.stop()) ?? 0;
}

/** The thread's side: one body at a time, with zlib's synchronous calls. */
function runThread(): void {
  const port = parentPort!;
  port.on('message', (job: Job) => {
    let reply: Reply;
    let transfer: ArrayBuffer[] = [];
    try {
      const out =
        job.encoding === 'br'
          ? brotliCompressSync(job.body, brotliOptions(job.body.byteLength))
          : gzipSync(job.body, GZIP_OPTIONS);
      // A copy of exactly the compressed bytes: zlib's result may be a view into a larger buffer,
      // or into Node's buffer pool, which cannot be transferred.
      reply = { id: job.id, body: new Uint8Array(out).buffer };
      transfer = [reply.body];
    } catch (error) {
      reply = { id: job.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply, transfer);
  });
}

if (!isMainThread && (workerData as typeof THREAD_MARK | undefined)?.compressThread === true) runThread();
