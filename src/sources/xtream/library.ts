/**
 * An account's movies and series as a library file: `get_vod_streams` (with `get_vod_info` for
 * each movie's details) and `get_series` (with `get_series_info` for its seasons and episodes)
 * become library items in the library JSON format, so the library import reads, validates,
 * judges and copies them like any library file. Ids are `mq:xc-<account>-m<stream_id>` (movies),
 * `-s<series_id>` (series) and `-e<episode id>` (episodes): stable across refreshes, and
 * distinct between accounts (the account part hashes the host and username).
 */
import { MarqueeError } from '../../errors.js';
import { streamUrl, type XtreamAccount } from './account.js';
import { TextBlocks } from './blocks.js';
import type { XtreamClient } from './client.js';
import { type CategoryFilter, keepsCategory, readCategories, Tally } from './live.js';
import { date, extension, firstUrl, httpUrl, id, list, longText, names, num, obj, str } from './values.js';

export interface LibraryParts extends CategoryFilter {
  /** Read the movies (default true). */
  readonly movies?: boolean;
  /** Read the series (default true). */
  readonly series?: boolean;
  /** Most `get_vod_info` / `get_series_info` calls per kind and import; past it, list data only. Default 10,000. */
  readonly maxDetails?: number;
  /** Detail calls at once. Default 8. */
  readonly concurrency?: number;
}

export interface LibraryText {
  /** A library JSON file's text: `{ "items": [...] }`. */
  readonly text: string;
  readonly movies: number;
  readonly series: number;
  /** What was odd in the answers (the library reader adds its own, with item and field). */
  readonly warnings: readonly string[];
}

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

/** Containers a browser plays itself; others go through the client's streaming server. */
const WEB_READY = new Set(['mp4', 'm3u8', 'webm']);

interface Item {
  [key: string]: unknown;
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
    const listed = await readList(client, 'get_vod_streams', 'stream_id', warnings);
    const kept = listed.filter((m) => keepsCategory(parts, categoryOf(m, categories)));
    const details = await detailsOf(client, kept, 'get_vod_info', 'vod_id', parts, warnings);
    for (const [index, m] of kept.entries()) {
      items.push(movieItem(account, entryOf(m), obj(details[index]), categoryOf(m, categories)));
      movies++;
    }
  }
  if (parts.series !== false) {
    const categories = await readCategories(client, 'get_series_categories', warnings);
    const listed = await readList(client, 'get_series', 'series_id', warnings);
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

/**
 * A title of a list as kept while the list arrives: its id, its category id, and the index of
 * the fields items are made of, as JSON in the list's TextBlocks.
 */
interface ListEntry {
  readonly id: string;
  readonly category?: string;
  readonly json: number;
  readonly blocks: TextBlocks;
}

const entryOf = (entry: ListEntry) => JSON.parse(entry.blocks.read(entry.json)) as Record<string, unknown>;

function categoryOf(entry: ListEntry, categories: Record<string, string>): string | undefined {
  return entry.category === undefined ? undefined : categories[entry.category];
}

/**
 * A list answer's objects with a usable id and name (only the fields items are made of),
 * duplicates dropped (each with a warning); more than MAX_LIST_TITLES fails the read.
 */
async function readList(client: XtreamClient, action: string, key: string, warnings: string[]): Promise<ListEntry[]> {
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
    if (seen.size >= MAX_LIST_TITLES) {
      throw new MarqueeError(
        'SOURCE_TOO_LARGE',
        `${client.account.label}: ${action}: more than ${MAX_LIST_TITLES} titles`,
      );
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
async function detailsOf(
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

/** Fields shared by movies and series, from the list entry and its details (`info`). */
function common(
  entry: Record<string, unknown>,
  info: Record<string, unknown> | undefined,
  category: string | undefined,
) {
  const get = (...keys: string[]) => {
    for (const k of keys) {
      const value = info?.[k] ?? entry[k];
      if (value !== undefined && value !== null && value !== '') return value;
    }
    return undefined;
  };
  const rating = num(get('rating'));
  const released = date(get('releasedate', 'releaseDate', 'release_date', 'year'));
  const genres = [...new Set([...(category !== undefined ? [category] : []), ...names(get('genre'))])];
  const poster = httpUrl(get('movie_image', 'cover_big', 'cover', 'stream_icon'));
  const background = firstUrl(get('backdrop_path'));
  const description = longText(get('plot', 'description'));
  const cast = names(get('cast', 'actors'));
  const director = names(get('director'));
  return {
    name: str(info?.name, 300) ?? str(entry.name, 300)!,
    ...(poster !== undefined ? { poster } : {}),
    ...(background !== undefined ? { background } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(released !== undefined ? { released } : {}),
    ...(genres.length > 0 ? { genres } : {}),
    ...(cast.length > 0 ? { cast } : {}),
    ...(director.length > 0 ? { director } : {}),
    ...(rating !== undefined && rating > 0 && rating <= 10 ? { imdbRating: Math.round(rating * 10) / 10 } : {}),
  };
}

function movieItem(
  account: XtreamAccount,
  entry: Record<string, unknown>,
  details: Record<string, unknown> | undefined,
  category: string | undefined,
): Item {
  const info = obj(details?.info);
  const data = obj(details?.movie_data);
  const streamId = id(entry.stream_id)!;
  const ext = extension(data?.container_extension ?? entry.container_extension, 'mp4');
  const seconds = num(info?.duration_secs);
  return {
    id: `mq:xc-${account.id}-m${streamId}`,
    type: 'movie',
    ...common(entry, info, category),
    ...(seconds !== undefined && seconds >= 60 ? { runtime: Math.round(seconds / 60) } : {}),
    streams: [streamOf(account, 'movie', streamId, ext)],
  };
}

function seriesItem(
  account: XtreamAccount,
  entry: Record<string, unknown>,
  details: Record<string, unknown> | undefined,
  category: string | undefined,
  warnings: string[],
): Item | undefined {
  const seriesId = id(entry.series_id)!;
  const info = obj(details?.info);
  const itemId = `mq:xc-${account.id}-s${seriesId}`;
  const videos: Item[] = [];
  const seen = new Set<string>();
  for (const [seasonKey, episodes] of seasonsOf(details?.episodes)) {
    for (const element of episodes) {
      const e = obj(element);
      const episodeId = id(e?.id);
      if (e === undefined || episodeId === undefined) continue;
      if (seen.has(episodeId)) {
        warnings.push(`get_series_info ${seriesId}: episode id ${episodeId} is listed twice; the second is skipped`);
        continue;
      }
      seen.add(episodeId);
      const season = num(e.season) ?? num(seasonKey) ?? 1;
      const episode = num(e.episode_num) ?? seen.size;
      const einfo = obj(e.info);
      const title = str(e.title, 300);
      const released = date(einfo?.releasedate ?? einfo?.air_date);
      const overview = longText(einfo?.plot);
      const thumbnail = httpUrl(einfo?.movie_image);
      videos.push({
        id: `mq:xc-${account.id}-e${episodeId}`,
        season: Math.max(0, Math.trunc(season)),
        episode: Math.max(0, Math.trunc(episode)),
        ...(title !== undefined ? { title } : {}),
        ...(released !== undefined ? { released } : {}),
        ...(overview !== undefined ? { overview } : {}),
        ...(thumbnail !== undefined ? { thumbnail } : {}),
        streams: [streamOf(account, 'series', episodeId, extension(e.container_extension, 'mp4'))],
      });
    }
  }
  if (details !== undefined && videos.length === 0) {
    warnings.push(`series ${seriesId} ("${str(entry.name, 80)}") has no episode; listed without them`);
  }
  return {
    id: itemId,
    type: 'series',
    ...common(entry, info, category),
    ...(videos.length > 0 ? { videos } : {}),
  };
}

/**
 * The episodes of a `get_series_info` answer by season: `{ "1": [...], "2": [...] }` on most
 * panels, an array of arrays or one flat array of episodes on some.
 */
function seasonsOf(episodes: unknown): [string, unknown[]][] {
  const byKey = obj(episodes);
  if (byKey) return Object.entries(byKey).map(([k, v]) => [k, list(v)]);
  const all = list(episodes);
  if (all.every((e) => Array.isArray(e))) return all.map((v, i) => [String(i + 1), list(v)]);
  return [['1', all.filter((e) => obj(e) !== undefined)]];
}

function streamOf(account: XtreamAccount, kind: 'movie' | 'series', streamId: string, ext: string): Item {
  return {
    url: streamUrl(account, kind, streamId, ext),
    name: account.host,
    description: ext.toUpperCase(),
    ...(WEB_READY.has(ext) ? {} : { behaviorHints: { notWebReady: true } }),
  };
}
