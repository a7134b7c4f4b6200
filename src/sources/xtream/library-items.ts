/**
 * A library item (library JSON) made of a list entry and its detail answer: the fields movies
 * and series share, a movie's runtime and stream, a series' episodes by season with theirs.
 */
import { streamUrl, type XtreamAccount } from './account.js';
import { date, extension, firstUrl, httpUrl, id, list, longText, names, num, obj, str } from './values.js';

/** Characters of a name kept here; the library reader cuts it to `sources.maxNameLength`, with a warning. */
const MAX_NAME = 4_096;

/** Containers a browser plays itself; others go through the client's streaming server. */
const WEB_READY = new Set(['mp4', 'm3u8', 'webm']);

export interface Item {
  [key: string]: unknown;
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
    // Cut to the library's name limit, with a warning, by the library reader (sources.maxNameLength).
    name: str(info?.name, MAX_NAME) ?? str(entry.name, MAX_NAME)!,
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

export function movieItem(
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

export function seriesItem(
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
      const title = str(e.title, MAX_NAME);
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
