/**
 * A guide day page written as JSON bytes straight from the store's raw entries: per programme,
 * the members computed from the channel and the times (id, released, startTime, endTime,
 * runtime) are spliced before its pre-rendered video fields, so a 100-channel page (about 1 MB,
 * 4,800 programmes) costs no object per programme and no validation per request. The object path
 * (`programmeVideo`) gives the same videos; guide-json.test.ts holds them equal.
 */
import { allocRawJsonList, createFramePool, type RawJsonList } from '../addon/index.js';
import type { ChannelHead, ChannelRow, GuideDayRawChannel } from '../store/index.js';
import { TITLED_TAIL } from '../store/index.js';
import type { CatchupStreams } from './catchup-streams.js';
import { channelHeadJson } from './metas.js';
import { type Placeholders, placeholderVideos, runtimeText, videoId } from './videos.js';

const COMMA = 0x2c;

/**
 * Time texts of one writer, shared by its pages: programmes start on few distinct instants (the
 * same half-hours on every channel), so most lookups hit. Each text is a piece of `list`, found by
 * its key; keys are whole seconds since EPOCH_MS, small integers that V8 hashes and passes without
 * allocating (epoch milliseconds would be a heap number per lookup, about 600 KB per page). A time
 * that is not a whole second gets a fractional key: slower, still exact. Emptied between pages
 * when full, so memory stays bounded and piece numbers stay valid while a page is written.
 */
const MAX_PIECES = 20_000;
const EPOCH_MS = Date.UTC(2020, 0, 1);
const keyOf = (ms: number): number => (ms - EPOCH_MS) / 1000;

function createTimePieces() {
  const list: Buffer[] = [];
  const starts = new Map<number, number>();
  const stops = new Map<number, number>();
  const runtimes = new Map<number, number>();
  const add = (map: Map<number, number>, key: number, text: string): number => {
    map.set(key, list.length);
    list.push(Buffer.from(text));
    return list.length - 1;
  };
  return {
    list,
    starts,
    stops,
    runtimes,
    /** Called between pages only. */
    trim(): void {
      if (list.length < MAX_PIECES) return;
      list.length = 0;
      starts.clear();
      stops.clear();
      runtimes.clear();
    },
    /** `{start ISO}","released":"…","startTime":"…","endTime":"`: the id's end and three members. */
    addStart(ms: number): number {
      const iso = new Date(ms).toISOString();
      return add(starts, keyOf(ms), `${iso}","released":"${iso}","startTime":"${iso}","endTime":"`);
    },
    addStop(ms: number): number {
      return add(stops, keyOf(ms), new Date(ms).toISOString());
    },
    addRuntime(ms: number): number {
      return add(runtimes, ms, `","runtime":"${runtimeText(ms)}"`);
    },
  };
}

/**
 * Decoded entries of the page being written, in one table a writer reuses for every page: a page
 * is written in one synchronous call, and allocating per page is what made the garbage collector
 * stall guide pages. Per entry: its start, stop and runtime pieces, where its video tail lies in
 * the store's bytes, and whether that tail carries a title. Only small integers: nothing is boxed.
 */
const FIELDS = 6;
const START = 0;
const STOP = 1;
const RUNTIME = 2;
const OFFSET = 3;
const LENGTH = 4;
const TITLED = 5;

function titled(bytes: Buffer, offset: number, length: number): boolean {
  if (length < TITLED_TAIL.length) return false;
  for (let i = 0; i < TITLED_TAIL.length; i++) if (bytes[offset + i] !== TITLED_TAIL[i]) return false;
  return true;
}

function createEntryTable(pieces: ReturnType<typeof createTimePieces>) {
  let table = new Int32Array(256 * FIELDS);
  /** Start times of the entries, for the order check and the rare sort. */
  let times = new Float64Array(256);
  /** Stop times of the entries (catch-up streams need both ends). */
  let stops = new Float64Array(256);

  /** Room for `entries` entries, keeping those already decoded (it grows to the largest page seen). */
  function ensure(entries: number): void {
    if (times.length >= entries) return;
    const size = Math.max(entries, times.length * 2);
    const grownTable = new Int32Array(size * FIELDS);
    grownTable.set(table);
    table = grownTable;
    const grownTimes = new Float64Array(size);
    grownTimes.set(times);
    times = grownTimes;
    const grownStops = new Float64Array(size);
    grownStops.set(stops);
    stops = grownStops;
  }

  /** Insertion sort by start of entries [first, first + n) (a guide out of order: rare and short). */
  function sort(first: number, n: number): void {
    const entry = new Int32Array(FIELDS);
    for (let i = first + 1; i < first + n; i++) {
      const time = times[i]!;
      const stop = stops[i]!;
      entry.set(table.subarray(i * FIELDS, i * FIELDS + FIELDS));
      let j = i - 1;
      while (j >= first && times[j]! > time) {
        table.copyWithin((j + 1) * FIELDS, j * FIELDS, j * FIELDS + FIELDS);
        times[j + 1] = times[j]!;
        stops[j + 1] = stops[j]!;
        j--;
      }
      table.set(entry, (j + 1) * FIELDS);
      times[j + 1] = time;
      stops[j + 1] = stop;
    }
  }

  return {
    get table(): Int32Array {
      return table;
    },
    /** Start and stop (epoch ms) of entry `i`. */
    startOf(i: number): number {
      return times[i]!;
    },
    stopOf(i: number): number {
      return stops[i]!;
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
        let start = 0;
        for (let c = bytes[p++]!; c !== COMMA; c = bytes[p++]!) start = start * 10 + c - 48;
        let stop = 0;
        for (let c = bytes[p++]!; c !== COMMA; c = bytes[p++]!) stop = stop * 10 + c - 48;
        let length = 0;
        for (let c = bytes[p++]!; c !== COMMA; c = bytes[p++]!) length = length * 10 + c - 48;
        const at = (first + n) * FIELDS;
        table[at + START] = pieces.starts.get(keyOf(start)) ?? pieces.addStart(start);
        table[at + STOP] = pieces.stops.get(keyOf(stop)) ?? pieces.addStop(stop);
        table[at + RUNTIME] = pieces.runtimes.get(stop - start) ?? pieces.addRuntime(stop - start);
        table[at + OFFSET] = p;
        table[at + LENGTH] = length;
        table[at + TITLED] = titled(bytes, p, length) ? 1 : 0;
        times[first + n] = start;
        stops[first + n] = stop;
        if (n > 0 && start < times[first + n - 1]!) ordered = false;
        p += length;
        n++;
      }
      if (!ordered) sort(first, n);
      return n;
    },
  };
}

const metaHead = (channel: ChannelRow): Buffer => Buffer.from(channelHeadJson(channel));

/**
 * The channel heads the live-TV import stores (store ChannelHead), so that guide pages copy them
 * instead of rendering one per channel (on the 10,000-channel benchmark store, rendering and
 * keeping them made the first pages of each day half as slow again). Bump `format` whenever
 * `channelHeadJson`'s output changes: heads stored in another format are rendered per page instead,
 * until the next import.
 */
export const CHANNEL_HEAD: ChannelHead = { format: 1, render: channelHeadJson };

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
    /** Per entry (from `first`), its catch-up streams as JSON members, when the channel has catch-up. */
    readonly catchup?: readonly (Buffer | undefined)[];
  };
}

/**
 * Channel heads of one data version, by channel id, for channels stored without a head in
 * CHANNEL_HEAD's format (by an older import): each costs a JSON.stringify and a few copies (about
 * 3 KB of garbage), and a channel is written again for every day asked. Emptied when the version
 * moves or when full, so memory stays bounded (about 0.6 KB per channel).
 */
const MAX_HEADS = 20_000;

function createHeadCache() {
  const heads = new Map<string, Buffer>();
  let headsVersion: number | string | undefined;
  return {
    get(channel: ChannelRow, version: number | string | undefined): Buffer {
      if (version === undefined) return metaHead(channel);
      if (version !== headsVersion || heads.size >= MAX_HEADS) {
        heads.clear();
        headsVersion = version;
      }
      let head = heads.get(channel.id);
      if (head === undefined) {
        head = metaHead(channel);
        heads.set(channel.id, head);
      }
      return head;
    },
  };
}

/**
 * The texts of the page being written (stored heads and entries) as UTF-8, in one buffer reused
 * for every page. The store hands them over as strings, which live and die in the young
 * generation; as Buffers they were 1 MB of fresh native memory per page, mapped page by page and
 * freed in bulk in garbage-collector pauses.
 */
function createTextStage() {
  let bytes = Buffer.allocUnsafeSlow(64 * 1024);
  let used = 0;
  return {
    /** Called between pages only: the views given out are written over from then on. */
    reset(): void {
      used = 0;
    },
    /** `text` as UTF-8, a view into the stage valid until the next `reset`. */
    add(text: string): Buffer {
      const most = used + text.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
      if (most > bytes.length) {
        // Views already given out keep pointing into the old buffer: nothing to copy.
        bytes = Buffer.allocUnsafeSlow(Math.max(most, bytes.length * 2));
        used = 0;
      }
      const length = bytes.write(text, used, 'utf8');
      const view = bytes.subarray(used, used + length);
      used += length;
      return view;
    },
  };
}

/** Writes guide day pages; one per live-TV part (it keeps its time texts and entry table). */
export interface GuidePageWriter {
  /**
   * The `metasDetailed` list of a guide day page: `rows` in order, each channel with its
   * programmes of the day, or placeholder blocks over [from, to] when it has none and they are enabled.
   * `version` is the store's data version, read before `rows` were: channel heads are then
   * reused across pages of that version (a channel is on the page of each of 7+ days).
   * `now` decides which programmes of catch-up channels carry streams (default Date.now()).
   */
  write(
    rows: readonly GuideDayRawChannel[],
    from: number,
    to: number,
    version?: number | string,
    now?: number,
  ): RawJsonList;
}

/**
 * `catchup` renders the streams of past programmes of channels with catch-up (none without it).
 * A page is at most `maxBytes` (`addon.maxAnswerBytes`, answer-bytes.ts): it ends before the
 * channel that would pass it (the client asks the next page from there), and a first channel
 * too large on its own keeps its earliest programmes that fit.
 * @example createGuidePageWriter(placeholders).write(store.guideDayRaw({ day: '2026-03-01' }), from, to)
 */
export function createGuidePageWriter(
  placeholders: Placeholders,
  catchup?: CatchupStreams,
  maxBytes: number = Number.POSITIVE_INFINITY,
): GuidePageWriter {
  const pieces = createTimePieces();
  const entries = createEntryTable(pieces);
  const heads = createHeadCache();
  // Pages are about 1 MB: the server gives each frame back once the page is written out.
  const frames = createFramePool();
  const staged = createTextStage();
  return { write };

  function write(
    rows: readonly GuideDayRawChannel[],
    from: number,
    to: number,
    version?: number | string,
    now: number = Date.now(),
  ): RawJsonList {
    pieces.trim();
    const texts = pieces.list;
    const plans: ChannelPlan[] = [];
    let decoded = 0;
    staged.reset();
    let size = 2; // [ ]
    for (const { channel, entries: rawText, head: storedHead } of rows) {
      // A comma before every meta but the first; a page ends before the meta that would pass maxBytes.
      const before = size + (plans.length > 0 ? 1 : 0);
      const head = storedHead === undefined ? heads.get(channel, version) : staged.add(storedHead);
      let own = head.length + 1; // and the meta's closing brace
      if (rawText === undefined || rawText.length === 0) {
        const videos = Buffer.from(
          JSON.stringify(placeholders.enabled ? placeholderVideos(channel, from, to, placeholders) : []),
        );
        own += videos.length;
        if (plans.length > 0 && before + own > maxBytes) break;
        size = before + own;
        plans.push({ head, videos });
        continue;
      }
      const raw = staged.add(rawText);
      const first = decoded;
      let count = entries.decode(raw, first);
      decoded += count;
      // The id up to its start time, which the start piece completes.
      const idPrefix = Buffer.from(`{"id":${JSON.stringify(videoId(channel.id, '')).slice(0, -1)}`);
      const title = Buffer.from(`,"title":${JSON.stringify(channel.name)}`);
      const scratch = entries.table;
      const withCatchup = catchup !== undefined && channel.catchupStreams !== undefined;
      const streams: (Buffer | undefined)[] | undefined = withCatchup ? [] : undefined;
      own += 2; // [ ]
      // The first meta of a page is cut to its first videos that fit (a guide channel of a long
      // day of long texts); any later one that would not fit starts the next page.
      const room = plans.length === 0 ? maxBytes - before : Number.POSITIVE_INFINITY;
      for (let i = first; i < first + count; i++) {
        const at = i * FIELDS;
        let video = idPrefix.length + texts[scratch[at + START]!]!.length + texts[scratch[at + STOP]!]!.length;
        video += texts[scratch[at + RUNTIME]!]!.length + scratch[at + LENGTH]! + 1; // and the video's closing brace
        if (scratch[at + TITLED] === 0) video += title.length;
        if (i > first) video += 1; // the comma before it
        let json: Buffer | undefined;
        if (streams !== undefined) {
          const text = catchup!.json(channel, entries.startOf(i), entries.stopOf(i), now);
          json = text === '' ? undefined : Buffer.from(text);
          if (json !== undefined) video += json.length;
        }
        if (own + video > room) {
          count = i - first;
          break;
        }
        own += video;
        streams?.push(json);
      }
      if (plans.length > 0 && before + own > maxBytes) break;
      size = before + own;
      plans.push({
        head,
        entries: { bytes: raw, first, count, idPrefix, title, ...(streams !== undefined ? { catchup: streams } : {}) },
      });
    }

    const scratch = entries.table;
    const list = allocRawJsonList(size, frames);
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
        const { bytes, first, count, idPrefix, title, catchup: streams } = plan.entries;
        out[pos++] = 0x5b;
        for (let at = first * FIELDS; at < (first + count) * FIELDS; at += FIELDS) {
          const offset = scratch[at + OFFSET]!;
          const length = scratch[at + LENGTH]!;
          if (at > first * FIELDS) out[pos++] = COMMA;
          put(idPrefix);
          put(texts[scratch[at + START]!]!);
          put(texts[scratch[at + STOP]!]!);
          put(texts[scratch[at + RUNTIME]!]!);
          if (scratch[at + TITLED] === 0) put(title);
          // Most tails are short: a byte loop copies them without a view object per programme.
          if (length < 512) for (let i = offset; i < offset + length; i++) out[pos++] = bytes[i]!;
          else put(bytes.subarray(offset, offset + length));
          if (streams !== undefined) {
            const own = streams[at / FIELDS - first];
            if (own !== undefined) put(own);
          }
          out[pos++] = 0x7d; // }
        }
        out[pos++] = 0x5d;
      }
      out[pos++] = 0x7d;
    });
    out[pos++] = 0x5d;
    if (pos !== size) throw new Error(`guide page size mismatch: wrote ${pos} of ${size} bytes`);
    return list.done(plans.length);
  }
}
