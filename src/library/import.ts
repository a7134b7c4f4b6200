/**
 * Importing a library: every file or folder is read with the library readers and added to ONE
 * atomic store import. Problems with single items are warnings (file, line, field) and the
 * item is skipped; a file that cannot be read at all fails the whole import, because importing
 * the rest would silently drop that file's items from the served library.
 */
import { isMarqueeError, MarqueeError } from '../errors.js';
import { readLibrary } from '../sources/library/index.js';
import type { LibraryItem } from '../sources/library/item.js';
import type { LibraryReadOptions } from '../sources/library/options.js';
import type { SourceWarning } from '../sources/records.js';
import type { LibraryImport, LibraryImportOptions, LibraryImportReport, Store } from '../store/index.js';

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
}

export interface ImportLibraryResult {
  readonly report: LibraryImportReport;
  /** The first `maxWarnings` warnings, in file order. */
  readonly warnings: SourceWarning[];
  readonly warningCount: number;
}

const DEFAULT_MAX_ITEMS = 100_000;
/** Warnings kept in the import record, for `marquee status` and the like. */
const RECORDED_WARNINGS = 20;

const where = (w: SourceWarning) =>
  `${w.source}${w.line === undefined ? '' : `:${w.line}`}${w.field === undefined ? '' : ` ${w.field}`}: ${w.message}`;

/** Collects warnings up to a bound and counts all of them. */
class Warnings {
  readonly kept: SourceWarning[] = [];
  count = 0;
  constructor(private readonly max: number) {}
  add(list: readonly SourceWarning[]): void {
    this.count += list.length;
    for (const w of list) if (this.kept.length < this.max) this.kept.push(w);
  }
}

/** `item` without the episodes whose ids are taken; one warning per episode dropped. */
function withoutTakenEpisodes(
  imp: LibraryImport,
  item: LibraryItem,
  source: string,
  firstSeen: Map<string, string>,
): { item: LibraryItem; warnings: SourceWarning[] } {
  if (item.videos.length === 0) return { item, warnings: [] };
  const warnings: SourceWarning[] = [];
  const videos = item.videos.filter((video, index) => {
    if (video.id !== item.id && !imp.hasId(video.id)) return true;
    warnings.push({
      source,
      field: `videos[${index}].id`,
      message: `item "${item.name}": episode id "${video.id}" is already used by ${firstSeen.get(video.id) ?? `item "${item.name}"`}; episode skipped`,
    });
    return false;
  });
  return { item: videos.length === item.videos.length ? item : { ...item, videos }, warnings };
}

/**
 * Reads `files` and replaces the served library with their items in one atomic import. Throws
 * IMPORT_FAILED (the previous library stays served) when a file cannot be read or no item is usable.
 *
 * @example const { report, warnings } = await importLibrary(store, { files: ['library.json', 'extra.csv'] })
 */
export async function importLibrary(store: Store, options: ImportLibraryOptions): Promise<ImportLibraryResult> {
  if (options.files.length === 0) {
    throw new MarqueeError('INVALID_SETTINGS', 'library.files: name at least one library file or folder');
  }
  const maxItems = options.read?.maxItems ?? DEFAULT_MAX_ITEMS;
  const warnings = new Warnings(Math.max(0, options.maxWarnings ?? 1_000));
  const firstSeen = new Map<string, string>();
  const imp = await store.beginLibraryImport(options.import);
  let added = 0;
  try {
    for (const source of options.files) {
      options.signal?.throwIfAborted();
      options.onProgress?.({ phase: 'reading', source });
      const result = await readLibrary(source, { ...options.read, maxItems });
      options.signal?.throwIfAborted();
      warnings.add(result.warnings);
      let fileItems = 0;
      for (const raw of result.items) {
        if (imp.hasId(raw.id)) {
          warnings.add([
            {
              source,
              field: 'id',
              message: `item "${raw.name}": duplicate id "${raw.id}", first defined by ${firstSeen.get(raw.id)}; this one is skipped`,
            },
          ]);
          continue;
        }
        const { item, warnings: episodeWarnings } = withoutTakenEpisodes(imp, raw, source, firstSeen);
        warnings.add(episodeWarnings);
        if (added >= maxItems) {
          throw new MarqueeError(
            'SOURCE_TOO_LARGE',
            `${source}: the library files hold more than the limit of ${maxItems} items together`,
            { details: { source, maxItems } },
          );
        }
        imp.addItem(item);
        added++;
        fileItems++;
        firstSeen.set(item.id, `item "${item.name}" in ${source}`);
        for (const video of item.videos) firstSeen.set(video.id, `an episode of "${item.name}" in ${source}`);
      }
      options.onProgress?.({ phase: 'read', source, items: fileItems, warnings: result.warnings.length });
    }
    if (added === 0) {
      // Why nothing was imported is a skipped item's reason, not a harmless "unknown field ignored".
      const first = warnings.kept.find((w) => /\bskipped\b/.test(w.message)) ?? warnings.kept[0];
      throw new MarqueeError(
        'IMPORT_FAILED',
        `no usable item in ${options.files.join(', ')}` +
          (first
            ? ` (${warnings.count} problem(s); the first item skipped: ${where(first)})`
            : ' (the files hold no item)') +
          '; the previous library is still served',
        { details: { files: options.files, warnings: warnings.kept.slice(0, RECORDED_WARNINGS) } },
      );
    }
    const report = imp.commit({
      warnings: warnings.count,
      details: { files: options.files, firstWarnings: warnings.kept.slice(0, RECORDED_WARNINGS) },
    });
    options.onProgress?.({ phase: 'committed', items: added, warnings: warnings.count });
    return { report, warnings: warnings.kept, warningCount: warnings.count };
  } catch (error) {
    const failure = isMarqueeError(error, 'IMPORT_FAILED')
      ? error
      : new MarqueeError(
          'IMPORT_FAILED',
          `library import failed: ${(error as Error).message}; the previous library is still served`,
          { cause: error, details: { files: options.files, ...(isMarqueeError(error) ? error.details : {}) } },
        );
    imp.abort(failure.message);
    throw failure;
  }
}
