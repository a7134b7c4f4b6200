/**
 * The keys (EXT-X-KEY) and init segments (EXT-X-MAP) of a session's HLS upstreams, by relay id:
 * the playlists name `k{id}.key` and `m{id}.mp4`, the relay fetches each once, with the headers of
 * the stream that named it, and keeps it for the session's life (a key is 16 bytes; an init
 * segment a few kilobytes; both bounded).
 */
import { FETCH_LIMITS } from './fetch.js';
import type { ByteRange } from './hls-parse.js';

/** Fetches bytes upstream for one stream (its headers, the session's one connection at a time). */
export type FetchBytes = (url: string, options: { maxBytes: number; range?: ByteRange }) => Promise<Buffer>;

export type ResourceKind = 'key' | 'map';

interface Resource {
  readonly kind: ResourceKind;
  readonly url: string;
  readonly range?: ByteRange;
  readonly fetch: FetchBytes;
  bytes?: Promise<Buffer>;
}

/** Resources a session names at most: a playlist naming a new key per segment is cut off there. */
const MAX_RESOURCES = 512;

export class Resources {
  readonly #ids = new Map<string, number>();
  readonly #items: Resource[] = [];

  /** The relay id of a key or init segment (the same for the same URL and range); undefined past the cap. */
  id(kind: ResourceKind, url: string, fetch: FetchBytes, range?: ByteRange): number | undefined {
    const key = `${kind} ${url} ${range ? `${range.offset}:${range.length}` : ''}`;
    const known = this.#ids.get(key);
    if (known !== undefined) return known;
    if (this.#items.length >= MAX_RESOURCES) return undefined;
    const id = this.#items.length;
    this.#items.push({ kind, url, fetch, ...(range ? { range } : {}) });
    this.#ids.set(key, id);
    return id;
  }

  /** Its bytes, fetched once (a failed fetch is tried again by the next request). */
  get(kind: ResourceKind, id: number): Promise<Buffer> | undefined {
    const item = this.#items[id];
    if (item === undefined || item.kind !== kind) return undefined;
    if (item.bytes === undefined) {
      const maxBytes = kind === 'key' ? FETCH_LIMITS.keyBytes : FETCH_LIMITS.mapBytes;
      item.bytes = item.fetch(item.url, { maxBytes, ...(item.range ? { range: item.range } : {}) });
      item.bytes.catch(() => {
        item.bytes = undefined;
      });
    }
    return item.bytes;
  }
}
