/**
 * What the live-TV part of the store takes (inputs) and gives back (rows). Inputs are what the
 * live-TV backend computes from the source records (ids, order, guide matching); programmes and
 * guide channels are the source records themselves.
 */
import type { Video } from '../../protocol/index.js';
import type { LangText } from '../../sources/records.js';
import type { SourceAttempt } from '../sources.js';
import type { StreamHealth } from './health.js';

/** One playable stream of a channel (one playlist entry). */
export interface StreamInput {
  readonly url: string;
  readonly name?: string;
  readonly userAgent?: string;
  readonly referrer?: string;
  readonly kodiProps?: Readonly<Record<string, string>>;
  /** The short name of the source it came from, when the channel has streams from several. */
  readonly source?: string;
  /** The key of the source it came from (`sourceKey`): which health checks cover it, counted per source. */
  readonly origin?: string;
  /** The line of its entry in that source (its `#EXTINF`; an Xtream account's list position). */
  readonly line?: number;
}

/** A channel as the backend built it from one or more playlist entries. */
export interface ChannelInput {
  /** Stable public id, e.g. `mq-tv:bbc-one`; unique within one import. */
  readonly id: string;
  readonly name: string;
  readonly logo?: string;
  /** Playlist group, served as the catalog genre. */
  readonly group?: string;
  /** `tvg-chno`. */
  readonly number?: number;
  /** Catalog order key (e.g. tvg-chno, else a position after the numbered ones); ties keep insertion order. */
  readonly sort: number;
  /** The guide's channel id this channel shows; several channels may share one. */
  readonly guideKey?: string;
  readonly catchup?: Readonly<Record<string, string>>;
  /** Where the channel came from (playlist path or URL), for reports. */
  readonly source?: string;
  /** In the order they should be offered; may be empty. */
  readonly streams: readonly StreamInput[];
  /**
   * The streams whose source can play past programmes, best first. Their programmes are kept for
   * the longest `archiveMs` among them, beyond `retentionMs`.
   */
  readonly catchupStreams?: readonly CatchupStream[];
}

/**
 * A stream that can play programmes from their start (catch-up): the live stream it derives from
 * and its source's catch-up attributes, which the backend reads (the store only keeps them).
 */
export interface CatchupStream {
  /** The live stream URL. */
  readonly url: string;
  /** The catch-up attributes as the source gave them (`catchup`, `catchup-source`, `catchup-days`, …). */
  readonly attributes: Readonly<Record<string, string>>;
  /** How far back the source keeps programmes, in ms. */
  readonly archiveMs: number;
  readonly userAgent?: string;
  readonly referrer?: string;
  /** The short name of its source, when the channel's streams come from several. */
  readonly source?: string;
}

export interface LiveTvImportOptions {
  /** The import's clock (epoch ms) for the retention and horizon windows; default Date.now(). */
  readonly now?: number;
  /**
   * Programmes that ended more than this long before `now` are dropped. Default 2 days. Guide
   * channels shown by a channel with catch-up (`catchupStreams`, added before the programmes)
   * keep theirs for its archive window when longer.
   */
  readonly retentionMs?: number;
  /** Programmes that start this long after `now` or later are dropped. Default 14 days. */
  readonly horizonMs?: number;
  /** Programmes longer than this are dropped as implausible (they would widen every guide scan). Default 3 days. */
  readonly maxProgrammeMs?: number;
  /**
   * Programmes one guide channel keeps per UTC day of their start (`livetv.maxProgrammesPerDay`):
   * the earliest-starting ones, once the merge rules have run; the rest are counted
   * (`dropped.overDayCap`), never stored. Default 1,440 (one a minute).
   */
  readonly maxProgrammesPerDay?: number;
  /** Preferred languages for titles, descriptions and categories (`['de', 'en']`); default: the first given. */
  readonly languages?: readonly string[];
  /** How long to wait for another import to finish before failing. Default 60 s. */
  readonly lockTimeoutMs?: number;
  /** Page cache of the import connection in KiB (bounds its memory). Default 8 MiB: measured as fast as 32 MiB on the 370 MB benchmark guide, with 38 MB less peak RSS. */
  readonly cacheKiB?: number;
  /** The backend's guide-page head of a channel, stored with each channel (see ChannelHead). */
  readonly channelHead?: ChannelHead;
}

/**
 * How a backend renders the part of a guide row that depends on the channel alone (its meta up
 * to its videos). The import renders it once per channel, from the channel as stored (names and
 * URLs already clipped), and stores it with its `format`; reads return it only to a caller that
 * asks for the same format, so heads rendered by another version of the backend are never served.
 */
export interface ChannelHead {
  /** A positive integer the backend changes whenever `render`'s output would change. */
  readonly format: number;
  render(channel: ChannelRow): string;
}

/** What the caller adds to the import record at commit. */
export interface CommitInput {
  /** Warnings the sources produced (the store only counts them). */
  readonly warnings?: number;
  /** Anything JSON-serialisable worth keeping (sources, unmatched channel names, first warnings); max 256 KiB. */
  readonly details?: unknown;
  /**
   * How each configured source (playlists, guides) went, in order, with the copies of those
   * imported: recorded with the import (store/sources.ts), and the states of sources not among
   * them dropped.
   */
  readonly sources?: readonly SourceAttempt[];
}

/** Counts of the data an import holds, as served. */
export interface LiveTvCounts {
  readonly channels: number;
  readonly streams: number;
  readonly guideChannels: number;
  readonly programmes: number;
  /** Channels whose guide key has at least one programme. */
  readonly matchedChannels: number;
  readonly unmatchedChannels: number;
  readonly groups: number;
}

/** Programmes the import did not keep, by reason. */
export interface LiveTvDropped {
  /** Ended before now - retention. */
  readonly past: number;
  /** Start at or after now + horizon. */
  readonly beyondHorizon: number;
  /** Non-finite times or stop <= start. */
  readonly invalid: number;
  /** Longer than maxProgrammeMs. */
  readonly tooLong: number;
  /** Overlapped a programme of a higher-priority source on the same guide channel. */
  readonly overlapped: number;
  /** Same guide channel and start as a programme kept (higher priority or first seen). */
  readonly duplicate: number;
  /** Their guide channel is shown by no channel. */
  readonly unusedGuide: number;
  /** Past `maxProgrammesPerDay` on their guide channel and day of start. */
  readonly overDayCap: number;
}

/** The guide channel and day with the most programmes past `maxProgrammesPerDay`, to name in a warning. */
export interface OverDayCap {
  /** The guide key (a guide channel id, with its shift). */
  readonly key: string;
  /** The UTC day of their start, `YYYY-MM-DD`. */
  readonly day: string;
  /** Programmes that day had; the first `kept` were stored. */
  readonly programmes: number;
  readonly kept: number;
  /** Guide channel days past the cap, in all. */
  readonly days: number;
}

export interface LiveTvImportReport {
  readonly counts: LiveTvCounts;
  readonly dropped: LiveTvDropped;
  /** Set when programmes went past `maxProgrammesPerDay`: the worst guide channel day. */
  readonly overDayCap?: OverDayCap;
  readonly warnings: number;
  readonly durationMs: number;
  readonly details?: unknown;
}

export type ImportStatus = 'running' | 'ok' | 'failed' | 'interrupted';

/** One row of the import history. `report` is a LiveTvImportReport when ok, `{ reason }` otherwise. */
export interface ImportRecord {
  readonly id: number;
  readonly kind: string;
  readonly status: ImportStatus;
  readonly startedAt: number;
  readonly finishedAt?: number;
  readonly report?: LiveTvImportReport | { readonly reason: string };
}

export interface ChannelRow {
  readonly id: string;
  readonly name: string;
  readonly logo?: string;
  readonly group?: string;
  readonly number?: number;
  readonly sort: number;
  readonly guideKey?: string;
  readonly catchup?: Readonly<Record<string, string>>;
  readonly source?: string;
  /** Streams that can play its past programmes (ChannelInput.catchupStreams). */
  readonly catchupStreams?: readonly CatchupStream[];
}

export interface StreamRow {
  readonly url: string;
  readonly name?: string;
  readonly userAgent?: string;
  readonly referrer?: string;
  readonly kodiProps?: Readonly<Record<string, string>>;
  /** The short name of its source, when the channel's streams come from several. */
  readonly source?: string;
  /** The key of the source it came from (`sourceKey`; StreamInput.origin), when stored with one. */
  readonly origin?: string;
  /** What the health checks of its URL found; absent while it was never checked. */
  readonly health?: StreamHealth;
}

export interface GuideChannelRow {
  readonly key: string;
  readonly displayNames: readonly LangText[];
  readonly icon?: string;
  readonly url?: string;
}

/**
 * A programme as served: one language already chosen for its texts. What it shows is `video`,
 * the fields of its guide video (title, overview, thumbnail, genres, cast, ratings…), stored
 * rendered at import; `title` and `subTitle` are the guide's own, kept for reports and tests.
 */
export interface ProgrammeRow {
  readonly start: number;
  readonly stop: number;
  /** The video fields that come from the programme itself (title, overview, genres, ...). */
  readonly video: Partial<Video>;
}

export interface GroupRow {
  readonly name: string;
  readonly channels: number;
}

export interface ChannelQuery {
  readonly group?: string;
  /** Case- and accent-insensitive substring of the channel name. */
  readonly search?: string;
  readonly offset?: number;
  /** At most 1000; default 100. */
  readonly limit?: number;
  /** Channels left out, as a JSON array of their row ids (built once per data version: `deadChannels().rids`). */
  readonly except?: string;
}

export interface GuideDayQuery {
  /** UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  /** `guideDayRaw` only: return the heads stored in this format (ChannelHead). */
  readonly headFormat?: number;
  readonly group?: string;
  readonly offset?: number;
  readonly limit?: number;
  /** Channels left out, as a JSON array of their row ids (ChannelQuery.except). */
  readonly except?: string;
}

/**
 * One channel of a guide day page with its programmes as stored (guide-days.ts): `entries` is
 * the text of `{start},{stop},{n},{video}` repeated, start and stop in epoch ms, `video` the n
 * UTF-8 bytes of the programme's pre-rendered video fields (rows.ts videoTail), in start order;
 * absent when the channel has no programme that day. Text rather than bytes: a guide page's
 * worth of Buffers was 1 MB of fresh native memory per request.
 */
export interface GuideDayRawChannel {
  readonly channel: ChannelRow;
  readonly entries?: string;
  /** The channel's head as the import stored it, when it is in the asked `headFormat`. */
  readonly head?: string;
}

/** One channel of a guide day page; channels without programmes that day have an empty list. */
export interface GuideDayChannel {
  readonly channel: ChannelRow;
  readonly programmes: readonly ProgrammeRow[];
}
