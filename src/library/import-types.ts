/** The public shapes of a library import: its options, progress, text sources and per-file report. */
import type { SourceOptions, SourceValidators } from '../sources/input/index.js';
import type { LibraryReadOptions } from '../sources/library/options.js';
import type { SourceWarning } from '../sources/records.js';
import type { LibraryImportOptions, LibraryImportReport, SourceCounts, SourceOutcome } from '../store/index.js';

/** What `onProgress` hears: before and after each file, then once committed. */
export type LibraryImportProgress =
  | { readonly phase: 'reading'; readonly source: string }
  | { readonly phase: 'read'; readonly source: string; readonly items: number; readonly warnings: number }
  | { readonly phase: 'committed'; readonly items: number; readonly warnings: number };

export interface ImportLibraryOptions {
  /** Library files (`.json`, `.csv`, `.tsv`) and folders of item files, read in this order; the first of two equal ids wins. */
  readonly files: readonly string[];
  /** Reader limits; `maxItems` (default 100 000) bounds the items of all files together. */
  readonly read?: Omit<LibraryReadOptions, 'source'>;
  readonly import?: LibraryImportOptions;
  /** Most warnings returned (all are counted). Default 1000. */
  readonly maxWarnings?: number;
  readonly onProgress?: (progress: LibraryImportProgress) => void;
  readonly signal?: AbortSignal;
  /** A file yielding fewer items than this share of its last good import is kept. Default 0.5; 0 turns it off. */
  readonly minYieldRatio?: number;
  /** Take shrunk files anyway: `true` for all, or their paths (`--accept-shrink`). */
  readonly acceptShrink?: boolean | readonly string[];
  /** Library sources that are not files (an Xtream account's movies and series), read after `files`. */
  readonly sources?: readonly LibraryTextSource[];
  /** Timeouts, retries and redirects of library URLs (their size limit is `read.maxFileBytes`). */
  readonly sourceOptions?: Omit<
    SourceOptions,
    'previous' | 'signal' | 'copyTo' | 'maxBytes' | 'allowPrivateAddresses' | 'allowFiles'
  >;
  /**
   * Validators of each URL's last good read (the `validators` of the previous result): a URL
   * that answers "not modified" is read from its last good copy.
   */
  readonly validators?: Readonly<Record<string, SourceValidators>>;
}

/**
 * A library source that is not a file: its reader gives a library JSON text, which is judged,
 * copied and read back like a file's.
 */
export interface LibraryTextSource {
  /** Its kind (`xtream`). */
  readonly kind: string;
  /** What its key is made from (may hold credentials: never shown). */
  readonly location: string;
  /** Safe to show. */
  readonly label: string;
  /** The library JSON text, and what was odd in the answers it was made from. */
  read(signal?: AbortSignal): Promise<{ readonly text: string; readonly warnings?: readonly SourceWarning[] }>;
}

/** How one library file went (see docs/reliability.md). */
export interface LibrarySourceReport {
  readonly location: string;
  readonly outcome: SourceOutcome;
  readonly reason?: string;
  /** `kept` / `none`: the line to show the operator. */
  readonly message?: string;
  readonly counts?: SourceCounts;
  readonly lastGood?: { readonly at: number; readonly counts: SourceCounts };
  /** `kept` / `none`: since when the source has been bad (epoch ms). */
  readonly keptSince?: number;
}

export interface ImportLibraryResult {
  readonly report: LibraryImportReport;
  /** Every library file (each file of a folder too), in order, with how it was judged. */
  readonly sources: readonly LibrarySourceReport[];
  /** The first `maxWarnings` warnings, in file order. */
  readonly warnings: SourceWarning[];
  readonly warningCount: number;
  /** ETag / Last-Modified of each URL read well, by location: `validators` of the next import. */
  readonly validators: Record<string, SourceValidators>;
}
