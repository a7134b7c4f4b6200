import type { Encoding } from './encoding.js';
import type { CoreResponse } from './types.js';

/** One cached answer: its bytes once per encoding asked so far, valid for one data version until `expires`. */
export interface CachedResponse {
  readonly version: string | number;
  readonly expires: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly etag: string;
  readonly bodies: Partial<Record<Encoding, Uint8Array>>;
  /**
   * The 200 answer of each encoding once built (respond.ts), kept here with a slot for each so
   * that a hit reads one field of one shape, not a keyed load or a WeakMap lookup.
   */
  readonly answers?: PreparedAnswers;
}

/** One slot per encoding, each empty until its answer is built. */
export interface PreparedAnswers {
  identity: CoreResponse | undefined;
  gzip: CoreResponse | undefined;
  br: CoreResponse | undefined;
}

export interface ResponseCacheOptions {
  /** Upper bound on the bytes held (all encodings). Default 64 MiB. */
  readonly maxBytes?: number;
  /** Entries are kept at most this long even when the handler allows longer. Default 60 s. */
  readonly maxTtlMs?: number;
  /**
   * Requests of a path within `maxTtlMs` before its answer is kept. Default 2: a path asked once
   * (a crawler, an export, a client paging through every guide day) does not push out the
   * answers that are asked again and again, and costs no copy held in memory. 1 keeps every answer.
   */
  readonly admitAfter?: number;
}

/** Paths remembered as asked once, waiting for a second request (oldest forgotten first). */
const MAX_SEEN = 10_000;

/**
 * A bounded LRU of serialized (and compressed) answers keyed by request path. Hot catalog,
 * meta and guide pages are then answered without touching the handler, the store or zlib.
 * An answer is kept from the second request of its path on (`admitAfter`).
 */
export class ResponseCache {
  readonly maxBytes: number;
  readonly maxTtlMs: number;
  readonly admitAfter: number;
  #bytes = 0;
  /**
   * In insertion order, each with a mark set when it is asked again: eviction passes over marked
   * entries once, clearing the mark and moving them to the end (second chance, an approximation
   * of LRU). A hit then costs a flag instead of moving the entry, a tenth of a cached page's
   * answer on the hot path.
   */
  readonly #entries = new Map<string, Slot>();
  /** Path → [requests so far, time of the first]. */
  readonly #seen = new Map<string, [number, number]>();

  constructor(options: ResponseCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.maxTtlMs = options.maxTtlMs ?? 60_000;
    this.admitAfter = Math.max(1, Math.trunc(options.admitAfter ?? 2));
  }

  /** Counts a request of `key` that the cache could not answer; true when its answer should be kept (`set`). */
  admit(key: string, now: number): boolean {
    if (this.admitAfter <= 1) return true;
    const seen = this.#seen.get(key);
    this.#seen.delete(key);
    const count = seen !== undefined && now - seen[1] <= this.maxTtlMs ? seen[0] + 1 : 1;
    if (count >= this.admitAfter) return true;
    this.#seen.set(key, [count, seen !== undefined && count > 1 ? seen[1] : now]);
    if (this.#seen.size > MAX_SEEN) this.#seen.delete(this.#seen.keys().next().value!);
    return false;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The entry for `key` when it is still fresh for `version`; marks it as used again. */
  get(key: string, version: string | number, now: number): CachedResponse | undefined {
    const slot = this.#entries.get(key);
    if (!slot) return undefined;
    const entry = slot.entry;
    if (entry.version !== version || entry.expires <= now) {
      this.delete(key);
      return undefined;
    }
    slot.used = true;
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    this.delete(key);
    const size = sizeOf(entry) + key.length;
    if (size > this.maxBytes / 4) return;
    this.#entries.set(key, { entry, used: false });
    this.#bytes += size;
    this.#evict();
  }

  /** Add one more encoding of a cached body. */
  addBody(key: string, entry: CachedResponse, encoding: Encoding, body: Uint8Array): void {
    if (this.#entries.get(key)?.entry !== entry || entry.bodies[encoding]) return;
    (entry.bodies as Partial<Record<Encoding, Uint8Array>>)[encoding] = body;
    this.#bytes += body.byteLength;
    this.#evict();
  }

  delete(key: string): void {
    const slot = this.#entries.get(key);
    if (!slot) return;
    this.#entries.delete(key);
    this.#bytes -= sizeOf(slot.entry) + key.length;
  }

  clear(): void {
    this.#entries.clear();
    this.#seen.clear();
    this.#bytes = 0;
  }

  #evict(): void {
    while (this.#bytes > this.maxBytes) {
      const oldest = this.#entries.entries().next();
      if (oldest.done) return;
      const [key, slot] = oldest.value;
      if (slot.used) {
        slot.used = false;
        this.#entries.delete(key);
        this.#entries.set(key, slot);
      } else this.delete(key);
    }
  }
}

interface Slot {
  readonly entry: CachedResponse;
  used: boolean;
}

function sizeOf(entry: CachedResponse): number {
  let total = 256;
  for (const body of Object.values(entry.bodies)) total += body?.byteLength ?? 0;
  return total;
}
