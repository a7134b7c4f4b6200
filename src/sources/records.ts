/**
 * Records the live-TV source readers produce and the store takes. Plain data, no behaviour:
 * the contract between sources/ (parsing) and store/ (persisting).
 */

/** A problem in a source file: where it is and what was skipped or assumed. Never thrown. */
export interface SourceWarning {
  /** File path or URL the record came from. */
  readonly source: string;
  /** 1-based line number, when known. */
  readonly line?: number;
  /** The field the problem is in, as a path (`streams[0].url`) or a CSV column name, when known. */
  readonly field?: string;
  readonly message: string;
}

/** One `#EXTINF` entry of an M3U playlist: one playable stream of one channel. */
export interface PlaylistEntry {
  /** 1-based line of the `#EXTINF` line in its file. */
  readonly line: number;
  /** The title after the comma of `#EXTINF` (commas and quotes kept). */
  readonly name: string;
  readonly url: string;
  readonly tvgId?: string;
  readonly tvgName?: string;
  readonly tvgLogo?: string;
  /** `group-title`, else the last `#EXTGRP`. */
  readonly group?: string;
  /** `tvg-chno` when it is a number. */
  readonly channelNumber?: number;
  /** Hours to shift this channel's guide (`tvg-shift`, else the header's). */
  readonly tvgShift?: number;
  /** `catchup`, `catchup-days`, `catchup-source` and any other `catchup-*` attribute, by name. */
  readonly catchup?: Readonly<Record<string, string>>;
  /** From `user-agent=` on EXTINF or `#EXTVLCOPT:http-user-agent`. */
  readonly userAgent?: string;
  /** From `#EXTVLCOPT:http-referrer` (or `http-referer`). */
  readonly referrer?: string;
  /** `#KODIPROP:key=value` lines. */
  readonly kodiProps?: Readonly<Record<string, string>>;
  /** Every attribute of the EXTINF line, lower-cased names, for anything not mapped above. */
  readonly attributes: Readonly<Record<string, string>>;
}

/** The `#EXTM3U` header. */
export interface PlaylistHeader {
  /** `url-tvg` / `x-tvg-url`: guide URLs the playlist names (comma-separated lists are split). */
  readonly guideUrls: readonly string[];
  /** Header `tvg-shift`, in hours. */
  readonly tvgShift?: number;
  readonly attributes: Readonly<Record<string, string>>;
}

export interface Playlist {
  readonly header: PlaylistHeader;
  readonly entries: readonly PlaylistEntry[];
  readonly warnings: readonly SourceWarning[];
}

/** A text with its optional language, as XMLTV gives several (`<title lang="en">`). */
export interface LangText {
  readonly text: string;
  readonly lang?: string;
}

/** An XMLTV `<channel>`. */
export interface GuideChannel {
  readonly id: string;
  readonly displayNames: readonly LangText[];
  readonly icon?: string;
  readonly url?: string;
}

/** An XMLTV `<programme>`, with times resolved to UTC epoch milliseconds. */
export interface Programme {
  readonly channelId: string;
  /** UTC epoch milliseconds. */
  readonly start: number;
  /** UTC epoch milliseconds; strictly after start (readers drop programmes that are not). */
  readonly stop: number;
  readonly titles: readonly LangText[];
  readonly subTitles: readonly LangText[];
  readonly descriptions: readonly LangText[];
  readonly categories: readonly LangText[];
  /** `xmltv_ns` decoded to 1-based numbers, when present. */
  readonly season?: number;
  readonly episode?: number;
  /** `onscreen` episode-num as written (`S01E02`). */
  readonly episodeOnScreen?: string;
  /** `<date>`: the original air date or year as written (`2019`, `20190312`). */
  readonly date?: string;
  readonly icon?: string;
  readonly ratings: ReadonlyArray<{ readonly system?: string; readonly value: string }>;
  readonly starRating?: string;
  readonly directors: readonly string[];
  readonly actors: readonly string[];
  readonly previouslyShown: boolean;
  readonly isNew: boolean;
  /** 1-based line of the `<programme>` start tag. */
  readonly line: number;
}
