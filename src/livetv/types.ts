/**
 * What a live-TV import takes and reports. The CLI builds the options from the operator's
 * settings; the report is what it prints (and what the store keeps as the import's details).
 */
import type { EntryLimits } from '../sources/entry-limits.js';
import type { SourceOptions, SourceStream, SourceValidators } from '../sources/input/index.js';
import type { Playlist } from '../sources/records.js';
import type { SourceCounts, SourceOutcome } from '../store/index.js';
import type { DecorationReport } from './matcher/index.js';

export interface PlaylistSource {
  /** File path, `file://` or http(s) URL; for a `reader`, the address its key is made from (never shown). */
  readonly location: string;
  /** Hours added to the guide times of this playlist's channels, on top of their `tvg-shift`. */
  readonly shiftHours?: number;
  /** A source of channels that is not an M3U file (an Xtream account): read and parsed by its own reader. */
  readonly reader?: PlaylistReader;
}

/**
 * Reads a source of channels that is not an M3U file into playlist records. Its text (what
 * `read` returns) is the copy kept of it, and what `parse` reads back when it goes bad.
 */
export interface PlaylistReader {
  /** Its kind in reports and source states (`xtream`). */
  readonly kind: string;
  /** Safe to show: no credentials. */
  readonly label: string;
  read(options: SourceOptions): Promise<string>;
  parse(text: string): Playlist;
  /** Guides the source offers, read after the configured ones (or the playlists' `url-tvg`). */
  readonly guides?: readonly GuideSource[];
}

export interface GuideSource {
  readonly location: string;
  /** Hours added to every time of this guide (a guide written in the wrong zone). */
  readonly shiftHours?: number;
  /** Opens the guide instead of `openSource(location)` (an Xtream account's guide, with its fallback). */
  readonly open?: (options: SourceOptions, warn: (warning: ImportWarning) => void) => Promise<SourceStream>;
}

/** Placeholder programmes for channels without guide data; generated when served, never stored. */
export interface PlaceholderOptions {
  readonly enabled: boolean;
  /** Length of each block in minutes (15..1440). Default 60. */
  readonly blockMinutes?: number;
}

export type ImportPhase = 'playlist' | 'guide' | 'commit';

export interface ImportProgress {
  readonly phase: ImportPhase;
  /** The source being read (credentials redacted); the store file for `commit`. */
  readonly source: string;
  /** Bytes read so far from this source, after gzip decompression. */
  readonly bytes: number;
  /**
   * The source's size as the file system or Content-Length gives it, when known. For a gzip source
   * this is the compressed size, so `bytes` can pass it: show a percentage only while it does not.
   */
  readonly totalBytes?: number;
  /** Entries (playlist) or channels + programmes (guide) read so far from this source. */
  readonly records: number;
}

export interface LiveTvImportOptions {
  /** Several playlists are merged: entries with one tvg-id (else one name) are one channel. */
  readonly playlists: readonly PlaylistSource[];
  /**
   * Parse guides in a thread of their own while the batches before are stored (about 0.8x the
   * time of a large guide's import on two cores, for a second busy core). Default: only with
   * more than two cores, so a refresh beside a server leaves it a core; `marquee import` asks for
   * it with two. MARQUEE_XMLTV_THREAD=off|on decides over this (sources/xmltv/thread.ts).
   */
  readonly parseThread?: boolean;
  /**
   * Guides in priority order: the first wins overlapping programmes of one guide channel. When
   * empty, the guide URLs the playlists name in their header (`url-tvg`, `x-tvg-url`) are used.
   */
  readonly guides?: readonly GuideSource[];
  /** Keep only entries of these playlist groups (exact names). */
  readonly includeGroups?: readonly string[];
  /** Drop entries of these playlist groups; applied after `includeGroups`. */
  readonly excludeGroups?: readonly string[];
  /**
   * Playlist channel (tvg-id, tvg-name or name) → guide channel id, or `null` for "no guide";
   * wins over every matching rule.
   */
  readonly guideOverrides?: Readonly<Record<string, string | null>>;
  /** The scored stage of matching: on by default (docs/livetv.md, "Matching by score"). */
  readonly matching?: MatchingOptions;
  /** Programmes that ended more than this many hours ago are dropped. Default 48. */
  readonly retentionHours?: number;
  /** Programmes starting this many days ahead or later are dropped. Default 14. */
  readonly horizonDays?: number;
  /** Preferred guide languages (`['de', 'en']`): the store keeps one text per programme field. */
  readonly languages?: readonly string[];
  /**
   * Counts and lengths of what the sources hold (sources/entry-limits.ts): entries per playlist
   * and guide channels per guide (past them the source fails, named), names and programme texts
   * (cut). Defaults DEFAULT_ENTRY_LIMITS. An Xtream account's reader has its own, given to it.
   */
  readonly limits?: Partial<EntryLimits>;
  /**
   * Streams kept per channel, in the order they are offered (playlists in priority order); the
   * rest are counted in the report (`streamsOverCap`, and a warning per channel), never stored.
   * Default 50 (`livetv.maxStreamsPerChannel`).
   */
  readonly maxStreamsPerChannel?: number;
  /**
   * Programmes one guide channel keeps per UTC day of their start: the earliest-starting ones,
   * once the guides are merged; the rest are counted (`dropped.overDayCap`, a warning naming the
   * worst guide channel day), never stored. Default 1,440, one a minute (`livetv.maxProgrammesPerDay`).
   */
  readonly maxProgrammesPerDay?: number;
  /**
   * Characters of a channel's logo (an http(s) URL or an inline `data:image/` URI): a longer one
   * is left out, with a warning naming the line. Default 8,192 (`livetv.maxLogoLength`).
   */
  readonly maxLogoLength?: number;
  /** Read limits and timeouts for every source (the security options are set by the import). */
  readonly sourceOptions?: Omit<SourceOptions, 'previous' | 'signal' | 'allowPrivateAddresses' | 'allowFiles'>;
  /** `state` of the last successful import: when no source changed since, nothing is imported. */
  readonly previous?: SourceState;
  readonly onProgress?: (progress: ImportProgress) => void;
  /**
   * Called once, when the playlists are parsed and their channels stored, before the guides
   * stream. Nearly all the import has allocated is garbage then (the playlist text, its entries,
   * the channels): an application that bounds its memory can collect it here. The CLI runs a
   * full garbage collection, which keeps a 50,000-entry playlist's import under 200 MB.
   */
  readonly onChannelsStored?: () => void;
  /**
   * Called once, when every guide has been read and before the channels are matched: the
   * programme batches streamed are all garbage then, and the scored stage allocates on top of
   * them (the CLI runs a full garbage collection here too).
   */
  readonly onGuidesRead?: () => void;
  /**
   * Called when a guide found bad only once it was streamed in makes the import start over from
   * local copies: everything of the pass before (its channels, match report, guide index) is
   * garbage then, and the next pass builds as much again. The CLI runs a full garbage collection:
   * without it an account of 300,000 streams peaked at 1.1 GB in the second pass; with it the
   * import peaks in its first.
   */
  readonly onNewPass?: () => void;
  /**
   * Called every 16 MiB of a gzip guide that is inflated in this thread and parsed in another
   * (`parseThread`): only a source that cannot hand over its bytes as read (an Xtream account's
   * guide); files, URLs and copies are inflated in the parsing thread, which collects its own
   * memory. The chunks inflated here and handed on wait in the inflater while a batch is stored,
   * outlive two young collections, and their memory (outside the heap) then waits for a full
   * collection, which this thread, allocating little, seldom needs. The CLI runs a full garbage
   * collection; without this hook such a guide is parsed in one thread.
   */
  readonly onInflatedGuideBytes?: () => void;
  /**
   * Called on a large import (LARGE_IMPORT_CHANNELS channels or more) where it has just left
   * much behind it: once its playlists are grouped into channels (what reading and counting them
   * allocated is garbage then), once the playlist's names are indexed for matching (what
   * reading them allocated), and before the commit (the matcher's indexes). A heap grown to three times its live size between full collections
   * set such an import's peak: 300,000 entries peaked at 490 MB with 230 MB alive (issue 48).
   * The CLI runs a full garbage collection, a few tens of milliseconds each.
   */
  readonly onLargeGarbage?: () => void;
  readonly signal?: AbortSignal;
  /** The import's clock (epoch ms), for tests; default Date.now(). */
  readonly now?: number;
  /** Warnings and unmatched names listed in the result (the totals are always exact). Default 50. */
  readonly maxListed?: number;
  /**
   * Channels of guides that fail as a whole (they "give nothing") kept for the review of matches,
   * at most (their ids and names, for `marquee status --matches`). Default 20,000.
   */
  readonly maxReviewChannels?: number;
  /**
   * The shrink guard: a playlist yielding fewer channels, or a guide fewer programmes for our
   * channels, than this share of its last good import is kept from last good. Default 0.5; 0 turns
   * the ratio off (a fall to nothing is still kept).
   */
  readonly minYieldRatio?: number;
  /** Take shrunk sources anyway: `true` for all, or their locations (`--accept-shrink`). */
  readonly acceptShrink?: boolean | readonly string[];
  /**
   * May guides a playlist names (`url-tvg`) reach loopback, private and link-local addresses?
   * `true`, or the URLs allowed. Default: no (the playlist's content is not the operator's word).
   */
  readonly allowPrivateSources?: boolean | readonly string[];
  /**
   * Folder for the copies of the sources being read (kept as their last good copy when they
   * import well). Default: a temporary folder in the store's copies folder (`<store>.sources/`),
   * removed afterwards.
   */
  readonly workDir?: string;
  /**
   * How long the import waits for another writer of the store (another import) before it fails
   * with IMPORT_FAILED, the previous data still served. Default 60 000 ms.
   */
  readonly lockTimeoutMs?: number;
}

/** What a refresh needs to ask "changed since?" of every source. Plain JSON: keep it anywhere. */
export interface SourceState {
  /** ETag / Last-Modified of each source, by location. */
  readonly validators: Readonly<Record<string, SourceValidators>>;
  /** Guide URLs the playlists named in their header (used when no guide is configured). */
  readonly playlistGuides: readonly string[];
}

export interface ImportWarning {
  readonly source: string;
  readonly line?: number;
  readonly message: string;
}

export interface SourceReport {
  /** `xtream`: an Xtream account's live channels, read like a playlist. */
  readonly kind: 'playlist' | 'guide' | 'xtream';
  readonly location: string;
  /** `fetched` was read; `unchanged` answered "not modified"; `failed` could not be used. */
  readonly status: 'fetched' | 'unchanged' | 'failed';
  /**
   * How the source was judged: `imported` (what it holds now is served), `unchanged` (its last
   * good copy is served), `kept` (bad: its last good copy is served), `none` (bad, and it never
   * imported well: it contributes nothing). See docs/reliability.md.
   */
  readonly outcome: SourceOutcome;
  /** `kept` / `none`: why. */
  readonly reason?: string;
  /** `kept` / `none`: the line to show the operator. */
  readonly message?: string;
  /** What it yields (`channels`; `programmes` for our channels in the served window and `read`). */
  readonly counts?: SourceCounts;
  /** Its last good import before this one, when there was one. */
  readonly lastGood?: { readonly at: number; readonly counts: SourceCounts };
  /** `kept` / `none`: since when the source has been bad (epoch ms). */
  readonly keptSince?: number;
  /** Bytes read after decompression. */
  readonly bytes: number;
  readonly durationMs: number;
  /** Entries (playlist) or programmes (guide) read. */
  readonly records: number;
  readonly warnings: number;
  /**
   * A guide's programme texts cut to their limits (`livetv.maxProgrammeTitleLength`: titles,
   * sub-titles, categories; `livetv.maxDescriptionLength`: descriptions), when any.
   */
  readonly textsCut?: number;
  /** Set when the guide was not configured but named by this playlist's header (`url-tvg`). */
  readonly namedBy?: string;
  /**
   * A playlist's: what it was found to write around its names (prefixes, tags, the words it
   * repeats that the guides' names rarely hold), when it writes any (docs/livetv.md, "How a name is read").
   */
  readonly decoration?: DecorationReport;
}

/** How channels no exact rule matches are matched by their names' score. */
export interface MatchingOptions {
  /** Run the scored stage. Default true; false leaves such channels unmatched. */
  readonly scored?: boolean;
  /** Least score (0..1) a guide channel needs. Default 0.85. */
  readonly threshold?: number;
  /** Least lead over the runner-up guide channel. Default 0.1. */
  readonly margin?: number;
  /**
   * Learn what each playlist writes around its names (the words it repeats before or after many
   * of them that the guides' names rarely hold) and read its names without it. Default true;
   * false reads names by their shapes only.
   */
  readonly decoration?: boolean;
}

/** How one playlist entry's channel found its guide channel, in `LiveTvImportResult.matches`. */
export interface EntryMatch {
  /** The playlist as given (credentials redacted). */
  readonly source: string;
  /** Line of the entry's `#EXTINF`. */
  readonly line: number;
  /** The entry's name as written. */
  readonly name: string;
  /** The channel it is a stream of. */
  readonly channel: string;
  /** The guide channel id, or null when none. */
  readonly guide: string | null;
  /** That guide channel's (first) display name, or null when none (or it has no name). */
  readonly guideName: string | null;
  /** The rule that found it, or null when none did. */
  readonly rule: keyof MatchCounts | null;
  /** Its score (0..1) when `rule` is `scored`, else null. */
  readonly score: number | null;
  /** For scored and unmatched entries: the closest other guide channels, best first (up to 3). */
  readonly candidates: readonly ReviewCandidate[];
}

/** A guide channel a channel's names came close to, as the review list shows it. */
export interface ReviewCandidate {
  readonly id: string;
  /** Its (first) display name, when it has one. */
  readonly name?: string;
  /** 0..1. */
  readonly score: number;
  /**
   * The guide it is in, when that guide failed as a whole in this import (it "gives nothing"):
   * its channels are kept for review only, so the ids `guideOverrides` needs are at hand.
   */
  readonly failedGuide?: string;
}

/** How each matched channel found its guide channel. */
export interface MatchCounts {
  readonly override: number;
  readonly tvgId: number;
  /** tvg-id equal once an iptv-org `@feed` suffix is stripped (`BBCOne.uk@HD`). */
  readonly feed: number;
  /** tvg-name (or name) equal to a display-name, ignoring case. */
  readonly displayName: number;
  /** Names equal once read (prefixes, quality tags, notes, case, accents, punctuation and script set aside). */
  readonly normalizedName: number;
  /** The scored stage: the best display-name by score, clear of the threshold and the runner-up. */
  readonly scored: number;
}

export interface LiveTvImportResult {
  /** `unchanged`: every source answered "not modified"; the store was not touched. */
  readonly status: 'imported' | 'unchanged';
  readonly counts: {
    readonly channels: number;
    readonly streams: number;
    readonly groups: number;
    readonly programmes: number;
    /** Channels with at least one real programme. */
    readonly matchedChannels: number;
    readonly unmatchedChannels: number;
    /** Streams the playlists gave past `maxStreamsPerChannel`: counted, not stored nor served. */
    readonly streamsOverCap: number;
  };
  readonly matchedBy: MatchCounts;
  /**
   * Every playlist entry imported, in file order (playlists in order), with how its channel found
   * its guide channel. Absent when `status` is `unchanged` (nothing was read; `store.channelMatches()`
   * has the served import's).
   */
  readonly matches?: readonly EntryMatch[];
  /** Names of channels without programmes, first `maxListed`, in catalog order. */
  readonly unmatched: readonly string[];
  /** The first `maxListed` warnings of every source and step. */
  readonly warnings: readonly ImportWarning[];
  readonly warningCount: number;
  /** Programmes the store did not keep, by reason (zeros when unchanged). */
  readonly dropped: Readonly<Record<string, number>>;
  readonly sources: readonly SourceReport[];
  /** Pass as `previous` to the next import (keep it only from a successful one). */
  readonly state: SourceState;
  readonly durationMs: number;
}
