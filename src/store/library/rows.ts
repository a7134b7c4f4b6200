/**
 * Conversions from the readers' `LibraryItem` records to the JSON the library serves: a light
 * preview for catalog pages, the full meta, episode videos, and the sort and search keys.
 */
import type { LibraryItem, LibraryVideo } from '../../sources/library/item.js';
import { clip, normalizeName } from '../livetv/rows.js';
import type { Meta, MetaPreview } from './types.js';

/** Previews carry at most this much description: a catalog page of 100 stays small. */
export const PREVIEW_DESCRIPTION_CHARS = 300;
/** Past this many distinct id prefixes, none are declared (the ids are not prefix-shaped). */
export const MAX_ID_PREFIXES = 64;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** `text` cut to `max` characters at a word boundary, with an ellipsis when cut. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = clip(text, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Copies the fields of `item` named in `keys` that are set (and non-empty lists) into `out`. */
function copySet(out: Record<string, unknown>, item: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of keys) {
    const value = item[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
}

/** The catalog-page form of an item. */
export function previewOf(item: LibraryItem): MetaPreview {
  const out: Mutable<MetaPreview> = { id: item.id, type: item.type, name: item.name };
  copySet(out, item, ['poster', 'genres', 'releaseInfo', 'imdbRating']);
  if (item.description !== undefined) out.description = shorten(item.description, PREVIEW_DESCRIPTION_CHARS);
  return out;
}

const META_FIELDS = [
  'poster',
  'background',
  'logo',
  'description',
  'releaseInfo',
  'released',
  'runtime',
  'genres',
  'cast',
  'director',
  'links',
  'imdbRating',
  'language',
  'country',
] as const;

/** The details form of an item, without videos (the store adds them from the episode rows). */
export function metaOf(item: LibraryItem): Meta {
  const out: Mutable<Meta> = { id: item.id, type: item.type, name: item.name };
  copySet(out, item, META_FIELDS);
  return out;
}

/** One episode as the series meta lists it. */
export function videoOf(video: LibraryVideo): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: video.id,
    title: video.title,
    season: video.season,
    episode: video.episode,
  };
  copySet(out, video, ['released', 'overview', 'thumbnail']);
  return out;
}

/** Sort keys: epoch ms of `released` and the rating as a number, null when absent or unreadable. */
export function sortKeys(item: LibraryItem): { nameKey: string; released: number | null; rating: number | null } {
  const released = item.released === undefined ? Number.NaN : Date.parse(item.released);
  const rating = item.imdbRating === undefined ? Number.NaN : Number.parseFloat(item.imdbRating);
  return {
    nameKey: normalizeName(item.name),
    released: Number.isFinite(released) ? released : null,
    rating: Number.isFinite(rating) ? rating : null,
  };
}

/** The texts the full-text index holds for an item: name, cast, director, description. */
export function searchTexts(item: LibraryItem): [string, string, string, string] {
  return [item.name, item.cast.join('\n'), item.director.join('\n'), item.description ?? ''];
}

/**
 * The routing prefix of an id: `tt` for IMDb ids, the scheme up to the first `:` (`mq:`,
 * `kitsu:`), else the whole id.
 *
 * @example idPrefix('tt0944947') === 'tt'; idPrefix('mq:movie-sintel-2010') === 'mq:'
 */
export function idPrefix(id: string): string {
  if (/^tt\d/.test(id)) return 'tt';
  const colon = id.indexOf(':');
  return colon > 0 ? id.slice(0, colon + 1) : id;
}

/** The smallest sorted list of prefixes covering `prefixes` (`abc` covers `abc:`), or null past MAX_ID_PREFIXES. */
export function minimalPrefixes(prefixes: Iterable<string>): string[] | null {
  const sorted = [...new Set(prefixes)].sort();
  const out: string[] = [];
  for (const p of sorted) {
    // Sorted order puts a covering prefix right before what it covers.
    if (out.length > 0 && p.startsWith(out[out.length - 1]!)) continue;
    out.push(p);
  }
  return out.length > MAX_ID_PREFIXES ? null : out;
}
