/**
 * Playlist entries → channels. Entries with one tvg-id (ignoring case), else one name (ignoring
 * case, accents and spacing), are one channel whose streams are those entries in playlist order,
 * across every playlist; the first entry gives the name, logo, group, number and catchup.
 */

import { hasControl, showControls } from '../sources/clean.js';
import type { Playlist, PlaylistEntry } from '../sources/records.js';
import type { CatchupStream, StreamInput } from '../store/index.js';
import { normalizeName } from '../store/index.js';
import { catchupPlan } from './catchup.js';
import { assignChannelIds, type IdSource } from './ids.js';
import type { MatchSubject } from './match.js';
import type { ImportWarning } from './types.js';

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

/** Numbered channels sort by number; the others after every possible number, in playlist order. */
const UNNUMBERED_BASE = 1e12;

/**
 * Groups playlist entries into channels with stable ids; each entry kept is told to `entries`
 * when given, in playlist order. A channel keeps its first `maxStreamsPerChannel` streams: the
 * entries past it are counted in `over` (and said in one warning per channel), never kept, so a
 * playlist of 300,000 entries sharing one name is one channel of 50 streams, not of 300,000.
 * @example buildChannels([{ playlist, source: 'list.m3u', shiftHours: 0 }], {}, warnings)[0].id // 'mq-tv:bbc1.uk'
 */
export function buildChannels(
  inputs: readonly PlaylistInput[],
  options: BuildOptions,
  warn: (warning: ImportWarning) => void,
  entries?: EntrySink,
  over: StreamsOverCap = { total: 0, bySource: new Map() },
): ChannelDraft[] {
  const { include, exclude } = groupFilters(options);
  const cap = options.maxStreamsPerChannel ?? DEFAULT_MAX_STREAMS_PER_CHANNEL;
  const maxLogo = options.maxLogoLength ?? DEFAULT_MAX_LOGO_LENGTH;
  interface Group {
    key: string;
    idSource: IdSource;
    first: PlaylistEntry;
    source: string;
    shiftHours: number;
    position: number;
    streams: StreamInput[];
    /** The source of each stream, by index. */
    sources: string[];
    catchup: { stream: Omit<CatchupStream, 'source'>; source: string; template: string }[];
    /** Entries past the cap. */
    over: number;
  }
  const groups = new Map<string, Group>();
  let position = 0;
  for (const { playlist, source, origin, shiftHours } of inputs) {
    for (const entry of playlist.entries) {
      const channel = channelOf(entry, shiftHours, include, exclude);
      if (channel === 'filtered') continue;
      if (channel === 'unplayable') {
        warn({
          source,
          line: entry.line,
          message: hasControl(entry.url)
            ? `stream URL "${clip(showControls(entry.url))}" holds a control character; entry skipped`
            : `stream URL "${clip(entry.url)}" is not an http(s) or streaming URL a player can open; entry skipped`,
        });
        continue;
      }
      const { key, idSource, shift } = channel;
      let group = groups.get(key);
      if (group === undefined) {
        group = {
          key,
          idSource,
          first: entry,
          source,
          shiftHours: shift,
          position: position++,
          streams: [],
          sources: [],
          catchup: [],
          over: 0,
        };
        groups.set(key, group);
      }
      if (group.streams.length >= cap) {
        group.over++;
        over.total++;
        over.bySource.set(source, (over.bySource.get(source) ?? 0) + 1);
        continue;
      }
      group.streams.push(streamOf(entry, origin));
      group.sources.push(source);
      entries?.add(source, entry.line, entry.name, group.position);
      if (entry.catchup !== undefined) {
        const { plan, problems } = catchupPlan(entry.url, entry.catchup);
        for (const message of problems) warn({ source, line: entry.line, message });
        // One per archive URL: an account's HLS and MPEG-TS streams share their timeshift.
        if (plan !== undefined && !group.catchup.some((c) => c.template === plan.template)) {
          group.catchup.push({
            template: plan.template,
            source,
            stream: {
              url: entry.url,
              attributes: entry.catchup,
              archiveMs: plan.archiveMs,
              ...(entry.userAgent !== undefined ? { userAgent: entry.userAgent } : {}),
              ...(entry.referrer !== undefined ? { referrer: entry.referrer } : {}),
            },
          });
        }
      }
    }
  }
  const list = [...groups.values()];
  for (const g of list) {
    if (g.over === 0) continue;
    warn({
      source: g.source,
      line: g.first.line,
      message: `channel "${clip(g.first.name)}" has ${g.streams.length + g.over} streams; the first ${cap} are served (${MAX_STREAMS_SETTING}), ${g.over} are not`,
    });
  }
  const ids = assignChannelIds(list.map((g) => g.idSource));
  return list.map((g, i) => {
    const e = g.first;
    const logo = logoOf(e, g.source, maxLogo, warn);
    return {
      id: ids[i]!,
      name: e.name,
      ...(e.tvgId !== undefined ? { tvgId: e.tvgId } : {}),
      ...(e.tvgName !== undefined ? { tvgName: e.tvgName } : {}),
      ...(e.attributes['tvg-country'] ? { country: e.attributes['tvg-country'] } : {}),
      shiftHours: g.shiftHours,
      ...(logo !== undefined ? { logo } : {}),
      ...(e.group !== undefined ? { group: e.group } : {}),
      ...(e.channelNumber !== undefined ? { number: e.channelNumber } : {}),
      sort: e.channelNumber ?? UNNUMBERED_BASE + g.position,
      ...(e.catchup !== undefined ? { catchup: e.catchup } : {}),
      source: g.source,
      streams: namedBySource(g.streams, g.sources),
      ...(g.catchup.length > 0 ? { catchupStreams: catchupBySource(g.catchup, g.sources) } : {}),
    };
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

/**
 * How many channels one playlist yields on its own, grouped as buildChannels groups them, without
 * building them (the importer judges each playlist by this count before importing it).
 * @example countChannels({ playlist, source: 'list.m3u', shiftHours: 0 }, {}) // 25000
 */
export function countChannels(input: PlaylistInput, options: BuildOptions): number {
  const { include, exclude } = groupFilters(options);
  const keys = new Set<string>();
  for (const entry of input.playlist.entries) {
    const channel = channelOf(entry, input.shiftHours, include, exclude);
    if (typeof channel === 'object') keys.add(channel.key);
  }
  return keys.size;
}

function groupFilters(options: BuildOptions) {
  return {
    include: options.includeGroups?.length ? new Set(options.includeGroups) : undefined,
    exclude: new Set(options.excludeGroups ?? []),
  };
}

/** The channel an entry belongs to (its grouping key), or why it has none. */
function channelOf(
  entry: PlaylistEntry,
  shiftHours: number,
  include: ReadonlySet<string> | undefined,
  exclude: ReadonlySet<string>,
): { key: string; idSource: IdSource; shift: number } | 'filtered' | 'unplayable' {
  if (include && !include.has(entry.group ?? '')) return 'filtered';
  if (exclude.has(entry.group ?? '')) return 'filtered';
  if (!PLAYABLE.test(entry.url) || hasControl(entry.url)) return 'unplayable';
  // A time-shifted copy of a channel (`+1`) often reuses its tvg-id: the shift keeps them apart.
  const shift = shiftHours + (entry.tvgShift ?? 0);
  const shiftTag = shift === 0 ? '' : ` ${shift > 0 ? 'plus' : 'minus'}${Math.abs(shift)}h`;
  const idSource: IdSource =
    entry.tvgId !== undefined
      ? { kind: 'tvg-id', value: entry.tvgId.toLowerCase() + shiftTag }
      : { kind: 'name', value: normalizeName(entry.name) + shiftTag };
  return { key: `${idSource.kind}:${idSource.value}`, idSource, shift };
}

/**
 * The streams of a channel that several sources carry, each with its source's short name (the
 * client lists them under it, so another can be picked when one fails); as they are otherwise.
 */
function namedBySource(streams: StreamInput[], sources: readonly string[]): StreamInput[] {
  if (sources.every((s) => s === sources[0])) return streams;
  return streams.map((s, i) => ({ ...s, source: sourceName(sources[i]!) }));
}

/** Catch-up streams, named after their source when the channel's streams come from several. */
function catchupBySource(
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

function streamOf(entry: PlaylistEntry, origin: string | undefined): StreamInput {
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

/** A URL with its control characters shown as `\xNN`, for a warning. */

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
