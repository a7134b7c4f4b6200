/**
 * `readXmltv` in a thread of its own, so that on a machine with two cores or more a guide is
 * parsed while the batches before it are stored: tokenizing and mapping are about half of an
 * import's work (bench/README.md, "Import speed"). The guide's bytes go to the parsing thread as
 * they are read (transferred, copied first unless the source owns them), a few chunks ahead;
 * given a source's bytes as read (`undecoded`), the thread also inflates them. Per chunk parsed
 * it sends back what that chunk yielded, its programmes on the wire (wire.ts), and waits while
 * more than a few of those are untaken, so memory stays flat whatever the guide's size.
 *
 * The batches, warnings and errors are readXmltv's, the same ones in the same order: only the
 * thread differs. Without a build (the TypeScript sources, as the tests run them), on one core,
 * or with MARQUEE_XMLTV_THREAD=off, it is readXmltv itself; a CLI test compares the stores the
 * two paths build. The same file is the parsing thread's entry.
 */
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { MarqueeError } from '../../errors.js';
import { inflateChunks } from '../input/bytes.js';
import type { InflateOptions } from '../input/types.js';
import type { GuideChannel, SourceWarning } from '../records.js';
import { type ReadXmltvOptions, readXmltv, type XmltvBatch } from './read.js';
import { decodeProgrammes, ProgrammeEncoder, type ProgrammeWire } from './wire.js';

/** Chunks sent and not yet parsed: enough to keep the thread busy while the next is read. */
const CHUNKS_AHEAD = 3;
/** Batches parsed and not yet taken: beyond this no chunk is sent, and the thread waits. */
const BATCHES_AHEAD = 2;

const YOUNG_GENERATION_MB = 16;

/** Inflated bytes parsed between two full collections of the parsing thread's heap (runThread). */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;

const built = import.meta.url.endsWith('.js');

/**
 * Whether `readXmltvInThread` parses in a thread here. `wanted` is the caller's choice; by
 * default a thread is used only with more than two cores, so that a refresh beside a server
 * leaves a core to its requests. Never on one core, nor from the TypeScript sources; the
 * environment variable MARQUEE_XMLTV_THREAD decides over the caller: `off`, or `on` (two cores do).
 */
export function xmltvThreadUsed(wanted?: boolean): boolean {
  if (!built) return false;
  const cores = availableParallelism();
  const env = process.env.MARQUEE_XMLTV_THREAD;
  if (env === 'off') return false;
  if (env === 'on') return cores > 1;
  return (wanted ?? cores > 2) && cores > 1;
}

/** Bytes as read (SourceStream.undecoded): inflated where they are parsed, and counted there. */
export interface UndecodedInput {
  /** How to inflate them (gzip is detected by its magic bytes, as when a source is iterated). */
  readonly inflate: InflateOptions;
  /** Told the inflated bytes parsed, as they are, before the batch they yielded. */
  readonly onBytes?: (bytes: number) => void;
  /** UndecodedSource.ownChunks: a chunk spanning its whole ArrayBuffer is transferred, not copied. */
  readonly ownChunks?: boolean;
  /** A thread started ahead, used when it is still there. */
  readonly spare?: SpareXmltvThread;
}

/**
 * `readXmltv(chunks, options)`, parsed in a thread of its own when `xmltvThreadUsed(thread)`. A
 * function is asked once the first chunk has come (a source knows then whether it inflates gzip).
 * With `undecoded`, `chunks` are a source's bytes as read and the thread also inflates them, so a
 * gzip guide's inflated bytes never pass through this thread (nor its heap).
 * @example for await (const batch of readXmltvInThread(source, { source: 'guide.xml' }, true)) store(batch)
 */
export function readXmltvInThread(
  chunks: AsyncIterable<Uint8Array>,
  options: ReadXmltvOptions,
  thread?: boolean | (() => boolean | undefined),
  undecoded?: UndecodedInput,
): AsyncGenerator<XmltvBatch, void, undefined> {
  if (undecoded !== undefined) {
    if (typeof thread !== 'function' && xmltvThreadUsed(thread)) return parseInThread(chunks, options, undecoded);
    return readXmltv(counted(inflateChunks(chunks, undecoded.inflate), undecoded.onBytes), options);
  }
  if (typeof thread === 'function') return decidedAtFirstChunk(chunks, options, thread);
  return xmltvThreadUsed(thread) ? parseInThread(chunks, options) : readXmltv(chunks, options);
}

async function* counted(
  chunks: AsyncIterable<Uint8Array>,
  onBytes: ((bytes: number) => void) | undefined,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    onBytes?.(chunk.byteLength);
    yield chunk;
  }
}

async function* decidedAtFirstChunk(
  chunks: AsyncIterable<Uint8Array>,
  options: ReadXmltvOptions,
  thread: () => boolean | undefined,
): AsyncGenerator<XmltvBatch, void, undefined> {
  const source = chunks[Symbol.asyncIterator]();
  const first = await source.next();
  async function* all(): AsyncGenerator<Uint8Array> {
    try {
      if (first.done) return;
      yield first.value;
      for (;;) {
        const next = await source.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await source.return?.();
    }
  }
  yield* xmltvThreadUsed(thread()) ? parseInThread(all(), options) : readXmltv(all(), options);
}

/** The thread's first message: what to read. */
interface Job {
  readonly options: ReadXmltvOptions;
  /** The chunks are bytes as read: inflate them first. */
  readonly inflate?: InflateOptions;
}

/** Marks a worker as a parsing thread (its workerData). */
const THREAD_MARK = { xmltvThread: true } as const;

function startWorker(): Worker {
  return new Worker(new URL(import.meta.url), {
    workerData: THREAD_MARK,
    // A young generation of 16 MB: V8's default let the two heaps take the import's peak RSS from
    // 182 to 197-200 MB, for no speed measured (bench/README.md, "Import speed").
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
}

/**
 * A parsing thread started before its guide is opened, so that its start (loading the reader's
 * modules into a fresh heap, about 0.2 s in which the importing thread had nothing to do) runs
 * while the playlists are imported. `take()` hands it to the first guide read in a thread;
 * `close()` ends it if no guide took it.
 * @example const spare = new SpareXmltvThread(); try { ...readXmltvInThread(chunks, options, true, { inflate, spare }) } finally { spare.close() }
 */
export class SpareXmltvThread {
  #worker: Worker | undefined;

  constructor() {
    const worker = startWorker();
    this.#worker = worker;
    // Failing before it is taken: not taken then (the reader starts one of its own).
    const lost = () => {
      if (this.#worker === worker) this.#worker = undefined;
    };
    worker.once('error', lost);
    worker.once('exit', lost);
    worker.unref();
  }

  /** The thread, once; undefined after that or when it failed. */
  take(): Worker | undefined {
    const worker = this.#worker;
    this.#worker = undefined;
    worker?.ref();
    return worker;
  }

  close(): void {
    const worker = this.take();
    if (worker !== undefined) void worker.terminate();
  }
}

interface WireBatch {
  readonly channels: GuideChannel[];
  readonly programmes: ProgrammeWire;
  readonly warnings: SourceWarning[];
  readonly textsCut: number;
}

/**
 * From the thread: what was parsed since the last message (null: nothing), how many chunks it
 * took from its queue and how many bytes it parsed meanwhile (inflated, when it inflates); the
 * end, or the failure that ended it.
 */
type FromThread =
  | { readonly batch: WireBatch | null; readonly consumed: number; readonly bytes: number }
  | { readonly done: true }
  | {
      readonly error: { readonly message: string; readonly code?: string; readonly details?: Record<string, unknown> };
    };

/** To the thread: bytes of the guide, or their end. */
type ToThread = { readonly chunk: ArrayBuffer } | { readonly end: true };

async function* parseInThread(
  chunks: AsyncIterable<Uint8Array>,
  options: ReadXmltvOptions,
  undecoded?: UndecodedInput,
): AsyncGenerator<XmltvBatch, void, undefined> {
  const job: Job = undecoded === undefined ? { options } : { options, inflate: undecoded.inflate };
  const worker = undecoded?.spare?.take() ?? startWorker();
  worker.postMessage(job);
  const inbox: FromThread[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  worker.on('message', (message: FromThread) => {
    inbox.push(message);
    notify();
  });
  worker.on('error', (error) => {
    failure ??= error;
    notify();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`the XMLTV parsing thread stopped (exit code ${code})`);
    notify();
  });
  const source = chunks[Symbol.asyncIterator]();
  let inFlight = 0;
  let ended = false;
  let done = false;
  try {
    for (;;) {
      while (!ended && inFlight < CHUNKS_AHEAD && inbox.length < BATCHES_AHEAD) {
        const next = await source.next();
        if (next.done) {
          ended = true;
          worker.postMessage({ end: true } satisfies ToThread);
          break;
        }
        // A copy, unless the source owns it whole: the chunk may be a view of a pooled buffer, or
        // still queued for the source's copy. A file's chunk, transferred, leaves nothing here:
        // copied, a gzip guide's chunks, read ahead and held while seven times their size is
        // parsed, outlived young collections and piled up outside the heap (peak RSS 236 MB).
        const bytes = next.value;
        const chunk =
          undecoded?.ownChunks === true &&
          bytes.byteOffset === 0 &&
          bytes.byteLength === bytes.buffer.byteLength &&
          bytes.buffer instanceof ArrayBuffer
            ? bytes.buffer
            : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
        worker.postMessage({ chunk } satisfies ToThread, [chunk]);
        inFlight++;
      }
      const message = inbox.shift();
      if (message === undefined) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      if ('error' in message) throw fromWire(message.error);
      if ('done' in message) {
        done = true;
        return;
      }
      inFlight -= message.consumed;
      undecoded?.onBytes?.(message.bytes);
      const batch = message.batch;
      if (batch !== null) {
        const programmes = decodeProgrammes(batch.programmes);
        yield batch.textsCut === 0
          ? { channels: batch.channels, programmes, warnings: batch.warnings }
          : { channels: batch.channels, programmes, warnings: batch.warnings, textsCut: batch.textsCut };
      }
    }
  } finally {
    if (!done) await source.return?.();
    await worker.terminate();
  }
}

function fromWire(error: { message: string; code?: string; details?: Record<string, unknown> }): Error {
  if (error.code === undefined) return new Error(error.message);
  return new MarqueeError(
    error.code as never,
    error.message,
    error.details === undefined ? {} : { details: error.details },
  );
}

/**
 * The parsing thread: chunks in; per chunk parsed one message of what it yielded and of the
 * chunks it took meanwhile (more than one ahead when it inflates them), and one more whenever it
 * has taken chunks and waits for the next, so the importing thread always learns that it may send.
 */
function runThread(port: NonNullable<typeof parentPort>): void {
  port.once('message', (job: Job) => readJob(port, job));
}

function readJob(port: NonNullable<typeof parentPort>, job: Job): void {
  const queue: (ArrayBuffer | null)[] = [];
  let wake: (() => void) | undefined;
  port.on('message', (message: ToThread) => {
    queue.push('chunk' in message ? message.chunk : null);
    const w = wake;
    wake = undefined;
    w?.();
  });
  const encoder = new ProgrammeEncoder();
  let channels: GuideChannel[] = [];
  let warnings: SourceWarning[] = [];
  let textsCut = 0;
  let taken = 0;
  let bytes = 0;
  const post = () => {
    const consumed = taken;
    const parsed = bytes;
    taken = 0;
    bytes = 0;
    if (encoder.size === 0 && channels.length === 0 && warnings.length === 0 && textsCut === 0) {
      port.postMessage({ batch: null, consumed, bytes: parsed } satisfies FromThread);
      return;
    }
    const batch: WireBatch = { channels, programmes: encoder.take(), warnings, textsCut };
    channels = [];
    warnings = [];
    textsCut = 0;
    port.postMessage({ batch, consumed, bytes: parsed } satisfies FromThread);
  };
  async function* received(): AsyncGenerator<Buffer> {
    for (;;) {
      if (queue.length === 0 && taken > 0) post();
      while (queue.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      const chunk = queue.shift()!;
      if (chunk === null) return;
      taken++;
      yield Buffer.from(chunk);
    }
  }
  // Gzip guides only: a compressed chunk waits in the inflater while seven times its size is
  // parsed, outlives the young collections and piles up outside the heap until a full one, which
  // this small heap seldom needs (peak RSS 216-235 MB on the benchmark guide). A full collection
  // of this heap takes about 6 ms; one per 16 MiB inflated holds the import at 192-197 MB.
  let inflating = false;
  let gc: (() => void) | undefined;
  let collectAt = COLLECT_EVERY_BYTES;
  let parsedBytes = 0;
  const inflated = (chunks: AsyncIterable<Buffer>, inflate: InflateOptions) =>
    inflateChunks(chunks, inflate, () => {
      inflating = true;
    });
  async function* input(): AsyncGenerator<Uint8Array> {
    for await (const chunk of job.inflate === undefined ? received() : inflated(received(), job.inflate)) {
      yield chunk;
      // Asked for the next chunk: this one is parsed, and all it yielded is pending.
      bytes += chunk.byteLength;
      parsedBytes += chunk.byteLength;
      post();
      if (inflating && parsedBytes >= collectAt) {
        collectAt = parsedBytes + COLLECT_EVERY_BYTES;
        gc ??= exposedGc();
        gc();
      }
    }
  }
  void (async () => {
    try {
      for await (const batch of readXmltv(input(), job.options)) {
        for (const c of batch.channels) channels.push(c);
        for (const w of batch.warnings) warnings.push(w);
        textsCut += batch.textsCut ?? 0;
        encoder.add(batch.programmes);
      }
      post();
      port.postMessage({ done: true } satisfies FromThread);
    } catch (error) {
      const e = error as Partial<MarqueeError> | undefined;
      const wire = {
        message: typeof e?.message === 'string' ? e.message : String(error),
        ...(typeof e?.code === 'string' ? { code: e.code } : {}),
      };
      try {
        port.postMessage({
          error: e?.details === undefined ? wire : { ...wire, details: e.details },
        } satisfies FromThread);
      } catch {
        port.postMessage({ error: wire } satisfies FromThread);
      }
    }
  })();
}

/** This thread's full garbage collection: `gc` behind V8's flag, taken from a fresh context (no global changes). */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

if (!isMainThread && parentPort && (workerData as typeof THREAD_MARK | undefined)?.xmltvThread === true) {
  runThread(parentPort);
}
