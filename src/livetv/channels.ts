/**
 * Playlist entries → channels: what a channel is (ChannelDraft), the key that groups entries into
 * channels, the limits that apply, and the streams a channel is given. Entries with one tvg-id
 * (ignoring case), else one name (ignoring case, accents and spacing), are one channel whose
 * streams are those entries in playlist order, across every playlist; the first entry gives the
 * name, logo, group, number and catchup. The grouping itself is in channel-groups.ts.
 */

import { hasControl } from '../sources/clean.js';
import type { Playlist, PlaylistEntry } from '../sources/records.js';
import type { CatchupStream, StreamInput } from '../store/index.js';
import { normalizeName } from '../store/index.js';
import type { MatchSubject } from './match.js';

/** A channel before matching: what the store needs plus what matching reads. */
export interface ChannelDraft extends MatchSubject {
  readonly id: string;
  readonly logo?: string;
  readonly group?: string;
  readonly number?: number;
  /** Catalog order: tvg-chno first (by number), then the rest in playlist order. */
  readonly sort: number;
  readonly catchup?: Readonly<Record<string, string>>;
  readonly source: string;
  readonly streams: StreamInput[];
  /** Streams whose source plays past programmes (catchup attributes that make a plan), best first. */
  readonly catchupStreams?: CatchupStream[];
}

export interface PlaylistInput {
  readonly playlist: Playlist;
  readonly source: string;
  /** The source's key (`sourceKey`), stored with each of its streams (StreamInput.origin). */
  readonly origin?: string;
  readonly shiftHours: number;
}

/** A playlist entry as the match report lists it: where it is, its name, and its channel (by index). */
export interface EntryRef {
  readonly source: string;
  /** Line of its `#EXTINF`. */
  readonly line: number;
  readonly name: string;
  /** Index of its channel in buildChannels' result. */
  readonly channel: number;
}

/** Where buildChannels tells each entry it keeps (no object per entry: a playlist has 50,000). */
export interface EntrySink {
  add(source: string, line: number, name: string, channel: number): void;
  /** Room for `entries` more, told before they are added (arrays grown one by one leave copies behind). */
  reserve?(entries: number): void;
}

export interface BuildOptions {
  readonly includeGroups?: readonly string[];
  readonly excludeGroups?: readonly string[];
  /** Streams kept per channel (LiveTvImportOptions.maxStreamsPerChannel); default 50. */
  readonly maxStreamsPerChannel?: number;
  /** Characters of a channel's logo, a URL or an inline image (LiveTvImportOptions.maxLogoLength); default 8,192. */
  readonly maxLogoLength?: number;
}

/** Streams kept per channel by default (`livetv.maxStreamsPerChannel`). */
export const DEFAULT_MAX_STREAMS_PER_CHANNEL = 50;
/** The setting, as messages name it. */
export const MAX_STREAMS_SETTING = 'livetv.maxStreamsPerChannel';

/**
 * Characters of a channel's logo by default (`livetv.maxLogoLength`): an http(s) URL, or an inline
 * `data:image/` URI. A logo is written twice into every catalog page that lists its channel (as
 * poster and logo), so 100 channels with 64 KB inline images made a 12.8 MB page; 8 KB holds a
 * small inline icon and any real URL (what the store kept of a longer one was cut, a broken image).
 */
export const DEFAULT_MAX_LOGO_LENGTH = 8_192;
export const MAX_LOGO_SETTING = 'livetv.maxLogoLength';

/** The source count (`marquee status`, the report) of the streams a playlist gives past the cap. */
export const STREAMS_NOT_SERVED = 'streams not served';

/** What buildChannels left out by the streams cap: in all, and per source (its label). */
export interface StreamsOverCap {
  total: number;
  readonly bySource: Map<string, number>;
}

/**
 * Schemes a player can open. Anything else (a relative path, `javascript:`, `file:`) the client
 * drops or must not be handed, so such entries are skipped with a warning instead of served.
 */
const PLAYABLE = /^(?:https?|rtmps?|rtsp|rtp|udp|mms|mmsh|srt):\/\//i;

/**
 * How many channels one playlist yields on its own, grouped as groupChannels groups them, without
 * building them (the importer judges each playlist by this count before importing it).
 * @example countChannels({ playlist, source: 'list.m3u', shiftHours: 0 }, {}) // 25000
 */
export function countChannels(input: PlaylistInput, options: BuildOptions): number {
  const { include, exclude } = groupFilters(options);
  const tvgIds = new Set<string>();
  const names = new Set<string>();
  for (const entry of input.playlist.entries) {
    const key = channelKey(entry, input.shiftHours, include, exclude);
    if (typeof key === 'object') (key.tvgId ? tvgIds : names).add(key.value);
  }
  return tvgIds.size + names.size;
}

/** The group filters of the settings, as sets. */
export function groupFilters(options: BuildOptions) {
  return {
    include: options.includeGroups?.length ? new Set(options.includeGroups) : undefined,
    exclude: new Set(options.excludeGroups ?? []),
  };
}

/**
 * The channel an entry belongs to, or why it has none: its key is its tvg-id (lower-cased), else
 * its name (normalised), with its time shift; the id of its channel derives from the same value.
 */
export function channelKey(
  entry: PlaylistEntry,
  shiftHours: number,
  include: ReadonlySet<string> | undefined,
  exclude: ReadonlySet<string>,
): { tvgId: boolean; value: string; shift: number } | 'filtered' | 'unplayable' {
  if (include && !include.has(entry.group ?? '')) return 'filtered';
  if (exclude.has(entry.group ?? '')) return 'filtered';
  if (!PLAYABLE.test(entry.url) || hasControl(entry.url)) return 'unplayable';
  // A time-shifted copy of a channel (`+1`) often reuses its tvg-id: the shift keeps them apart.
  const shift = shiftHours + (entry.tvgShift ?? 0);
  const shiftTag = shift === 0 ? '' : ` ${shift > 0 ? 'plus' : 'minus'}${Math.abs(shift)}h`;
  return entry.tvgId !== undefined
    ? { tvgId: true, value: entry.tvgId.toLowerCase() + shiftTag, shift }
    : { tvgId: false, value: normalizeName(entry.name) + shiftTag, shift };
}

/**
 * The streams of a channel that several sources carry, each with its source's short name (the
 * client lists them under it, so another can be picked when one fails); as they are otherwise.
 */
export function namedBySource(streams: StreamInput[], sources: readonly string[]): StreamInput[] {
  if (sources.every((s) => s === sources[0])) return streams;
  return streams.map((s, i) => ({ ...s, source: sourceName(sources[i]!) }));
}

/** Catch-up streams, named after their source when the channel's streams come from several. */
export function catchupBySource(
  list: readonly { stream: Omit<CatchupStream, 'source'>; source: string }[],
  sources: readonly string[],
): CatchupStream[] {
  if (sources.every((s) => s === sources[0])) return list.map((c) => c.stream);
  return list.map((c) => ({ ...c.stream, source: sourceName(c.source) }));
}

/**
 * A source's short name: a file's name, a URL's host, an account's host.
 * @example sourceName('/srv/tv/main.m3u') // 'main.m3u'
 * @example sourceName('https://***@iptv.example/get.php?username=***') // 'iptv.example'
 * @example sourceName('al…@tv.example:8080') // 'tv.example:8080'
 */
export function sourceName(label: string): string {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(label)) {
    try {
      return new URL(label).host;
    } catch {
      return label;
    }
  }
  const account = /^[^@/\\\s]*@(\S+)$/.exec(label);
  if (account) return account[1]!;
  return label.split(/[/\\]/).pop() || label;
}

export function streamOf(entry: PlaylistEntry, origin: string | undefined): StreamInput {
  return {
    url: entry.url,
    ...(origin !== undefined ? { origin } : {}),
    line: entry.line,
    name: entry.name,
    ...(entry.userAgent !== undefined ? { userAgent: entry.userAgent } : {}),
    ...(entry.referrer !== undefined ? { referrer: entry.referrer } : {}),
    ...(entry.kodiProps !== undefined ? { kodiProps: entry.kodiProps } : {}),
  };
}
