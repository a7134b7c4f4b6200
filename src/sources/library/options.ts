import { MarqueeError } from '../../errors.js';
import { DEFAULT_ENTRY_LIMITS } from '../entry-limits.js';
import type { SourceWarning } from '../records.js';
import type { LibraryItem } from './item.js';

/** Limits and names for the library readers. Every limit bounds something the file controls. */
export interface LibraryReadOptions {
  /** The name warnings and errors give the input (a file path); the file readers set it. */
  readonly source?: string;
  /** Largest file read, in bytes (a string passed in directly: in UTF-16 code units). Default 64 MiB. */
  readonly maxFileBytes?: number;
  /** Most items (movies and series) in one import; more fails the import (`library.maxItems`). Default 100 000. */
  readonly maxItems?: number;
  /** Longest name, episode title or genre; a longer one is cut with a warning (`sources.maxNameLength`). Default 300. */
  readonly maxNameLength?: number;
  /**
   * Episodes one series keeps (`library.maxEpisodesPerSeries`): the first in file order; the rest
   * are left out with a warning naming the series. Default 10 000.
   */
  readonly maxEpisodesPerSeries?: number;
  /** Longest string value (a description, a URL); a longer one skips its item. Default 16 384. */
  readonly maxFieldLength?: number;
  /** CSV only: the field delimiter; detected from the header row when absent. */
  readonly delimiter?: ',' | ';' | '\t';
}

/** What every library reader returns: the valid items, and one warning per problem skipped. */
export interface LibraryReadResult {
  readonly items: LibraryItem[];
  readonly warnings: SourceWarning[];
}

export const LIBRARY_DEFAULTS = {
  source: '<library>',
  maxFileBytes: 64 * 1024 * 1024,
  maxItems: 100_000,
  maxNameLength: DEFAULT_ENTRY_LIMITS.maxNameLength,
  maxEpisodesPerSeries: 10_000,
  maxFieldLength: 16_384,
} as const;

/** The setting of `maxItems`, as messages name it. */
export const MAX_ITEMS_SETTING = 'library.maxItems';

/** The setting of `maxEpisodesPerSeries`, as messages name it. */
export const MAX_EPISODES_SETTING = 'library.maxEpisodesPerSeries';

export type ResolvedLibraryOptions = Required<Omit<LibraryReadOptions, 'delimiter'>> &
  Pick<LibraryReadOptions, 'delimiter'>;

export function resolveOptions(options: LibraryReadOptions = {}): ResolvedLibraryOptions {
  return { ...LIBRARY_DEFAULTS, ...stripUndefined(options) };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Refuse a text longer than `maxFileBytes` before parsing it. */
export function checkTextSize(text: string, o: ResolvedLibraryOptions): void {
  if (text.length > o.maxFileBytes) {
    throw new MarqueeError('SOURCE_TOO_LARGE', `${o.source}: larger than the limit of ${o.maxFileBytes} bytes`, {
      details: { source: o.source, maxFileBytes: o.maxFileBytes },
    });
  }
}
