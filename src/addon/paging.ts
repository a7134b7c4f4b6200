import { MAX_PAGE_SIZE } from '../protocol/responses.js';

export { guideDayWindow, overlapsGuideDay } from '../protocol/guide-day.js';

/**
 * One page of an in-memory list: `skip` is the running count the client holds (any
 * non-negative integer), at most 100 items; an empty page past the end tells the client to stop.
 *
 * @example page(items, 230) // items 230..329
 */
export function page<T>(items: readonly T[], skip: number, size: number = MAX_PAGE_SIZE): T[] {
  return items.slice(skip, skip + Math.min(size, MAX_PAGE_SIZE));
}

/** A programme's video id in the recommended form `{channelId}:epg:{startTime}`. */
export function programmeId(channelId: string, startMs: number): string {
  return `${channelId}:epg:${new Date(startMs).toISOString()}`;
}
