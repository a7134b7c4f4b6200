import type { Catalog } from '../protocol/index.js';
import { pageList } from './catalog-pages.js';
import type { Crawl } from './crawl.js';

/**
 * Guide days of a guide catalog (tv + date). The client asks each UTC date the user's local day
 * overlaps, `date=D` then `date=D&skip=N`. A static export can only hold the days the add-on has
 * now, so it asks from today forward and from yesterday backward within the window, and stops in
 * each direction at the first empty day (written too: the client sees "no programmes", not an
 * error). Days past the stored horizon need a new export: see docs/export.md.
 */

const DAY_MS = 86_400_000;
/** Widest window accepted: a month back, two months ahead. */
export const GUIDE_WINDOW_LIMITS = { from: -31, to: 62 } as const;

export interface GuideResult {
  readonly lists: number;
  readonly pages: number;
  readonly items: ReadonlySet<string>;
  /** Days that had channels. */
  readonly days: readonly string[];
}

/** The UTC day `offset` days from `now`, as `YYYY-MM-DD`. */
export function utcDay(now: number, offset: number): string {
  return new Date(now + offset * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Export the days `from`..`to` (offsets from today) of one guide catalog.
 *
 * @example await exportGuideDays(crawl, catalog, Date.now(), { from: -1, to: 7 });
 */
export async function exportGuideDays(
  crawl: Crawl,
  catalog: Catalog,
  now: number,
  window: { readonly from: number; readonly to: number },
): Promise<GuideResult> {
  const items = new Set<string>();
  const days: string[] = [];
  let lists = 0;
  let pages = 0;
  const forward = Array.from({ length: window.to + 1 }, (_, i) => i);
  const backward = Array.from({ length: -window.from }, (_, i) => -(i + 1));
  for (const offsets of [forward, backward]) {
    for (const offset of offsets) {
      if (crawl.writer.full) break;
      const day = utcDay(now, offset);
      const result = await pageList(crawl, catalog, [['date', day]]);
      lists += 1;
      pages += result.pages;
      for (const key of result.items) items.add(key);
      // A day that could not be written or is empty ends the stored horizon in this direction.
      if (result.pages === 0 || result.empty) break;
      days.push(day);
    }
  }
  return { lists, pages, items, days: days.sort() };
}
