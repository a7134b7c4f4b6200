/**
 * Importing a library: every file or folder is read with the library readers and added to ONE
 * atomic store import. Problems with single items are warnings (file, line, field) and the
 * item is skipped; a file that cannot be read, is not a library file, holds no item or shrinks
 * past the guard keeps its last good items (from the copy stored with its last good import), so
 * no file's items silently leave the served library.
 */
import { isMarqueeError, MarqueeError } from '../errors.js';
import { LIBRARY_DEFAULTS } from '../sources/library/index.js';
import type { SourceWarning } from '../sources/records.js';
import { failedAreaAttempts, type Store, yieldPolicy } from '../store/index.js';
import { cleanItem, withoutTakenEpisodes } from './import-items.js';
import { attemptOf, type Judge, reportOf, where } from './import-judge.js';
import { readSource, readTextSource } from './import-read.js';
import type { ImportLibraryOptions, ImportLibraryResult } from './import-types.js';
import { libraryLabel } from './location.js';

export type {
  ImportLibraryOptions,
  ImportLibraryResult,
  LibraryImportProgress,
  LibrarySourceReport,
  LibraryTextSource,
} from './import-types.js';

const DEFAULT_MAX_ITEMS = 100_000;
/** The area of the library's source states. */
const LIBRARY_AREA = 'library';
/** Warnings kept in the import record, for `marquee status` and the like. */
const RECORDED_WARNINGS = 20;

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
/**
 * Reads `files` and replaces the served library with their items in one atomic import. Each
 * file (each file of a folder too) is judged on its own (docs/reliability.md): one that cannot
 * be read, is not a library file, holds no item or shrinks past the guard is read from its last
 * good copy instead, so its items stay served. Throws IMPORT_FAILED (the previous library stays
 * served) when no item is usable at all.
 *
 * @example const { report, warnings, sources } = await importLibrary(store, { files: ['library.json', 'extra.csv'] })
 */
export async function importLibrary(store: Store, options: ImportLibraryOptions): Promise<ImportLibraryResult> {
  if (options.files.length === 0 && (options.sources?.length ?? 0) === 0) {
    throw new MarqueeError('INVALID_SETTINGS', 'library.files: name at least one library file or folder');
  }
  const names = [...options.files.map(libraryLabel), ...(options.sources ?? []).map((s) => s.label)];
  const maxItems = options.read?.maxItems ?? DEFAULT_MAX_ITEMS;
  const warnings = new Warnings(Math.max(0, options.maxWarnings ?? 1_000));
  const firstSeen = new Map<string, string>();
  const now = Date.now();
  const stored = store.sourceStates(LIBRARY_AREA);
  const judge: Judge = {
    store,
    states: new Map(stored.map((s) => [s.key, s])),
    legacy: !stored.some((s) => s.copyBytes !== undefined) && store.libraryCounts().items > 0,
    policy: yieldPolicy(options),
    maxFileBytes: options.read?.maxFileBytes ?? LIBRARY_DEFAULTS.maxFileBytes,
    signal: options.signal,
    plans: [],
    source: options.sourceOptions,
    previous: options.validators ?? {},
    validators: {},
  };
  const stays =
    store.libraryCounts().items > 0
      ? 'the previous library is still served'
      : 'no library was imported before, so none is served';
  const imp = await store.beginLibraryImport(options.import);
  let added = 0;
  try {
    const inputs = [...options.files, ...(options.sources ?? [])];
    for (const input of inputs) {
      const source = typeof input === 'string' ? libraryLabel(input) : input.label;
      options.signal?.throwIfAborted();
      options.onProgress?.({ phase: 'reading', source });
      const result =
        typeof input === 'string'
          ? await readSource(judge, input, { ...options.read, maxItems })
          : await readTextSource(judge, input, { ...options.read, maxItems });
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
        const { item, warnings: episodeWarnings } = withoutTakenEpisodes(imp, cleanItem(raw), source, firstSeen);
        warnings.add(episodeWarnings);
        if (added >= maxItems) {
          throw new MarqueeError(
            'SOURCE_TOO_LARGE',
            `${source}: the library files hold more than the limit of ${maxItems} items together (library.maxItems)`,
            { details: { source, maxItems, setting: 'library.maxItems' } },
          );
        }
        imp.addItem(item);
        added++;
        fileItems++;
        firstSeen.set(item.id, `item "${item.name}" in ${source}`);
        for (const video of item.videos) firstSeen.set(video.id, `an episode of "${item.name}" in ${source}`);
      }
      // A source that could not be read (a missing file) is said in the report, not as "read, 0 records".
      const unread = fileItems === 0 && judge.plans.some((p) => p.path === source && p.outcome === 'none');
      if (!unread) options.onProgress?.({ phase: 'read', source, items: fileItems, warnings: result.warnings.length });
    }
    const sources = judge.plans.map((p) => reportOf(p, now));
    if (added === 0) {
      // Why nothing was imported is a skipped item's reason, not a harmless "unknown field ignored".
      const first = warnings.kept.find((w) => /\bskipped\b/.test(w.message)) ?? warnings.kept[0];
      const bad = sources.filter((s) => s.message !== undefined).map((s) => s.message);
      throw new MarqueeError(
        'IMPORT_FAILED',
        `no usable item in ${names.join(', ')}` +
          (bad.length > 0
            ? ` (${bad.join('; ')})`
            : first
              ? ` (${warnings.count} problem(s); the first item skipped: ${where(first)})`
              : ' (the files hold no item)') +
          `; ${stays}`,
        { details: { files: names, warnings: warnings.kept.slice(0, RECORDED_WARNINGS) } },
      );
    }
    const report = imp.commit({
      warnings: warnings.count,
      details: { files: names, sources, firstWarnings: warnings.kept.slice(0, RECORDED_WARNINGS) },
      sources: judge.plans.map((p) => attemptOf(p, true)),
    });
    options.onProgress?.({ phase: 'committed', items: added, warnings: warnings.count });
    return { report, warnings: warnings.kept, warningCount: warnings.count, sources, validators: judge.validators };
  } catch (error) {
    const failure = isMarqueeError(error, 'IMPORT_FAILED')
      ? error
      : new MarqueeError('IMPORT_FAILED', `library import failed: ${(error as Error).message}; ${stays}`, {
          cause: error,
          details: { files: names, ...(isMarqueeError(error) ? error.details : {}) },
        });
    // Files judged good were not imported either: each says so, with why (not on a legacy store,
    // nor for a cancelled import, which is no file's fault).
    imp.abort(
      failure.message,
      judge.legacy || options.signal?.aborted
        ? undefined
        : failedAreaAttempts(
            judge.plans.map((p) => attemptOf(p, false)),
            judge.states,
            failure.message,
          ),
    );
    throw failure;
  }
}
