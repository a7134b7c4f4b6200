/**
 * What the library part of the store takes and gives back. It takes the readers' normalised
 * `LibraryItem` records as they are; it gives back protocol objects ready to serve.
 */
import type { Meta, MetaPreview } from '../../protocol/meta.js';
import type { Stream, Subtitle } from '../../protocol/stream.js';
import type { SourceAttempt } from '../sources.js';

/** The orders a library catalog can be sorted in; ties always fall back to the item id. */
export const LIBRARY_SORTS = ['newest', 'oldest', 'name', 'rating'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];

export interface LibraryImportOptions {
  /** How long to wait for another import (of any kind) to finish before failing. Default 60 s. */
  readonly lockTimeoutMs?: number;
  /** Page cache of the import connection in KiB. Default 8 MiB. */
  readonly cacheKiB?: number;
}

/** What the caller adds to the import record at commit. */
export interface LibraryCommitInput {
  /** Warnings the readers produced (the store only counts them). */
  readonly warnings?: number;
  /** Anything JSON-serialisable worth keeping (files read, first warnings); max 256 KiB. */
  readonly details?: unknown;
  /** How each library file went, in order, with the copies of those imported (see CommitInput.sources). */
  readonly sources?: readonly SourceAttempt[];
}

/** Counts of the library as served. */
export interface LibraryCounts {
  readonly items: number;
  readonly movies: number;
  readonly series: number;
  readonly episodes: number;
  readonly streams: number;
  readonly subtitles: number;
  /** Distinct (type, genre) pairs. */
  readonly genres: number;
  readonly adult: number;
}

export interface LibraryImportReport {
  readonly counts: LibraryCounts;
  /** Types that have at least one item, in `movie`, `series` order. */
  readonly types: readonly string[];
  /**
   * Prefixes that route every stored item and episode id (`tt`, `mq:`), sorted; `null` when the ids
   * share no short prefixes (more than MAX_ID_PREFIXES): then the add-on routes every id of its types.
   */
  readonly idPrefixes: readonly string[] | null;
  readonly warnings: number;
  readonly durationMs: number;
  readonly details?: unknown;
}

/** Who may see what: adult items only when the user's configuration allows them. */
export interface Audience {
  readonly adult?: boolean;
}

export interface LibraryPageQuery extends Audience {
  readonly type: string;
  readonly sort?: LibrarySort;
  /** Only items with this genre (exact, as listed by `libraryGenres`). */
  readonly genre?: string;
  /** Full-text search; ranked by relevance instead of `sort`. An unusable query matches nothing. */
  readonly search?: string;
  readonly offset?: number;
  /** At most 100; default 100. */
  readonly limit?: number;
  /** Bytes of the page's JSON list, at most (an answer's byte bound): it ends before the item past it, keeping one. */
  readonly maxBytes?: number;
}

export interface LibraryGenre {
  readonly genre: string;
  /** Items of that type and genre the audience may see. */
  readonly items: number;
}

/** A cached manifest of another add-on, for add-on catalogs. */
export interface AddonManifestRow {
  readonly url: string;
  /** The last manifest that validated; absent until one did. */
  readonly manifest?: Record<string, unknown>;
  readonly fetchedAt?: number;
  readonly etag?: string;
  readonly lastModified?: string;
  readonly checkedAt: number;
  /** Why the last attempt failed; absent when it succeeded. */
  readonly error?: string;
}

/** The outcome of fetching one manifest: a new copy, "unchanged", or an error (the last good copy stays). */
export type AddonManifestUpdate =
  | {
      readonly url: string;
      readonly manifest: Record<string, unknown>;
      readonly etag?: string;
      readonly lastModified?: string;
    }
  | { readonly url: string; readonly notModified: true }
  | { readonly url: string; readonly error: string };

export type { Meta, MetaPreview, Stream, Subtitle };
