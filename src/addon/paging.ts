import { MAX_PAGE_SIZE } from '../protocol/responses.js';

/**
 * One page of an in-memory list: `skip` is the running count the client holds (any
 * non-negative integer), at most 100 items; an empty page past the end tells the client to stop.
 *
 * @example page(items, 230) // items 230..329
 */
export function page<T>(items: readonly T[], skip: number, size: number = MAX_PAGE_SIZE): T[] {
  return items.slice(skip, skip + Math.min(size, MAX_PAGE_SIZE));
}

const DAY_MS = 86_400_000;

/** The UTC window of a guide day `YYYY-MM-DD`: [00:00:00.000Z, 23:59:59.999Z] in epoch ms. */
export function guideDayWindow(day: string): { readonly start: number; readonly end: number } {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  return { start, end: start + DAY_MS - 1 };
}

/**
 * The spec's guide-day rule: a programme belongs to day D when it ends after D's first instant
 * and starts before D's last one (23:30–00:30 belongs to both days; one ending at 00:00 only to the first).
 *
 * @example overlapsGuideDay(Date.parse('2026-01-01T23:30Z'), Date.parse('2026-01-02T00:30Z'), '2026-01-02') // true
 */
export function overlapsGuideDay(startMs: number, endMs: number, day: string): boolean {
  const window = guideDayWindow(day);
  return endMs > window.start && startMs < window.end;
}

/** A programme's video id in the recommended form `{channelId}:epg:{startTime}`. */
export function programmeId(channelId: string, startMs: number): string {
  return `${channelId}:epg:${new Date(startMs).toISOString()}`;
}
