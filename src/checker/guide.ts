import {
  type Catalog,
  type ExtraPairs,
  extraDeclared,
  isGuideCatalog,
  MetaSchema,
  overlapsGuideDay,
} from '../protocol/index.js';
import { ask, type Context, validItems } from './ask.js';
import type { ItemRef } from './catalogs.js';
import { raise } from './types.js';

/**
 * Guide catalogs (tv + date) day by day, as the guide asks them: each UTC day from yesterday to
 * two days ahead, `date=D` then `date=D&skip=N` where N counts the distinct channels received for
 * that day, until an empty page. Programme rules (times, ids, hasScheduledVideos, the wrapper
 * key) come from validateResponse; the day window is checked here because it needs the day.
 */

const DAY_MS = 86_400_000;

/** The UTC days the guide check asks, yesterday first. */
export function guideDays(now: number): string[] {
  return [-1, 0, 1, 2].map((offset) => new Date(now + offset * DAY_MS).toISOString().slice(0, 10));
}

/**
 * Check a guide catalog's days; returns the channels seen, for the stream sample.
 *
 * @example const channels = await checkGuide(ctx, catalog);
 */
export async function checkGuide(ctx: Context, catalog: Catalog): Promise<ItemRef[]> {
  if (!isGuideCatalog(catalog)) return [];
  const days = guideDays(ctx.options.now());
  const perDay = await Promise.all(days.map((day, i) => checkDay(ctx, catalog, day, i === 1)));
  const unique = new Map<string, ItemRef>();
  for (const ref of perDay.flat()) if (!unique.has(ref.id)) unique.set(ref.id, ref);
  return [...unique.values()];
}

async function checkDay(ctx: Context, catalog: Catalog, day: string, today: boolean): Promise<ItemRef[]> {
  const { findings, options } = ctx;
  const paged = extraDeclared(catalog, 'skip');
  const channels = new Set<string>();
  const refs: ItemRef[] = [];
  let outside = 0;
  let outsidePath = '';
  for (let n = 0; n < options.maxPages; n++) {
    const extra: ExtraPairs =
      n === 0
        ? [['date', day]]
        : [
            ['date', day],
            ['skip', String(channels.size)],
          ];
    const answer = await ask(ctx, {
      check: 'guide',
      request: { resource: 'catalog', type: catalog.type, id: catalog.id, extra },
      failure:
        n === 0
          ? 'spec: a guide day answers 200 { metasDetailed: [...] }; without it the guide has no channels for that day'
          : 'spec: guide paging goes on until an empty page; channels after this page are missing',
      cache: 'guide',
    });
    const list = answer.body?.metasDetailed;
    if (!Array.isArray(list)) break;
    if (list.length === 0) {
      if (n === 0) {
        findings.add({
          check: 'guide',
          severity: today ? 'warning' : 'info',
          rule: 'guide.empty-day',
          path: answer.path,
          message: `the guide for ${day}${today ? ' (today)' : ''} is empty`,
          effect:
            'spec: the end of a guide day is an empty metasDetailed; an empty first page means no channel for that day',
        });
      }
      break;
    }
    const rows = validItems(list, MetaSchema);
    const before = channels.size;
    for (const row of rows) {
      const id = row.id as string;
      if (!channels.has(id)) {
        channels.add(id);
        refs.push({ type: row.type as string, id, name: row.name as string });
      }
      const out = outsideDay(row.videos, day);
      if (out > 0 && outside === 0) outsidePath = answer.path;
      outside += out;
    }
    if (channels.size === before) {
      findings.add({
        check: 'guide',
        severity: 'error',
        rule: 'guide.paging',
        path: answer.path,
        message:
          rows.length === 0
            ? `the page has 0 valid channels of ${list.length}`
            : `the page repeats channels of earlier pages only, so skip=${channels.size} does not advance`,
        effect:
          'spec: guide paging advances skip by the channels received so far and stops on an empty page; this page adds none, so later channels are not reached',
      });
      break;
    }
    if (!paged) break;
    if (n === options.maxPages - 1) {
      ctx.cut(
        answer.path,
        `guide paging for ${day} stopped after ${options.maxPages} pages: ${raise('maxPages')} to follow it`,
      );
    }
  }
  if (outside > 0) {
    findings.add({
      check: 'guide',
      severity: 'info',
      rule: 'guide.outside-day',
      path: outsidePath,
      message: `${outside} programme(s) end before or start after ${day}`,
      effect: 'spec: returning programmes outside the visible day is allowed; the client drops them',
    });
  }
  return refs;
}

/** Programmes (both times readable) that do not belong to the day (the guide-day rule). */
function outsideDay(videos: unknown, day: string): number {
  if (!Array.isArray(videos)) return 0;
  let count = 0;
  for (const video of videos) {
    if (typeof video !== 'object' || video === null) continue;
    const { startTime, endTime } = video as Record<string, unknown>;
    if (typeof startTime !== 'string' || typeof endTime !== 'string') continue;
    const start = Date.parse(startTime);
    const end = Date.parse(endTime);
    if (Number.isNaN(start) || Number.isNaN(end)) continue;
    if (!overlapsGuideDay(start, end, day)) count++;
  }
  return count;
}
