/**
 * Warming an add-on up: its catalogs' first pages asked of its own handlers before users ask.
 * A process answers its first pages several times slower than later ones: functions are
 * compiled on first call and optimised after a few, statements are prepared on first use, and
 * the first page of a guide day reads store pages nothing has read yet. Measured on the
 * 10,000-channel benchmark store, the first guide page took 59 ms and the second 47 ms where the
 * steady state is 5 ms. Warming pays that once, right after start (and after each add-on
 * rebuild), instead of in a user's first requests. Answers are discarded, not cached: what users
 * get is always built for them.
 */

import { type ExtraPairs, isGuideCatalog, requiredExtras } from '../protocol/index.js';
import type { Addon } from './create-addon.js';
import { isRawJsonList } from './raw-list.js';

export interface WarmUpOptions {
  /** How many times each first page is asked: the first compiles, the next ones let hot code be optimised. Default 3; 0 asks only the further guide pages. */
  readonly rounds?: number;
  /** The time whose UTC day is asked of catalogs with a `date` extra. Default now. */
  readonly now?: number;
  /**
   * Pages of that day asked once (`skip` 100, 200, ...) of a guide catalog after the first
   * page's rounds, until the catalog ends; 1 asks none. A guide page is about 1 MB: the first few dozen grow the process's memory (the young
   * generation, the store's map, the page frames) to what serving them takes, each memory page
   * costing a fault on first touch; measured on the 10,000-channel benchmark store, users' first
   * 100 pages otherwise took 10-20 ms where later ones take 4. Default 24.
   */
  readonly guidePages?: number;
  /** Stops between requests when aborted. */
  readonly signal?: AbortSignal;
}

export interface WarmUpResult {
  readonly requests: number;
  /** Requests whose handler threw or answered 404 (a warm-up never throws). */
  readonly failed: number;
  readonly ms: number;
}

/**
 * Asks each catalog for its first page (when none of its extras is required) and, when it is a
 * guide catalog (`tv` with a `date` extra), for the page of today's UTC day; `rounds` times; then
 * today's further guide pages once (`guidePages`). It yields to the event loop between requests
 * so that users' requests are answered in between.
 *
 * @example void warmUp(addon).then((r) => log(`warmed up with ${r.requests} requests in ${r.ms} ms`))
 */
export async function warmUp(addon: Addon, options: WarmUpOptions = {}): Promise<WarmUpResult> {
  const started = performance.now();
  const rounds = Math.max(0, Math.trunc(options.rounds ?? 3));
  const today = new Date(options.now ?? Date.now()).toISOString().slice(0, 10);
  const guidePages = Math.max(1, Math.trunc(options.guidePages ?? 24));
  const requests: Array<{ type: string; id: string; extra: ExtraPairs }> = [];
  /** Today's further guide pages, asked once after the rounds. */
  const more: typeof requests = [];
  for (const catalog of addon.manifest.catalogs) {
    const { type, id } = catalog;
    const required = requiredExtras(catalog);
    if (required.length === 0) requests.push({ type, id, extra: [] });
    if (isGuideCatalog(catalog) && required.every((name) => name === 'date')) {
      requests.push({ type, id, extra: [['date', today]] });
      for (let page = 1; page < guidePages; page++) {
        more.push({
          type,
          id,
          extra: [
            ['date', today],
            ['skip', `${page * 100}`],
          ],
        });
      }
    }
  }
  let made = 0;
  let failed = 0;
  const ask = async (request: (typeof requests)[number]): Promise<boolean> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (options.signal?.aborted) return false;
    made++;
    try {
      const answer = await addon.handle({ resource: 'catalog', ...request, rawJson: true });
      if (answer.status !== 200) failed++;
      // Discarded: pooled pages go back to their pool.
      else for (const value of Object.values(answer.body)) if (isRawJsonList(value)) value.release?.();
      return !(answer.status === 200 && emptyPage(answer.body));
    } catch {
      failed++;
      return true;
    }
  };
  const result = () => ({ requests: made, failed, ms: Math.round(performance.now() - started) });
  for (let round = 0; round < rounds; round++) {
    for (const request of requests) {
      await ask(request);
      if (options.signal?.aborted) return result();
    }
  }
  // The day's other pages, once, until the catalog ends.
  for (const request of more) {
    if (!(await ask(request)) || options.signal?.aborted) break;
  }
  return result();
}

/** True when an answer's list is empty: past the catalog's end. */
function emptyPage(body: Record<string, unknown>): boolean {
  const list = body.metasDetailed ?? body.metas;
  return isRawJsonList(list) ? list.count === 0 : Array.isArray(list) && list.length === 0;
}
