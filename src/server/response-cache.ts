import type { Encoding } from './compress.js';

/** One cached answer: its bytes once per encoding asked so far, valid for one data version until `expires`. */
export interface CachedResponse {
  readonly version: string | number;
  readonly expires: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly etag: string;
  readonly bodies: Partial<Record<Encoding, Buffer>>;
}

export interface ResponseCacheOptions {
  /** Upper bound on the bytes held (all encodings). Default 64 MiB. */
  readonly maxBytes?: number;
  /** Entries are kept at most this long even when the handler allows longer. Default 60 s. */
  readonly maxTtlMs?: number;
}

/**
 * A bounded LRU of serialized (and compressed) answers keyed by request path. Hot catalog,
 * meta and guide pages are then answered without touching the handler, the store or zlib.
 */
export class ResponseCache {
  readonly maxBytes: number;
  readonly maxTtlMs: number;
  #bytes = 0;
  readonly #entries = new Map<string, CachedResponse>();

  constructor(options: ResponseCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.maxTtlMs = options.maxTtlMs ?? 60_000;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The entry for `key` when it is still fresh for `version`; refreshes its LRU position. */
  get(key: string, version: string | number, now: number): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || entry.expires <= now) {
      this.delete(key);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    this.delete(key);
    const size = sizeOf(entry) + key.length;
    if (size > this.maxBytes / 4) return;
    this.#entries.set(key, entry);
    this.#bytes += size;
    this.#evict();
  }

  /** Add one more encoding of a cached body. */
  addBody(key: string, entry: CachedResponse, encoding: Encoding, body: Buffer): void {
    if (this.#entries.get(key) !== entry || entry.bodies[encoding]) return;
    (entry.bodies as Partial<Record<Encoding, Buffer>>)[encoding] = body;
    this.#bytes += body.byteLength;
    this.#evict();
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= sizeOf(entry) + key.length;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #evict(): void {
    for (const key of this.#entries.keys()) {
      if (this.#bytes <= this.maxBytes) break;
      this.delete(key);
    }
  }
}

function sizeOf(entry: CachedResponse): number {
  let total = 256;
  for (const body of Object.values(entry.bodies)) total += body?.byteLength ?? 0;
  return total;
}
