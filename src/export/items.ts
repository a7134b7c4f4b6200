import { type ExtraPairs, formatExtra, type Manifest, resourceRoutes } from '../protocol/index.js';
import { type Crawl, fetchAndWrite, type ItemRef } from './crawl.js';

/**
 * Everything the detail page and the player ask about an item seen in a catalog: its meta
 * (only where the manifest routes the id, as the client would), the streams of each video the
 * user can pick, and subtitles. The player asks subtitles with the extras `videoHash`,
 * `videoSize`, `filename`, in that order, each when known: from the stream's behaviorHints
 * first, else measured while playing. Declared hints are known now, so that file is written;
 * measured ones cannot be, so the request without extras is written as the fallback (see
 * docs/export.md for a server rule that maps the rest onto it).
 */

export interface ItemCounts {
  metas: number;
  streams: number;
  subtitles: number;
}

interface VideoLike {
  readonly id?: unknown;
  readonly startTime?: unknown;
  readonly endTime?: unknown;
}

/**
 * Export meta, streams and subtitles of every item in `crawl.items`.
 *
 * @example const counts = await exportItems(crawl, manifest);
 */
export async function exportItems(crawl: Crawl, manifest: Manifest): Promise<ItemCounts> {
  const counts: ItemCounts = { metas: 0, streams: 0, subtitles: 0 };
  for (const item of crawl.items.values()) {
    if (crawl.writer.full) break;
    let videoIds = [item.id];
    if (resourceRoutes(manifest, 'meta', item.type, item.id)) {
      const body = await fetchAndWrite(crawl, { resource: 'meta', type: item.type, id: item.id, extra: [] });
      if (body !== undefined) {
        counts.metas += 1;
        videoIds = playableIds(item, body.meta);
      }
    }
    for (const videoId of videoIds) await exportVideo(crawl, manifest, { type: item.type, id: videoId }, counts);
  }
  return counts;
}

/**
 * The ids the client asks streams for: each video that is not a scheduled programme (series
 * episodes), else the item itself (a movie; a channel, whose programmes play through it).
 */
function playableIds(item: ItemRef, meta: unknown): string[] {
  const fields = (typeof meta === 'object' && meta !== null ? meta : {}) as {
    videos?: unknown;
    behaviorHints?: { defaultVideoId?: unknown };
  };
  const videos = Array.isArray(fields.videos) ? (fields.videos as VideoLike[]) : [];
  const ids = videos
    .filter((video) => typeof video.id === 'string' && (video.startTime === undefined || video.endTime === undefined))
    .map((video) => video.id as string);
  const fallback = fields.behaviorHints?.defaultVideoId;
  if (typeof fallback === 'string') ids.unshift(fallback);
  if (ids.length === 0) ids.push(item.id);
  return [...new Set(ids)];
}

async function exportVideo(crawl: Crawl, manifest: Manifest, video: ItemRef, counts: ItemCounts): Promise<void> {
  let streams: unknown[] = [];
  if (resourceRoutes(manifest, 'stream', video.type, video.id)) {
    const body = await fetchAndWrite(crawl, { resource: 'stream', ...video, extra: [] });
    if (body !== undefined) {
      counts.streams += 1;
      if (Array.isArray(body.streams)) streams = body.streams;
    }
  }
  if (!resourceRoutes(manifest, 'subtitles', video.type, video.id)) return;
  const variants = new Map<string, ExtraPairs>([['', []]]);
  for (const stream of streams) {
    const extra = subtitlesExtra(stream);
    if (extra.length > 0) variants.set(formatExtra(extra), extra);
  }
  for (const extra of variants.values()) {
    if (await fetchAndWrite(crawl, { resource: 'subtitles', ...video, extra })) counts.subtitles += 1;
  }
}

/** The extras the player sends for a stream's declared hints, in the player's order. */
function subtitlesExtra(stream: unknown): ExtraPairs {
  const hints = (stream as { behaviorHints?: Record<string, unknown> } | null)?.behaviorHints;
  if (typeof hints !== 'object' || hints === null) return [];
  const extra: Array<readonly [string, string]> = [];
  if (typeof hints.videoHash === 'string') extra.push(['videoHash', hints.videoHash]);
  if (typeof hints.videoSize === 'number') extra.push(['videoSize', String(hints.videoSize)]);
  if (typeof hints.filename === 'string') extra.push(['filename', hints.filename]);
  return extra;
}

/**
 * Export every declared add-on catalog (`/addon_catalog/{type}/{id}.json`); returns how many.
 *
 * @example await exportAddonCatalogs(crawl, manifest) // 1
 */
export async function exportAddonCatalogs(crawl: Crawl, manifest: Manifest): Promise<number> {
  let written = 0;
  for (const entry of manifest.addonCatalogs ?? []) {
    const body = await fetchAndWrite(crawl, { resource: 'addon_catalog', type: entry.type, id: entry.id, extra: [] });
    if (body !== undefined) written += 1;
  }
  return written;
}
