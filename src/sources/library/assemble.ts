import * as v from 'valibot';
import { MarqueeError } from '../../errors.js';
import { cutText, nameCut } from '../entry-limits.js';
import type { SourceWarning } from '../records.js';
import {
  LIBRARY_ITEM_FIELDS,
  LIBRARY_VIDEO_FIELDS,
  type LibraryItem,
  LibraryItemSchema,
  LibraryVideoSchema,
} from './item.js';
import {
  type LibraryReadResult,
  MAX_EPISODES_SETTING,
  MAX_ITEMS_SETTING,
  type ResolvedLibraryOptions,
} from './options.js';

/**
 * The format-independent half of every reader: validate raw items found in a file, collect one
 * warning per problem with the best location the format knows, skip what is bad, drop duplicate
 * ids. A bad episode skips only itself; a bad item skips the item.
 */

/** Where a field was written, when a format knows better than the item's first line (CSV cells). */
export interface FieldLocation {
  readonly line: number;
  /** The column header or field name as the file wrote it. */
  readonly field: string;
  /** 1-based CSV column number. */
  readonly column?: number;
}

/** A raw item found by a format reader, with where it was found. */
export interface ItemCandidate {
  readonly value: unknown;
  readonly source: string;
  /** 1-based line where the item starts. */
  readonly line: number;
  /** How messages name the item: `item [3]`, `row`. */
  readonly label: string;
  readonly locate?: (path: string) => FieldLocation | undefined;
}

/** Most warnings one item produces; the rest of its problems are summarised. */
const MAX_WARNINGS_PER_ITEM = 10;

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `['streams', 0, 'url']` → `streams[0].url`. */
export function formatPath(keys: readonly unknown[]): string {
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

function describe(c: ItemCandidate): string {
  const name = isObject(c.value) && typeof c.value.name === 'string' ? c.value.name.trim() : '';
  if (name === '') return c.label;
  return `${c.label} "${name.length > 60 ? `${name.slice(0, 57)}...` : name}"`;
}

function warning(c: ItemCandidate, path: string, text: string): SourceWarning {
  const loc = path === '' ? undefined : c.locate?.(path);
  const where = loc?.column !== undefined ? `column ${loc.column} (${loc.field})` : path;
  const field = loc?.field ?? (path === '' ? undefined : path);
  return {
    source: c.source,
    line: loc?.line ?? c.line,
    ...(field === undefined ? {} : { field }),
    message: `${describe(c)}: ${where === '' ? '' : `${where}: `}${text}`,
  };
}

function issueText(issue: v.BaseIssue<unknown>): string {
  return issue.kind === 'schema' && issue.input === undefined ? 'is required' : issue.message;
}

type Keys = readonly (string | number)[];

function issueWarnings(c: ItemCandidate, prefix: Keys, issues: v.BaseIssue<unknown>[], what: string) {
  const out = issues.slice(0, MAX_WARNINGS_PER_ITEM).map((issue) => {
    const path = formatPath([...prefix, ...(issue.path ?? []).map((p) => p.key)]);
    return warning(c, path, `${issueText(issue)}; ${what} skipped`);
  });
  if (issues.length > MAX_WARNINGS_PER_ITEM) {
    out.push(warning(c, formatPath(prefix), `${issues.length - MAX_WARNINGS_PER_ITEM} more problems; ${what} skipped`));
  }
  return out;
}

/** Paths of strings longer than `max` inside `value`. */
function longStrings(value: unknown, max: number, path: (string | number)[], out: string[]): void {
  if (typeof value === 'string') {
    if (value.length > max) out.push(formatPath(path));
  } else if (Array.isArray(value)) {
    for (const [i, x] of value.entries()) longStrings(x, max, [...path, i], out);
  } else if (isObject(value)) {
    for (const [k, x] of Object.entries(value)) longStrings(x, max, [...path, k], out);
  }
}

function unknownFields(c: ItemCandidate, raw: Raw, known: ReadonlySet<string>, prefix: Keys, out: SourceWarning[]) {
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) out.push(warning(c, formatPath([...prefix, key]), 'unknown field ignored'));
  }
}

/** Validate the episodes one by one, so a bad one skips only itself. */
function keepGoodVideos(c: ItemCandidate, videos: unknown[], o: ResolvedLibraryOptions, out: SourceWarning[]) {
  const kept: { raw: unknown; index: number }[] = [];
  for (const [index, raw] of videos.entries()) {
    const prefix = ['videos', index];
    const path = formatPath(prefix);
    if (!isObject(raw)) {
      out.push(warning(c, path, 'must be an object; episode skipped'));
      continue;
    }
    unknownFields(c, raw, LIBRARY_VIDEO_FIELDS, prefix, out);
    const long: string[] = [];
    longStrings(raw, o.maxFieldLength, prefix, long);
    if (long.length > 0) {
      out.push(warning(c, long[0]!, `longer than ${o.maxFieldLength} characters; episode skipped`));
      continue;
    }
    const parsed = v.safeParse(LibraryVideoSchema, raw, { abortPipeEarly: true });
    if (parsed.success) kept.push({ raw, index });
    else out.push(...issueWarnings(c, prefix, parsed.issues, 'episode'));
  }
  return kept;
}

/**
 * `raw` with its names within `maxNameLength` (the item's name, its genres, its episodes'
 * titles), each one cut with a warning naming its field: before anything matches, stores or
 * serves them, and before the field length check, which would skip the item.
 */
function cutNames(c: ItemCandidate, raw: Raw, o: ResolvedLibraryOptions, out: SourceWarning[]): Raw {
  const max = o.maxNameLength;
  const cut = (value: unknown, path: string) => {
    if (typeof value !== 'string' || value.length <= max) return value;
    out.push(warning(c, path, nameCut('', value.length, max)));
    return cutText(value, max);
  };
  let copy: Raw | undefined;
  const set = (key: string, value: unknown) => {
    copy ??= { ...raw };
    copy[key] = value;
  };
  if (typeof raw.name === 'string' && raw.name.length > max) set('name', cut(raw.name, 'name'));
  if (Array.isArray(raw.genres) && raw.genres.some((g) => typeof g === 'string' && g.length > max)) {
    set(
      'genres',
      raw.genres.map((g, i) => cut(g, `genres[${i}]`)),
    );
  }
  if (
    Array.isArray(raw.videos) &&
    raw.videos.some((e) => isObject(e) && typeof e.title === 'string' && e.title.length > max)
  ) {
    set(
      'videos',
      raw.videos.map((e, i) =>
        isObject(e) && typeof e.title === 'string' && e.title.length > max
          ? { ...e, title: cut(e.title, `videos[${i}].title`) }
          : e,
      ),
    );
  }
  return copy ?? raw;
}

function readItem(c: ItemCandidate, o: ResolvedLibraryOptions, out: SourceWarning[]): LibraryItem | undefined {
  if (!isObject(c.value)) {
    out.push(warning(c, '', 'must be an object; item skipped'));
    return undefined;
  }
  let raw: Raw = cutNames(c, c.value, o, out);
  unknownFields(c, raw, LIBRARY_ITEM_FIELDS, [], out);
  let videoIndex: number[] = [];
  if (raw.type === 'series' && Array.isArray(raw.videos)) {
    const kept = keepGoodVideos(c, raw.videos, o, out);
    raw = { ...raw, videos: kept.map((k) => k.raw) };
    videoIndex = kept.map((k) => k.index);
  }
  const long: string[] = [];
  longStrings({ ...raw, videos: undefined }, o.maxFieldLength, [], long);
  if (long.length > 0) {
    out.push(warning(c, long[0]!, `longer than ${o.maxFieldLength} characters; item skipped`));
    return undefined;
  }
  const parsed = v.safeParse(LibraryItemSchema, raw, { abortPipeEarly: true });
  if (!parsed.success) {
    out.push(...issueWarnings(c, [], parsed.issues, 'item'));
    return undefined;
  }
  return withinEpisodeCap(c, withoutDuplicateEpisodes(c, parsed.output, videoIndex, out), o, out);
}

/**
 * A series with its first `maxEpisodesPerSeries` episodes (file order), the rest left out with a
 * warning: a series of 50,000 episodes made a 5.6 MB meta (issue 48).
 */
function withinEpisodeCap(c: ItemCandidate, item: LibraryItem, o: ResolvedLibraryOptions, out: SourceWarning[]) {
  const max = o.maxEpisodesPerSeries;
  if (item.videos.length <= max) return item;
  out.push(
    warning(
      c,
      '',
      `${item.videos.length} episodes; the first ${max} are kept (${MAX_EPISODES_SETTING}), ${item.videos.length - max} are not`,
    ),
  );
  return { ...item, videos: item.videos.slice(0, max) };
}

/** Two episodes with one id, or one season/episode number pair: the first is kept. */
function withoutDuplicateEpisodes(c: ItemCandidate, item: LibraryItem, rawIndex: number[], out: SourceWarning[]) {
  const ids = new Map<string, number>();
  const numbers = new Map<string, number>();
  const videos = item.videos.filter((video, i) => {
    const raw = rawIndex[i] ?? i;
    const number = `${video.season}:${video.episode}`;
    const firstId = ids.get(video.id);
    const firstNumber = numbers.get(number);
    if (firstId !== undefined || firstNumber !== undefined) {
      const [what, first] =
        firstId !== undefined
          ? [`id "${video.id}"`, firstId]
          : [`season ${video.season} episode ${video.episode}`, firstNumber!];
      const firstAt = c.locate?.(`videos[${first}]`)?.line;
      const also = firstAt === undefined ? `videos[${first}]` : `line ${firstAt}`;
      out.push(warning(c, `videos[${raw}]`, `duplicate episode ${what} (first at ${also}); episode skipped`));
      return false;
    }
    ids.set(video.id, raw);
    numbers.set(number, raw);
    return true;
  });
  return videos.length === item.videos.length ? item : { ...item, videos };
}

/**
 * Validate and normalise raw items; the first of two items with one id wins.
 *
 * @example assembleLibrary([{ value: { type: 'movie', name: 'Sintel' }, source: 'a.json', line: 2, label: 'item [0]' }], resolveOptions())
 */
export function assembleLibrary(candidates: readonly ItemCandidate[], o: ResolvedLibraryOptions): LibraryReadResult {
  if (candidates.length > o.maxItems) {
    throw new MarqueeError(
      'SOURCE_TOO_LARGE',
      `${o.source}: ${candidates.length} items, more than the limit of ${o.maxItems} (${MAX_ITEMS_SETTING})`,
      { details: { source: o.source, items: candidates.length, maxItems: o.maxItems, setting: MAX_ITEMS_SETTING } },
    );
  }
  const items: LibraryItem[] = [];
  const warnings: SourceWarning[] = [];
  const seen = new Map<string, ItemCandidate>();
  for (const c of candidates) {
    const item = readItem(c, o, warnings);
    if (item === undefined) continue;
    const first = seen.get(item.id);
    if (first !== undefined) {
      const at = `${first.source}:${first.line} (${first.label})`;
      warnings.push(warning(c, 'id', `duplicate id "${item.id}", first defined at ${at}; this one is skipped`));
      continue;
    }
    seen.set(item.id, c);
    items.push(item);
  }
  return { items, warnings };
}
