/**
 * A guide day page written as JSON bytes straight from the store's raw entries: per programme,
 * the members computed from the channel and the times (id, released, startTime, endTime,
 * runtime) are spliced before its pre-rendered video fields, so a 100-channel page (about 1 MB,
 * 4,800 programmes) costs no object per programme and no validation per request. The object path
 * (`programmeVideo`) gives the same videos; guide-json.test.ts holds them equal.
 */
import { type RawJsonList, rawJsonList } from '../addon/index.js';
import type { ChannelRow, GuideDayRawChannel } from '../store/index.js';
import { TITLED_TAIL } from '../store/index.js';
import { channelMeta } from './metas.js';
import { type Placeholders, placeholderVideos } from './videos.js';

const MINUTE = 60_000;
const COMMA = 0x2c;

/**
 * Time texts, shared by every page: programmes start on few distinct instants (the same
 * half-hours on every channel), so most lookups hit. Cleared when full, so memory stays bounded.
 */
const MAX_PIECES = 20_000;
const startPieces = new Map<number, Buffer>();
const stopPieces = new Map<number, Buffer>();
const runtimePieces = new Map<number, Buffer>();

function cached(map: Map<number, Buffer>, key: number, make: (key: number) => string): Buffer {
  let piece = map.get(key);
  if (piece === undefined) {
    if (map.size >= MAX_PIECES) map.clear();
    piece = Buffer.from(make(key));
    map.set(key, piece);
  }
  return piece;
}

/** `{start ISO}","released":"…","startTime":"…","endTime":"`: the id's end and three members. */
const startPiece = (ms: number) =>
  cached(startPieces, ms, (t) => {
    const iso = new Date(t).toISOString();
    return `${iso}","released":"${iso}","startTime":"${iso}","endTime":"`;
  });
const stopPiece = (ms: number) => cached(stopPieces, ms, (t) => new Date(t).toISOString());
const runtimePiece = (ms: number) =>
  cached(runtimePieces, ms, (d) => `","runtime":"${Math.max(1, Math.round(d / MINUTE))} min"`);

/** One channel's entries, decoded: parallel arrays, in start order. */
interface Entries {
  readonly starts: number[];
  readonly stops: number[];
  readonly offsets: number[];
  readonly lengths: number[];
}

/** Reads the store's `{start},{stop},{n},{video}` entries (see GuideDayRawChannel). */
function decode(bytes: Buffer): Entries {
  const starts: number[] = [];
  const stops: number[] = [];
  const offsets: number[] = [];
  const lengths: number[] = [];
  let ordered = true;
  let p = 0;
  /** The decimal number at p, up to its comma (skipped). */
  const number = (): number => {
    let n = 0;
    for (let c = bytes[p++]!; c !== COMMA; c = bytes[p++]!) n = n * 10 + c - 48;
    return n;
  };
  while (p < bytes.length) {
    const start = number();
    const stop = number();
    const length = number();
    if (starts.length > 0 && start < starts[starts.length - 1]!) ordered = false;
    starts.push(start);
    stops.push(stop);
    offsets.push(p);
    lengths.push(length);
    p += length;
  }
  if (ordered) return { starts, stops, offsets, lengths };
  const order = starts.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]!);
  return {
    starts: order.map((i) => starts[i]!),
    stops: order.map((i) => stops[i]!),
    offsets: order.map((i) => offsets[i]!),
    lengths: order.map((i) => lengths[i]!),
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
    readonly list: Entries;
    readonly idPrefix: Buffer;
    readonly title: Buffer;
  };
}

/**
 * The `metasDetailed` list of a guide day page: `rows` in order, each channel with its programmes
 * of the day, or placeholder blocks over [from, to] when it has none and they are enabled.
 * @example guidePageJson(store.guideDayRaw({ day: '2026-03-01' }), from, to, placeholders)
 */
export function guidePageJson(
  rows: readonly GuideDayRawChannel[],
  from: number,
  to: number,
  placeholders: Placeholders,
): RawJsonList {
  const plans: ChannelPlan[] = [];
  let size = 2 + Math.max(0, rows.length - 1); // [ ] and the commas between metas
  for (const { channel, entries } of rows) {
    const head = metaHead(channel);
    size += head.length + 1; // and the meta's closing brace
    if (entries === undefined || entries.length === 0) {
      const videos = Buffer.from(
        JSON.stringify(placeholders.enabled ? placeholderVideos(channel, from, to, placeholders) : []),
      );
      size += videos.length;
      plans.push({ head, videos });
      continue;
    }
    const list = decode(entries);
    const idPrefix = Buffer.from(`{"id":${JSON.stringify(`${channel.id}:epg:`).slice(0, -1)}`);
    const title = Buffer.from(`,"title":${JSON.stringify(channel.name)}`);
    size += 2 + list.starts.length - 1; // [ ] and the commas between videos
    for (let i = 0; i < list.starts.length; i++) {
      const start = list.starts[i]!;
      const stop = list.stops[i]!;
      size += idPrefix.length + startPiece(start).length + stopPiece(stop).length;
      size += runtimePiece(stop - start).length + list.lengths[i]! + 1; // and the video's closing brace
      if (!titled(entries, list.offsets[i]!, list.lengths[i]!)) size += title.length;
    }
    plans.push({ head, entries: { bytes: entries, list, idPrefix, title } });
  }

  const out = Buffer.allocUnsafe(size);
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
      const { bytes, list, idPrefix, title } = plan.entries;
      out[pos++] = 0x5b;
      for (let i = 0; i < list.starts.length; i++) {
        const start = list.starts[i]!;
        const stop = list.stops[i]!;
        const offset = list.offsets[i]!;
        const length = list.lengths[i]!;
        if (i > 0) out[pos++] = COMMA;
        put(idPrefix);
        put(startPiece(start));
        put(stopPiece(stop));
        put(runtimePiece(stop - start));
        if (!titled(bytes, offset, length)) put(title);
        put(bytes.subarray(offset, offset + length));
        out[pos++] = 0x7d; // }
      }
      out[pos++] = 0x5d;
    }
    out[pos++] = 0x7d;
  });
  out[pos++] = 0x5d;
  if (pos !== size) throw new Error(`guide page size mismatch: wrote ${pos} of ${size} bytes`);
  return rawJsonList(out, rows.length);
}
