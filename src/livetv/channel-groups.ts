/**
 * Playlist entries grouped into channels, held compactly until each channel is stored. A
 * playlist of 300,000 entries, each a channel of its own, held 300,000 channel drafts with a
 * stream object and a stream array each (the arrays with room for 17) beside the entries and
 * the store's import: 1.7 KB an entry, the import's peak at 600-800 MB (issue 48). Here a channel
 * is a few numbers in arrays (its first entry, its streams as a chain through the entries kept)
 * and its draft is made when it is stored, one at a time, then dropped.
 */
import { hasControl, showControls } from '../sources/clean.js';
import type { PlaylistEntry } from '../sources/records.js';
import type { CatchupStream, StreamInput } from '../store/index.js';
import { catchupPlan } from './catchup.js';
import {
  type BuildOptions,
  type ChannelDraft,
  catchupBySource,
  channelKey,
  DEFAULT_MAX_LOGO_LENGTH,
  DEFAULT_MAX_STREAMS_PER_CHANNEL,
  type EntrySink,
  groupFilters,
  MAX_LOGO_SETTING,
  MAX_STREAMS_SETTING,
  namedBySource,
  type PlaylistInput,
  type StreamsOverCap,
  streamOf,
} from './channels.js';
import { assignIds } from './ids.js';
import type { ImportWarning } from './types.js';

/** Numbered channels sort by number; the others after every possible number, in playlist order. */
const UNNUMBERED_BASE = 1e12;

/** A channel's catch-up sources: one per archive URL (an account's HLS and MPEG-TS streams share theirs). */
type Catchups = { stream: Omit<CatchupStream, 'source'>; source: string; template: string }[];

/** The channels of some playlists: `length` of them, each drafted by `draft(i)` when it is stored. */
export interface ChannelGroups {
  readonly length: number;
  /** Channel `i` (in playlist order) as the store takes it; a new object each call. */
  draft(i: number): ChannelDraft;
}

/**
 * Groups playlist entries into channels with stable ids; each entry kept is told to `entries`
 * when given, in playlist order. A channel keeps its first `maxStreamsPerChannel` streams: the
 * entries past it are counted in `over` (and said in one warning per channel), never kept, so a
 * playlist of 300,000 entries sharing one name is one channel of 50 streams, not of 300,000.
 * Entries with one tvg-id (ignoring case), else one name (ignoring case, accents and spacing), are
 * one channel whose streams are those entries in playlist order, across every playlist; the first
 * entry gives the name, logo, group, number and catch-up.
 * @example groupChannels([{ playlist, source: 'list.m3u', shiftHours: 0 }], {}, warn).draft(0).id // 'mq-tv:bbc1.uk'
 */
export function groupChannels(
  inputs: readonly PlaylistInput[],
  options: BuildOptions,
  warn: (warning: ImportWarning) => void,
  entries?: EntrySink,
  over: StreamsOverCap = { total: 0, bySource: new Map() },
): ChannelGroups {
  const { include, exclude } = groupFilters(options);
  const cap = options.maxStreamsPerChannel ?? DEFAULT_MAX_STREAMS_PER_CHANNEL;
  const maxLogo = options.maxLogoLength ?? DEFAULT_MAX_LOGO_LENGTH;
  // Sized once for every entry (a channel has one at least): arrays grown entry by entry left
  // copies of themselves behind as garbage, 150 MB of it for 300,000 entries.
  const total = inputs.reduce((sum, input) => sum + input.playlist.entries.length, 0);
  entries?.reserve?.(total);
  // Per entry kept: the entry, its input, and the next entry kept of its channel (-1: none).
  const kept = new Array<PlaylistEntry>(total);
  const keptInput = new Int32Array(total);
  const next = new Int32Array(total);
  let keptCount = 0;
  // Per channel: its first and last entry kept, streams, input, shift and id source.
  const head = new Int32Array(total);
  const tail = new Int32Array(total);
  const streams = new Int32Array(total);
  const channelInput = new Int32Array(total);
  // A plain array: a Float64Array's numbers, copied into each channel, were a heap number apiece.
  const shifts = new Array<number>(total);
  const byTvgId = new Uint8Array(total);
  const idValues = new Array<string>(total);
  let channels = 0;
  // By kind of key: the tvg-id (lower-cased, with its shift) or the name (normalised, with its shift) → channel.
  const tvgIds = new Map<string, number>();
  const names = new Map<string, number>();
  /** Entries past the cap, of the channels that have some. */
  const overCap = new Map<number, number>();
  const catchups = new Map<number, Catchups>();

  for (const [n, { playlist, source }] of inputs.entries()) {
    for (const entry of playlist.entries) {
      const key = channelKey(entry, inputs[n]!.shiftHours, include, exclude);
      if (key === 'filtered') continue;
      if (key === 'unplayable') {
        warn({
          source,
          line: entry.line,
          message: hasControl(entry.url)
            ? `stream URL "${clip(showControls(entry.url))}" holds a control character; entry skipped`
            : `stream URL "${clip(entry.url)}" is not an http(s) or streaming URL a player can open; entry skipped`,
        });
        continue;
      }
      const map = key.tvgId ? tvgIds : names;
      let c = map.get(key.value);
      if (c === undefined) {
        c = channels++;
        map.set(key.value, c);
        head[c] = -1;
        tail[c] = -1;
        channelInput[c] = n;
        shifts[c] = key.shift;
        byTvgId[c] = key.tvgId ? 1 : 0;
        idValues[c] = key.value;
      }
      if (streams[c]! >= cap) {
        overCap.set(c, (overCap.get(c) ?? 0) + 1);
        over.total++;
        over.bySource.set(source, (over.bySource.get(source) ?? 0) + 1);
        continue;
      }
      const at = keptCount++;
      kept[at] = entry;
      keptInput[at] = n;
      next[at] = -1;
      if (head[c] === -1) head[c] = at;
      else next[tail[c]!] = at;
      tail[c] = at;
      streams[c]!++;
      entries?.add(source, entry.line, entry.name, c);
      if (entry.catchup !== undefined) addCatchup(catchups, c, entry, source, warn);
    }
  }
  for (const [c, left] of overCap) {
    const first = kept[head[c]!]!;
    warn({
      source: inputs[channelInput[c]!]!.source,
      line: first.line,
      message: `channel "${clip(first.name)}" has ${streams[c]! + left} streams; the first ${cap} are served (${MAX_STREAMS_SETTING}), ${left} are not`,
    });
  }
  const ids = assignIds(
    channels,
    (i) => byTvgId[i] === 1,
    (i) => idValues[i]!,
  );
  idValues.length = 0;

  return {
    length: channels,
    draft(c) {
      const e = kept[head[c]!]!;
      const source = inputs[channelInput[c]!]!.source;
      const list: StreamInput[] = [];
      const sources: string[] = [];
      for (let at = head[c]!; at !== -1; at = next[at]!) {
        const input = inputs[keptInput[at]!]!;
        list.push(streamOf(kept[at]!, input.origin));
        sources.push(input.source);
      }
      const logo = logoOf(e, source, maxLogo, warn);
      const catchup = catchups.get(c);
      return {
        id: ids[c]!,
        name: e.name,
        ...(e.tvgId !== undefined ? { tvgId: e.tvgId } : {}),
        ...(e.tvgName !== undefined ? { tvgName: e.tvgName } : {}),
        ...(e.attributes['tvg-country'] ? { country: e.attributes['tvg-country'] } : {}),
        shiftHours: shifts[c]!,
        ...(logo !== undefined ? { logo } : {}),
        ...(e.group !== undefined ? { group: e.group } : {}),
        ...(e.channelNumber !== undefined ? { number: e.channelNumber } : {}),
        sort: e.channelNumber ?? UNNUMBERED_BASE + c,
        ...(e.catchup !== undefined ? { catchup: e.catchup } : {}),
        source,
        streams: namedBySource(list, sources),
        ...(catchup !== undefined ? { catchupStreams: catchupBySource(catchup, sources) } : {}),
      };
    },
  };
}

/**
 * Every channel drafted at once (buildChannels as it was): for callers that want them all; an
 * import stores them one by one instead (groupChannels).
 * @example buildChannels([{ playlist, source: 'list.m3u', shiftHours: 0 }], {}, warnings)[0].id // 'mq-tv:bbc1.uk'
 */
export function buildChannels(
  inputs: readonly PlaylistInput[],
  options: BuildOptions,
  warn: (warning: ImportWarning) => void,
  entries?: EntrySink,
  over?: StreamsOverCap,
): ChannelDraft[] {
  const groups = groupChannels(inputs, options, warn, entries, over);
  return Array.from({ length: groups.length }, (_, i) => groups.draft(i));
}

/** The catch-up plan of an entry of channel `c`, one per archive URL. */
function addCatchup(
  catchups: Map<number, Catchups>,
  c: number,
  entry: PlaylistEntry,
  source: string,
  warn: (warning: ImportWarning) => void,
): void {
  const { plan, problems } = catchupPlan(entry.url, entry.catchup!);
  for (const message of problems) warn({ source, line: entry.line, message });
  if (plan === undefined) return;
  let list = catchups.get(c);
  if (list === undefined) {
    list = [];
    catchups.set(c, list);
  }
  if (list.some((x) => x.template === plan.template)) return;
  list.push({
    template: plan.template,
    source,
    stream: {
      url: entry.url,
      attributes: entry.catchup!,
      archiveMs: plan.archiveMs,
      ...(entry.userAgent !== undefined ? { userAgent: entry.userAgent } : {}),
      ...(entry.referrer !== undefined ? { referrer: entry.referrer } : {}),
    },
  });
}

/**
 * The logo of a channel's first entry: an http(s) URL or an inline image (`data:image/…`), which
 * the client takes as a poster; longer than `max` characters, it is left out with a warning
 * naming the line and the setting.
 */
function logoOf(
  e: PlaylistEntry,
  source: string,
  max: number,
  warn: (warning: ImportWarning) => void,
): string | undefined {
  const logo = e.tvgLogo;
  if (logo === undefined) return undefined;
  const inline = /^data:image\//i.test(logo);
  if (!inline && !/^https?:\/\//i.test(logo)) return undefined;
  if (logo.length <= max) return logo;
  warn({
    source,
    line: e.line,
    message: `tvg-logo is ${inline ? 'an inline image' : 'a URL'} of ${logo.length} characters, more than ${max} (${MAX_LOGO_SETTING}); the channel has no logo`,
  });
  return undefined;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
