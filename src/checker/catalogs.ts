import { type Catalog, type ExtraPairs, extraDeclared, formatAddonPath, requiredExtras } from '../protocol/index.js';
import { ask, type Context, keptPreviews } from './ask.js';
import { raise } from './types.js';

/**
 * A catalog feed as the client loads it: the plain feed (or the default of a required extra), then
 * pages with skip = the number of items the client KEPT so far (it drops invalid items and does
 * not count them), until an empty page, an error, or `maxPages`.
 */

/** An item the client would show, kept for the meta/stream sample. */
export interface ItemRef {
  readonly type: string;
  readonly id: string;
  readonly name: string;
}

/** Items kept per catalog for sampling and search probes; the sample needs only a few. */
const KEEP_REFS = 50;

/**
 * The extras of the catalog's feed: none, the first option of a required extra, or undefined
 * when the client shows no feed (search-only, or a required extra without options).
 *
 * @example feedExtras({ type: 'movie', id: 'x', name: 'X', extra: [{ name: 'genre', isRequired: true, options: ['A'] }] }) // [['genre', 'A']]
 */
export function feedExtras(catalog: Catalog): ExtraPairs | undefined {
  const required = requiredExtras(catalog);
  if (required.length === 0) return [];
  if (required.length > 1 || required[0] === 'search') return undefined;
  const first = catalog.extra?.find((e) => e.name === required[0])?.options?.[0];
  return first === undefined ? undefined : [[required[0]!, first]];
}

/**
 * Load the feed page by page and report paging problems. Returns the items the client keeps (first few).
 *
 * @example const items = await checkFeed(ctx, catalog);
 */
export async function checkFeed(ctx: Context, catalog: Catalog): Promise<ItemRef[]> {
  const base = feedExtras(catalog);
  const refs: ItemRef[] = [];
  if (base === undefined) return refs;
  const { findings, options } = ctx;
  const paged = extraDeclared(catalog, 'skip');
  const firstSeen = new Map<string, number>();
  let kept = 0;
  for (let n = 0; n < options.maxPages; n++) {
    // The client puts skip first when it combines it with another extra (seen: skip=84&genre=…).
    const extra: ExtraPairs = n === 0 ? base : [['skip', String(kept)], ...base];
    const request = { resource: 'catalog', type: catalog.type, id: catalog.id, extra };
    const answer = await ask(ctx, {
      check: n === 0 ? 'catalog-feed' : 'catalog-paging',
      request,
      failure:
        n === 0
          ? 'the client shows an error instead of the catalog (its board row and Discover)'
          : 'the client ends the list here without an error, keeping the items so far; items after this page are not shown',
      failureSeverity: n === 0 ? 'error' : 'warning',
    });
    if (n > 0) findings.ran('catalog-paging');
    const list = answer.body?.metas;
    if (!Array.isArray(list) || list.length === 0) return refs;
    const valid = keptPreviews(list);
    if (valid.length < list.length && paged) {
      const stop = valid.length === 0 ? await pagesAfter(ctx, catalog, base, kept + list.length) : 0;
      findings.add(miscount(answer.path, kept, valid.length, list.length, stop));
    }
    // Nothing kept: the client sees an empty page and stops here.
    if (valid.length === 0) return refs;
    const repeated = valid.filter((item) => firstSeen.has(item.id as string));
    if (repeated.length > 0) {
      const id = repeated[0]!.id as string;
      findings.add({
        check: 'catalog-paging',
        severity: 'warning',
        rule: 'catalog.repeated-items',
        path: answer.path,
        message: `${repeated.length} item(s) were already on an earlier page (first: ${JSON.stringify(id.slice(0, 60))}, page ${firstSeen.get(id)! + 1})`,
        effect: 'the client merges items with the same id, so the list is shorter than the add-on meant',
      });
    }
    for (const item of valid) {
      if (!firstSeen.has(item.id as string)) firstSeen.set(item.id as string, n);
      if (refs.length < KEEP_REFS)
        refs.push({ type: item.type as string, id: item.id as string, name: item.name as string });
    }
    kept += valid.length;
    if (!paged) {
      if (list.length >= 100) {
        findings.add({
          check: 'catalog-paging',
          severity: 'info',
          path: answer.path,
          rule: 'catalog.no-skip',
          message: `the page holds ${list.length} items but the catalog does not declare skip`,
          effect:
            'spec: skip enables pagination; without it the client asks no further page (declare { name: "skip" } if there are more items)',
        });
      }
      return refs;
    }
  }
  ctx.cut(
    formatAddonPath({ resource: 'catalog', type: catalog.type, id: catalog.id, extra: base }),
    `paging stopped after ${options.maxPages} pages (${kept} items); the catalog goes on: ${raise('maxPages')} to follow it`,
  );
  return refs;
}

/** Items the add-on has after the offset where the client stopped; 0 when none or when not checked. */
async function pagesAfter(ctx: Context, catalog: Catalog, base: ExtraPairs, offset: number): Promise<number> {
  const extra: ExtraPairs = [['skip', String(offset)], ...base];
  const answer = await ask(ctx, {
    check: 'catalog-paging',
    request: { resource: 'catalog', type: catalog.type, id: catalog.id, extra },
    failure: 'the client never asks this page (it stopped at the page before)',
  });
  const list = answer.body?.metas;
  return Array.isArray(list) ? list.length : 0;
}

function miscount(path: string, skip: number, valid: number, total: number, after: number) {
  const dropped = total - valid;
  if (valid === 0) {
    return {
      check: 'catalog-paging' as const,
      severity: 'error' as const,
      rule: 'catalog.paging-stops',
      path,
      message:
        after > 0
          ? `paging stops early: the page at skip=${skip} has 0 valid items of ${total}, and the add-on has ${after} more item(s) at skip=${skip + total}`
          : `the page at skip=${skip} has 0 valid items of ${total}`,
      effect:
        after > 0
          ? 'the client drops every item, takes the page for the end of the list, and never loads the rest'
          : 'the client drops every item and takes the page for the end of the list',
    };
  }
  return {
    check: 'catalog-paging' as const,
    severity: 'error' as const,
    rule: 'catalog.paging-miscounts',
    path,
    message: `paging miscounts: the page at skip=${skip} has ${valid} valid items of ${total}; the client asks skip=${skip + valid} next, not skip=${skip + total}`,
    effect: `the client counts only the items it keeps, so ${dropped} item(s) come again on the next page or are skipped`,
  };
}
