/**
 * An account's movie and series lists as they arrive (only the fields items are made of, kept as
 * JSON in TextBlocks), and the detail answer of each title, called a few at once.
 */
import { MarqueeError } from '../../errors.js';
import { tooManyEntries } from '../entry-limits.js';
import { TextBlocks } from './blocks.js';
import type { XtreamClient } from './client.js';
import type { LibraryParts } from './library.js';
import { Tally } from './live.js';
import { id, obj, str } from './values.js';

/** Titles of one list kept at most: as many items as a library import takes (its maxItems). */
export const MAX_LIST_TITLES = 100_000;

/**
 * The fields of a list entry that make an item (common, movieItem, seriesItem): only these are
 * kept of each entry while the list arrives, not the dozens a panel may send.
 */
const ENTRY_FIELDS = [
  'name',
  'stream_id',
  'series_id',
  'category_id',
  'container_extension',
  'rating',
  'releasedate',
  'releaseDate',
  'release_date',
  'year',
  'genre',
  'movie_image',
  'cover_big',
  'cover',
  'stream_icon',
  'backdrop_path',
  'plot',
  'description',
  'cast',
  'actors',
  'director',
] as const;
/**
 * A title of a list as kept while the list arrives: its id, its category id, and the index of
 * the fields items are made of, as JSON in the list's TextBlocks.
 */
export interface ListEntry {
  readonly id: string;
  readonly category?: string;
  readonly json: number;
  readonly blocks: TextBlocks;
}

export const entryOf = (entry: ListEntry) => JSON.parse(entry.blocks.read(entry.json)) as Record<string, unknown>;

export function categoryOf(entry: ListEntry, categories: Record<string, string>): string | undefined {
  return entry.category === undefined ? undefined : categories[entry.category];
}

/**
 * A list answer's objects with a usable id and name (only the fields items are made of),
 * duplicates dropped (each with a warning); more than `maxItems` (`library.maxItems`) fails the
 * read as soon as the title past it arrives.
 */
export async function readList(
  client: XtreamClient,
  action: string,
  key: string,
  warnings: string[],
  maxItems = MAX_LIST_TITLES,
): Promise<ListEntry[]> {
  const out: ListEntry[] = [];
  const blocks = new TextBlocks();
  const seen = new Set<string>();
  const odd = new Tally();
  let index = 0;
  let root: string | undefined;
  for await (const element of client.list(action, (r) => (root = r))) {
    const at = index++;
    const o = obj(element);
    const itemId = id(o?.[key]);
    if (o === undefined || itemId === undefined || str(o.name) === undefined) {
      odd.add(
        'incomplete',
        `${action}[${at}] has no ${o === undefined ? 'object' : itemId === undefined ? key : 'name'}; skipped`,
      );
      continue;
    }
    if (seen.has(itemId)) {
      odd.add('duplicate', `${action}[${at}]: ${key} ${itemId} is listed twice; the second is skipped`);
      continue;
    }
    if (seen.size >= maxItems) {
      throw tooManyEntries(`${client.account.label}: ${action}`, maxItems, 'titles', { setting: 'library.maxItems' });
    }
    seen.add(itemId);
    const kept: Record<string, unknown> = {};
    for (const field of ENTRY_FIELDS) if (o[field] !== undefined) kept[field] = o[field];
    const category = id(o.category_id);
    const json = blocks.write(JSON.stringify(kept));
    out.push({ id: itemId, ...(category !== undefined ? { category } : {}), json, blocks });
  }
  if (root === 'null') warnings.push(`${action} answered null instead of a list`);
  warnings.push(...odd.lines());
  return out;
}

/**
 * The detail answers of `items` (one call each, `concurrency` at once, at most `maxDetails`). A
 * failed call is a warning and the item keeps its list data; most of them failing fails the
 * read, so a panel dying half way does not replace good details with bare lists.
 */
export async function detailsOf(
  client: XtreamClient,
  items: readonly ListEntry[],
  action: string,
  param: string,
  parts: LibraryParts,
  warnings: string[],
): Promise<unknown[]> {
  const max = Math.min(items.length, parts.maxDetails ?? 10_000);
  if (max < items.length) {
    warnings.push(
      `${items.length - max} titles past the first ${max} are listed without ${action} (its limit per import)`,
    );
  }
  const results: unknown[] = new Array(items.length);
  let failed = 0;
  let firstFailure = '';
  let next = 0;
  const worker = async () => {
    while (next < max) {
      const at = next++;
      try {
        results[at] = await client.call(action, { [param]: items[at]!.id });
      } catch (error) {
        if ((error as { name?: string }).name === 'AbortError') throw error;
        failed++;
        firstFailure ||= (error as Error).message;
        if (failed >= 5 && failed * 2 > at + 1) {
          throw new MarqueeError(
            'SOURCE_UNREADABLE',
            `${action} failed for ${failed} of the first ${at + 1} titles: ${firstFailure}`,
          );
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parts.concurrency ?? 8, max)) }, worker));
  if (failed > 0) {
    if (failed * 2 > max && max > 0) {
      throw new MarqueeError('SOURCE_UNREADABLE', `${action} failed for ${failed} of ${max} titles: ${firstFailure}`);
    }
    warnings.push(
      `${action} failed for ${failed} of ${max} titles (the first: ${firstFailure}); they are listed without details`,
    );
  }
  return results;
}
