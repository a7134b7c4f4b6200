/**
 * A guide day page written as JSON bytes straight from the store's raw entries: per programme,
 * the members computed from the channel and the times (id, released, startTime, endTime,
 * runtime) are spliced before its pre-rendered video fields, so a 100-channel page (about 1 MB,
 * 4,800 programmes) costs no object per programme and no validation per request. The object path
 * (`programmeVideo`) gives the same videos; guide-json.test.ts holds them equal.
 */
import { allocRawJsonList, type RawJsonList } from '../addon/index.js';
import type { ChannelRow, GuideDayRawChannel } from '../store/index.js';
import { TITLED_TAIL } from '../store/index.js';
import { channelMeta } from './metas.js';
import { type Placeholders, placeholderVideos, runtimeText, videoId } from './videos.js';

const COMMA = 0x2c;

/**
 * Time texts of one writer, shared by its pages: programmes start on few distinct instants (the
 * same half-hours on every channel), so most lookups hit. Cleared when full: memory stays bounded.
 */
const MAX_PIECES = 20_000;

function createTimePieces() {
  const starts = new Map<number, Buffer>();
  const stops = new Map<number, Buffer>();
  const runtimes = new Map<number, Buffer>();
  const remember = (map: Map<number, Buffer>, key: number, text: string): Buffer => {
    if (map.size >= MAX_PIECES) map.clear();
    const piece = Buffer.from(text);
    map.set(key, piece);
    return piece;
  };
  return {
    /** `{start ISO}","released":"…","startTime":"…","endTime":"`: the id's end and three members. */
    start(ms: number): Buffer {
      const piece = starts.get(ms);
      if (piece !== undefined) return piece;
      const iso = new Date(ms).toISOString();
      return remember(starts, ms, `${iso}","released":"${iso}","startTime":"${iso}","endTime":"`);
    },
    stop(ms: number): Buffer {
      return stops.get(ms) ?? remember(stops, ms, new Date(ms).toISOString());
    },
    runtime(ms: number): Buffer {
      return runtimes.get(ms) ?? remember(runtimes, ms, `","runtime":"${runtimeText(ms)}"`);
    },
  };
}

/**
 * Decoded entries of the page being written, four numbers each (start, stop, offset and length
 * of the video tail), in one array a writer reuses for every page: a page is written in one
 * synchronous call, and allocating per page is what made the garbage collector stall guide pages.
 */
const FIELDS = 4;

function createEntryTable() {
  let table = new Float64Array(256 * FIELDS);

  /** Room for `entries` entries, keeping those already decoded (it grows to the largest page seen). */
  function ensure(entries: number): void {
    if (table.length >= entries * FIELDS) return;
    const grown = new Float64Array(Math.max(entries, (table.length / FIELDS) * 2) * FIELDS);
    grown.set(table);
    table = grown;
  }

  /** Insertion sort by start of entries [first, first + n) (a guide out of order: rare and short). */
  function sort(first: number, n: number): void {
    const entry = new Float64Array(FIELDS);
    for (let i = first + 1; i < first + n; i++) {
      entry.set(table.subarray(i * FIELDS, i * FIELDS + FIELDS));
      let j = i - 1;
      while (j >= first && table[j * FIELDS]! > entry[0]!) {
        table.copyWithin((j + 1) * FIELDS, j * FIELDS, j * FIELDS + FIELDS);
        j--;
      }
      table.set(entry, (j + 1) * FIELDS);
    }
  }

  return {
    get table(): Float64Array {
      return table;
    },
    /**
     * Decodes the store's `{start},{stop},{n},{video}` entries (see GuideDayRawChannel) from
     * entry `first` on, in start order; returns how many there were.
     */
    decode(bytes: Buffer, first: number): number {
      let p = 0;
      let n = 0;
      let ordered = true;
      while (p < bytes.length) {
        ensure(first + n + 1);
        const at = (first + n) * FIELDS;
        for (let f = 0; f < 3; f++) {
          let value = 0;
          for (let c = bytes[p++]!; c !== COMMA; c = bytes[p++]!) value = value * 10 + c - 48;
          table[at + (f === 2 ? 3 : f)] = value;
        }
        table[at + 2] = p;
        p += table[at + 3]!;
        if (n > 0 && table[at]! < table[at - FIELDS]!) ordered = false;
        n++;
      }
      if (!ordered) sort(first, n);
      return n;
    },
  };
}

function titled(bytes: Buffer, offset: number, length: number): boolean {
  if (length < TITLED_TAIL.length) return false;
  for (let i = 0; i < TITLED_TAIL.length; i++) if (bytes[offset + i] !== TITLED_TAIL[i]) return false;
  return true;
}

/** A channel meta without its videos, as bytes up to and including `"videos":`. */
function metaHead(channel: ChannelRow): Buffer {
  const { videos: _videos, ...meta } = channelMeta(channel, []);
  const json = JSON.stringify(meta);
  return Buffer.from(`${json.slice(0, -1)},"videos":`);
}

interface ChannelPlan {
  readonly head: Buffer;
  /** Videos already serialized (no entries: empty or placeholders). */
  readonly videos?: Buffer;
  readonly entries?: {
    readonly bytes: Buffer;
    /** Entries [first, first + count) of `scratch`. */
    readonly first: number;
    readonly count: number;
    readonly idPrefix: Buffer;
    readonly title: Buffer;
  };
}

/** Writes guide day pages; one per live-TV part (it keeps its time texts and entry table). */
export interface GuidePageWriter {
  /**
   * The `metasDetailed` list of a guide day page: `rows` in order, each channel with its
   * programmes of the day, or placeholder blocks over [from, to] when it has none and they are enabled.
   */
  write(rows: readonly GuideDayRawChannel[], from: number, to: number): RawJsonList;
}

/** @example createGuidePageWriter(placeholders).write(store.guideDayRaw({ day: '2026-03-01' }), from, to) */
export function createGuidePageWriter(placeholders: Placeholders): GuidePageWriter {
  const pieces = createTimePieces();
  const entries = createEntryTable();
  return { write };

  function write(rows: readonly GuideDayRawChannel[], from: number, to: number): RawJsonList {
    const plans: ChannelPlan[] = [];
    let decoded = 0;
    let size = 2 + Math.max(0, rows.length - 1); // [ ] and the commas between metas
    for (const { channel, entries: raw } of rows) {
      const head = metaHead(channel);
      size += head.length + 1; // and the meta's closing brace
      if (raw === undefined || raw.length === 0) {
        const videos = Buffer.from(
          JSON.stringify(placeholders.enabled ? placeholderVideos(channel, from, to, placeholders) : []),
        );
        size += videos.length;
        plans.push({ head, videos });
        continue;
      }
      const first = decoded;
      const count = entries.decode(raw, first);
      decoded += count;
      // The id up to its start time, which the start piece completes.
      const idPrefix = Buffer.from(`{"id":${JSON.stringify(videoId(channel.id, '')).slice(0, -1)}`);
      const title = Buffer.from(`,"title":${JSON.stringify(channel.name)}`);
      const scratch = entries.table;
      size += 2 + count - 1; // [ ] and the commas between videos
      for (let at = first * FIELDS; at < (first + count) * FIELDS; at += FIELDS) {
        const start = scratch[at]!;
        const stop = scratch[at + 1]!;
        size += idPrefix.length + pieces.start(start).length + pieces.stop(stop).length;
        size += pieces.runtime(stop - start).length + scratch[at + 3]! + 1; // and the video's closing brace
        if (!titled(raw, scratch[at + 2]!, scratch[at + 3]!)) size += title.length;
      }
      plans.push({ head, entries: { bytes: raw, first, count, idPrefix, title } });
    }

    const scratch = entries.table;
    const list = allocRawJsonList(size);
    const out = list.bytes;
    let pos = 0;
    const put = (piece: Uint8Array) => {
      out.set(piece, pos);
      pos += piece.length;
    };
    out[pos++] = 0x5b; // [
    plans.forEach((plan, k) => {
      if (k > 0) out[pos++] = COMMA;
      put(plan.head);
      if (plan.entries === undefined) put(plan.videos!);
      else {
        const { bytes, first, count, idPrefix, title } = plan.entries;
        out[pos++] = 0x5b;
        for (let at = first * FIELDS; at < (first + count) * FIELDS; at += FIELDS) {
          const start = scratch[at]!;
          const stop = scratch[at + 1]!;
          const offset = scratch[at + 2]!;
          const length = scratch[at + 3]!;
          if (at > first * FIELDS) out[pos++] = COMMA;
          put(idPrefix);
          put(pieces.start(start));
          put(pieces.stop(stop));
          put(pieces.runtime(stop - start));
          if (!titled(bytes, offset, length)) put(title);
          // Most tails are short: a byte loop copies them without a view object per programme.
          if (length < 512) for (let i = offset; i < offset + length; i++) out[pos++] = bytes[i]!;
          else put(bytes.subarray(offset, offset + length));
          out[pos++] = 0x7d; // }
        }
        out[pos++] = 0x5d;
      }
      out[pos++] = 0x7d;
    });
    out[pos++] = 0x5d;
    if (pos !== size) throw new Error(`guide page size mismatch: wrote ${pos} of ${size} bytes`);
    return list.done(rows.length);
  }
}
