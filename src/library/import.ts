/**
 * Importing a library: every file or folder is read with the library readers and added to ONE
 * atomic store import. Problems with single items are warnings (file, line, field) and the
 * item is skipped; a file that cannot be read, is not a library file, holds no item or shrinks
 * past the guard keeps its last good items (from the copy stored with its last good import), so
 * no file's items silently leave the served library.
 */
import { stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isMarqueeError, MarqueeError } from '../errors.js';
import { cleanName, cleanText } from '../sources/clean.js';
import { readCopyText, type SourceOptions, type SourceValidators } from '../sources/input/index.js';
import {
  assembleLibraryFolder,
  type ItemCandidate,
  LIBRARY_DEFAULTS,
  type LibraryReadResult,
  libraryFolderFile,
  listLibraryFolder,
  parseLibraryJson,
  parseLibraryText,
} from '../sources/library/index.js';
import type { LibraryItem } from '../sources/library/item.js';
import type { LibraryReadOptions } from '../sources/library/options.js';
import type { SourceWarning } from '../sources/records.js';
import {
  failedAreaAttempts,
  failureReason,
  type LibraryImport,
  type LibraryImportOptions,
  type LibraryImportReport,
  type SourceAttempt,
  type SourceCounts,
  type SourceOutcome,
  type SourceState,
  type Store,
  shrinkReason,
  sourceKey,
  sourceLine,
  type YieldPolicy,
  yieldPolicy,
} from '../store/index.js';
import { isLibraryUrl, libraryLabel, readLibraryLocation, urlFormat } from './location.js';

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

const DEFAULT_MAX_ITEMS = 100_000;
/** The area of the library's source states. */
const LIBRARY_AREA = 'library';
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

/** `item` with the control characters of its name, description and episodes' texts removed (sources/clean.ts). */
function cleanItem(item: LibraryItem): LibraryItem {
  const name = cleanName(item.name);
  const description = item.description === undefined ? undefined : cleanText(item.description);
  let videosChanged = false;
  const videos = item.videos.map((v) => {
    const title = v.title === undefined ? undefined : cleanName(v.title);
    const overview = v.overview === undefined ? undefined : cleanText(v.overview);
    if (title === v.title && overview === v.overview) return v;
    videosChanged = true;
    return { ...v, ...(title !== undefined ? { title } : {}), ...(overview !== undefined ? { overview } : {}) };
  });
  if (name === item.name && description === item.description && !videosChanged) return item;
  return { ...item, name, ...(description !== undefined ? { description } : {}), ...(videosChanged ? { videos } : {}) };
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

/** One library file (a file named in `files`, or one file of a folder named there), judged on its own. */
interface FilePlan {
  readonly key: string;
  readonly path: string;
  /** What it is shown as: a URL with its credentials hidden. */
  readonly label: string;
  /** A text source's kind (`xtream`); a file's is `library`. */
  readonly kind?: string;
  readonly state: SourceState | undefined;
  outcome: SourceOutcome;
  reason?: string;
  counts?: SourceCounts;
  /** Imported: its text as gzip, the copy stored with the import. */
  fresh?: Buffer;
}

interface Judge {
  readonly store: Store;
  readonly states: ReadonlyMap<string, SourceState>;
  readonly legacy: boolean;
  readonly policy: YieldPolicy;
  readonly maxFileBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly plans: FilePlan[];
  readonly source: SourceOptions | undefined;
  readonly previous: Readonly<Record<string, SourceValidators>>;
  /** Validators of the URLs read well in this import. */
  readonly validators: Record<string, SourceValidators>;
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

/** The items of one configured file, folder or URL, each of its files judged on its own. */
async function readSource(j: Judge, source: string, read: LibraryReadOptions): Promise<LibraryReadResult> {
  const url = isLibraryUrl(source);
  if (!url) {
    const folder = await readFolder(j, source, read);
    if (folder !== undefined) return folder;
  }
  // A URL is shown without its credentials, and its format is told by its path or its text.
  const label = libraryLabel(source);
  const found = await judgeFile(j, source, (text) => {
    const r = parseLibraryText(text, label, read, url ? urlFormat(source, text) : undefined);
    return { value: r.items, count: r.items.length, warnings: r.warnings };
  });
  return { items: found.value, warnings: found.warnings };
}

/**
 * The items of `source` when it is a folder (or was one: its files were imported before), each
 * file judged on its own; undefined when it is not a folder.
 */
async function readFolder(j: Judge, source: string, read: LibraryReadOptions): Promise<LibraryReadResult | undefined> {
  const info = await stat(source).catch(() => undefined);
  const prefix = source.endsWith(sep) ? source : `${source}${sep}`;
  const folderFiles = [...j.states.values()].filter((s) => s.label.startsWith(prefix));
  if (!info?.isDirectory() && (info !== undefined || folderFiles.length === 0)) return undefined;
  let paths: string[] | undefined;
  let reason: string | undefined;
  try {
    paths = await listLibraryFolder(source, read);
    if (paths.length === 0) reason = 'holds no item file (*.json)';
  } catch (error) {
    reason = failureReason(error, source, j.signal);
  }
  if (reason !== undefined) {
    // The folder itself is bad: every file it held keeps its last good items.
    if (folderFiles.length === 0) {
      const p = newPlan(j, source);
      bad(j, p, reason);
      return { items: [], warnings: [] };
    }
    paths = folderFiles.map((s) => s.label);
    const candidates: ItemCandidate[] = [];
    for (const path of paths) {
      const p = newPlan(j, path);
      bad(j, p, `is in folder ${source}, which ${reason}`);
      candidates.push(...(await fromCopy(j, p, (text) => libraryFolderFile(text, path).candidates)));
    }
    return assembleLibraryFolder(candidates, source, read);
  }
  const candidates: ItemCandidate[] = [];
  const warnings: SourceWarning[] = [];
  for (const path of paths!) {
    const found = await judgeFile(j, path, (text) => {
      const r = libraryFolderFile(text, path);
      return { value: r.candidates, count: r.candidates.length, warnings: r.warnings };
    });
    candidates.push(...found.value);
    warnings.push(...found.warnings);
  }
  const assembled = assembleLibraryFolder(candidates, source, read);
  return { items: assembled.items, warnings: [...warnings, ...assembled.warnings] };
}

/** The items of a library text source, judged like a file. */
async function readTextSource(
  j: Judge,
  source: LibraryTextSource,
  read: LibraryReadOptions,
): Promise<LibraryReadResult> {
  const found = await judgeFile(
    j,
    source.label,
    (text) => {
      const r = parseLibraryJson(text, { ...read, source: source.label });
      return { value: r.items, count: r.items.length, warnings: r.warnings };
    },
    { key: sourceKey(source.kind, source.location), kind: source.kind, read: () => source.read(j.signal ?? undefined) },
  );
  return { items: found.value, warnings: found.warnings };
}

type Parsed<T> = { value: T[]; count: number; warnings: SourceWarning[] };

/**
 * Reads, parses and judges one file (or a text source: `from`); falls back to its last good copy
 * when it is bad.
 */
async function judgeFile<T>(
  j: Judge,
  path: string,
  parse: (text: string) => Parsed<T>,
  from?: {
    readonly key: string;
    readonly kind: string;
    read(): Promise<{ readonly text: string; readonly warnings?: readonly SourceWarning[] }>;
  },
): Promise<Parsed<T>> {
  const p = newPlan(j, path, from);
  let reason: string;
  try {
    // Asked "changed since?" only when an answer of "no" can be served: from its last good copy.
    const previous = hasCopy(p) ? j.previous[path] : undefined;
    const read:
      | { notModified: true }
      | { notModified: false; text: string; warnings?: readonly SourceWarning[]; validators?: SourceValidators } = from
      ? { ...(await from.read()), notModified: false }
      : await readLibraryLocation(path, {
          maxBytes: j.maxFileBytes,
          ...(j.source ? { source: j.source } : {}),
          ...(previous ? { previous } : {}),
        });
    if (read.notModified) {
      // Not changed since its last good read: its last good copy, counted as then.
      p.outcome = 'unchanged';
      if (p.state?.goodCounts) p.counts = p.state.goodCounts;
      j.validators[path] = previous!;
      const value = parse(await readCopyText(j.store.sourceCopy(p.key), p.label, j.maxFileBytes)).value;
      return { value, count: value.length, warnings: [] };
    }
    const text = read.text;
    const parsed = parse(text);
    if (read.warnings?.length) parsed.warnings.unshift(...read.warnings);
    const shrink = shrinkReason(p.state, 'items', 'items', parsed.count, j.policy, path, p.label);
    if (parsed.count > 0 && shrink === undefined) {
      p.counts = { items: parsed.count };
      p.fresh = gzipSync(Buffer.from(text, 'utf8'), { level: 1 });
      if (read.validators) j.validators[path] = read.validators;
      return parsed;
    }
    // The first item skipped says more than a harmless "unknown field ignored" before it.
    const first = parsed.warnings.find((w) => / skipped$/.test(w.message)) ?? parsed.warnings[0];
    reason =
      parsed.count > 0 && shrink !== undefined
        ? shrink
        : `holds no usable item${first ? ` (the first item skipped: ${where(first)})` : ''}`;
  } catch (error) {
    reason = failureReason(error, p.label, j.signal);
  }
  bad(j, p, reason);
  const value = await fromCopy(j, p, (text) => parse(text).value);
  return { value, count: value.length, warnings: [] };
}

function newPlan(j: Judge, path: string, source?: { readonly key: string; readonly kind: string }): FilePlan {
  const key = source?.key ?? sourceKey('library', path);
  const p: FilePlan = {
    key,
    path,
    label: source ? path : libraryLabel(path),
    ...(source ? { kind: source.kind } : {}),
    state: j.states.get(key),
    outcome: 'imported',
  };
  j.plans.push(p);
  return p;
}

function bad(j: Judge, p: FilePlan, reason: string): void {
  if (j.legacy) {
    throw new MarqueeError(
      'IMPORT_FAILED',
      `library file ${p.label} ${reason}; nothing was imported (this store has no last good copy of its files yet), ` +
        'the previous library is still served',
      { details: { source: p.label } },
    );
  }
  p.outcome = hasCopy(p) ? 'kept' : 'none';
  p.reason = reason;
}

/** Does the file have a last good copy (stored with a good import) to fall back on? */
const hasCopy = (p: FilePlan) => p.state?.copyBytes !== undefined && p.state.goodAt !== undefined;

/** What a bad file's last good copy holds (nothing when it has none). */
async function fromCopy<T>(j: Judge, p: FilePlan, parse: (text: string) => T[]): Promise<T[]> {
  if (p.outcome !== 'kept') return [];
  return parse(await readCopyText(j.store.sourceCopy(p.key), p.label, j.maxFileBytes));
}

function attemptOf(p: FilePlan, withCopy: boolean): SourceAttempt {
  return {
    key: p.key,
    kind: p.kind ?? 'library',
    label: p.label,
    outcome: p.outcome,
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    // Unchanged: counted as at its last good read, which stays its last good.
    ...(p.counts !== undefined && (p.outcome === 'imported' || p.outcome === 'unchanged') ? { counts: p.counts } : {}),
    ...(withCopy && p.fresh ? { copy: [p.fresh] } : {}),
  };
}

function reportOf(p: FilePlan, now: number): LibrarySourceReport {
  const badly = p.outcome === 'kept' || p.outcome === 'none';
  const state = p.state && badly ? { ...p.state, keptSince: p.state.keptSince ?? now } : p.state;
  return {
    location: p.label,
    outcome: p.outcome,
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    ...(badly ? { message: sourceLine(attemptOf(p, false), state) } : {}),
    ...(p.counts !== undefined ? { counts: p.counts } : {}),
    ...(p.state?.goodAt !== undefined ? { lastGood: { at: p.state.goodAt, counts: p.state.goodCounts ?? {} } } : {}),
    ...(badly ? { keptSince: state?.keptSince ?? now } : {}),
  };
}
