/**
 * `readXmltv` in a thread of its own, so that on a machine with two cores or more a guide is
 * parsed while the batches before it are stored: tokenizing and mapping are about half of an
 * import's work (bench/README.md, "Import speed"). The guide's bytes go to the parsing thread as
 * they are read (copied into buffers that are transferred), a few chunks ahead; per chunk it
 * sends back what that chunk yielded, its programmes on the wire (wire.ts), and waits while
 * more than a few of those are untaken, so memory stays flat whatever the guide's size.
 *
 * The batches, warnings and errors are readXmltv's, the same ones in the same order: only the
 * thread differs. Without a build (the TypeScript sources, as the tests run them), on one core,
 * or with MARQUEE_XMLTV_THREAD=off, it is readXmltv itself; a CLI test compares the stores the
 * two paths build. The same file is the parsing thread's entry.
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { MarqueeError } from '../../errors.js';
import type { GuideChannel, SourceWarning } from '../records.js';
import { type ReadXmltvOptions, readXmltv, type XmltvBatch } from './read.js';
import { decodeProgrammes, ProgrammeEncoder, type ProgrammeWire } from './wire.js';

/** Chunks sent and not yet parsed: enough to keep the thread busy while the next is read. */
const CHUNKS_AHEAD = 3;
/** Batches parsed and not yet taken: beyond this no chunk is sent, and the thread waits. */
const BATCHES_AHEAD = 2;

const YOUNG_GENERATION_MB = 16;

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

/**
 * `readXmltv(chunks, options)`, parsed in a thread of its own when `xmltvThreadUsed(thread)`. A
 * function is asked once the first chunk has come (a source knows then whether it inflates gzip).
 * @example for await (const batch of readXmltvInThread(source, { source: 'guide.xml' }, true)) store(batch)
 */
export function readXmltvInThread(
  chunks: AsyncIterable<Uint8Array>,
  options: ReadXmltvOptions,
  thread?: boolean | (() => boolean | undefined),
): AsyncGenerator<XmltvBatch, void, undefined> {
  if (typeof thread === 'function') return decidedAtFirstChunk(chunks, options, thread);
  return xmltvThreadUsed(thread) ? parseInThread(chunks, options) : readXmltv(chunks, options);
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

interface Job {
  readonly xmltvThread: true;
  readonly options: ReadXmltvOptions;
}

interface WireBatch {
  readonly channels: GuideChannel[];
  readonly programmes: ProgrammeWire;
  readonly warnings: SourceWarning[];
}

/** From the thread: what `consumed` chunks yielded (null: nothing), the end, or the failure that ended it. */
type FromThread =
  | { readonly batch: WireBatch | null; readonly consumed: number }
  | { readonly done: true }
  | {
      readonly error: { readonly message: string; readonly code?: string; readonly details?: Record<string, unknown> };
    };

/** To the thread: bytes of the guide, or their end. */
type ToThread = { readonly chunk: ArrayBuffer } | { readonly end: true };

async function* parseInThread(
  chunks: AsyncIterable<Uint8Array>,
  options: ReadXmltvOptions,
): AsyncGenerator<XmltvBatch, void, undefined> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { xmltvThread: true, options } satisfies Job,
    // A young generation of 16 MB: V8's default let the two heaps take the import's peak RSS from
    // 182 to 197-200 MB, for no speed measured (bench/README.md, "Import speed").
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
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
        // A copy: the chunk may be a view of a pooled buffer, or still queued for the source's copy.
        const bytes = next.value;
        const chunk = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
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
      const batch = message.batch;
      if (batch !== null) {
        yield { channels: batch.channels, programmes: decodeProgrammes(batch.programmes), warnings: batch.warnings };
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

/** The parsing thread: chunks in, per chunk one message of what it yielded. */
function runThread(port: NonNullable<typeof parentPort>, job: Job): void {
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
  const post = (consumed: number) => {
    if (encoder.size === 0 && channels.length === 0 && warnings.length === 0) {
      port.postMessage({ batch: null, consumed } satisfies FromThread);
      return;
    }
    const batch: WireBatch = { channels, programmes: encoder.take(), warnings };
    channels = [];
    warnings = [];
    port.postMessage({ batch, consumed } satisfies FromThread);
  };
  async function* input(): AsyncGenerator<Uint8Array> {
    for (;;) {
      while (queue.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      const chunk = queue.shift()!;
      if (chunk === null) return;
      yield new Uint8Array(chunk);
      // Asked for the next chunk: this one is parsed, and all it yielded is pending.
      post(1);
    }
  }
  void (async () => {
    try {
      for await (const batch of readXmltv(input(), job.options)) {
        for (const c of batch.channels) channels.push(c);
        for (const w of batch.warnings) warnings.push(w);
        encoder.add(batch.programmes);
      }
      post(0);
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

if (!isMainThread && parentPort && (workerData as Job | undefined)?.xmltvThread === true) {
  runThread(parentPort, workerData as Job);
}
