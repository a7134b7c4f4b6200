/**
 * An account's movies and series as a library file: `get_vod_streams` (with `get_vod_info` for
 * each movie's details) and `get_series` (with `get_series_info` for its seasons and episodes)
 * become library items in the library JSON format, so the library import reads, validates,
 * judges and copies them like any library file. Ids are `mq:xc-<account>-m<stream_id>` (movies),
 * `-s<series_id>` (series) and `-e<episode id>` (episodes): stable across refreshes, and
 * distinct between accounts (the account part hashes the host and username).
 */
import type { XtreamClient } from './client.js';
import { type Item, movieItem, seriesItem } from './library-items.js';
import { categoryOf, detailsOf, entryOf, readList } from './library-list.js';
import { type CategoryFilter, keepsCategory, readCategories } from './live.js';
import { obj } from './values.js';

export { MAX_LIST_TITLES } from './library-list.js';

export interface LibraryParts extends CategoryFilter {
  /** Read the movies (default true). */
  readonly movies?: boolean;
  /** Read the series (default true). */
  readonly series?: boolean;
  /** Most `get_vod_info` / `get_series_info` calls per kind and import; past it, list data only. Default 10,000. */
  readonly maxDetails?: number;
  /** Detail calls at once. Default 8. */
  readonly concurrency?: number;
  /** Titles of one list read at most (`library.maxItems`); more fails the read. Default 100,000. */
  readonly maxItems?: number;
}

export interface LibraryText {
  /** A library JSON file's text: `{ "items": [...] }`. */
  readonly text: string;
  readonly movies: number;
  readonly series: number;
  /** What was odd in the answers (the library reader adds its own, with item and field). */
  readonly warnings: readonly string[];
}
/**
 * Reads the account's movies and series as a library file text.
 * @example const { text } = await readLibrary(client, { movies: true, series: true })
 */
export async function readLibrary(client: XtreamClient, parts: LibraryParts): Promise<LibraryText> {
  const account = client.account;
  const warnings: string[] = [];
  const items: Item[] = [];
  let movies = 0;
  let series = 0;
  if (parts.movies !== false) {
    const categories = await readCategories(client, 'get_vod_categories', warnings);
    const listed = await readList(client, 'get_vod_streams', 'stream_id', warnings, parts.maxItems);
    const kept = listed.filter((m) => keepsCategory(parts, categoryOf(m, categories)));
    const details = await detailsOf(client, kept, 'get_vod_info', 'vod_id', parts, warnings);
    for (const [index, m] of kept.entries()) {
      items.push(movieItem(account, entryOf(m), obj(details[index]), categoryOf(m, categories)));
      movies++;
    }
  }
  if (parts.series !== false) {
    const categories = await readCategories(client, 'get_series_categories', warnings);
    const listed = await readList(client, 'get_series', 'series_id', warnings, parts.maxItems);
    const kept = listed.filter((s) => keepsCategory(parts, categoryOf(s, categories)));
    const details = await detailsOf(client, kept, 'get_series_info', 'series_id', parts, warnings);
    for (const [index, s] of kept.entries()) {
      const item = seriesItem(account, entryOf(s), obj(details[index]), categoryOf(s, categories), warnings);
      if (item !== undefined) {
        items.push(item);
        series++;
      }
    }
  }
  return { text: JSON.stringify({ items }), movies, series, warnings };
}
