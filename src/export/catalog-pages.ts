import * as v from 'valibot';
import {
  type Catalog,
  type ExtraPairs,
  extraDeclared,
  isGuideCatalog,
  MetaPreviewSchema,
  MetaSchema,
  requiredExtras,
} from '../protocol/index.js';
import { type Crawl, fetchAndWrite, seeItem } from './crawl.js';

/**
 * Catalog pages exactly as the client asks them. A list (the feed, one genre, one guide day) is
 * paged with `skip` = the running count the client holds: for a feed, every valid item received
 * so far (duplicates counted, invalid items not, since the client drops them); for a guide day,
 * the distinct channels. Paging goes on until an empty page, which is written too so the client
 * stops cleanly instead of meeting a 404.
 */

/** Extras the export pages itself, never enumerates as choices. */
const NOT_CHOICES: ReadonlySet<string> = new Set(['search', 'skip', 'date']);

export interface ListResult {
  /** Pages written, the closing empty one included. */
  readonly pages: number;
  /** True when the first page was written and empty. */
  readonly empty: boolean;
  /** Keys (`seeItem`) of the items seen. */
  readonly items: ReadonlySet<string>;
}

/**
 * The extra pairs each list of a catalog starts from: `[]` for the feed (unless an extra is
 * required), `[[name, option]]` for every option of every extra with options (genre and the like).
 * Returns why the client cannot open the catalog at all instead, when it cannot.
 *
 * @example catalogLists({ type: 'movie', id: 'top', name: 'Top', extra: [{ name: 'genre', options: ['Drama'] }] }) // [[], [['genre', 'Drama']]]
 */
export function catalogLists(catalog: Catalog): ExtraPairs[] | { unreachable: string } {
  const required = requiredExtras(catalog);
  if (required.length > 1) return { unreachable: `it requires ${required.length} extras; the client ignores it` };
  // A guide catalog that requires its date is reached through its days only (exported apart).
  if (required[0] === 'date' && isGuideCatalog(catalog)) return [];
  const lists: ExtraPairs[] = required.length === 0 ? [[]] : [];
  for (const extra of catalog.extra ?? []) {
    if (NOT_CHOICES.has(extra.name)) continue;
    for (const option of extra.options ?? []) lists.push([[extra.name, option]]);
  }
  if (lists.length === 0) {
    return {
      unreachable: `its required extra "${required[0]}" has no options, so the client offers no way to open it`,
    };
  }
  return lists;
}

/**
 * Page one list of `catalog` from `base` to its empty page, writing each page.
 *
 * @example const { pages } = await pageList(crawl, catalog, [['genre', 'Drama']]);
 */
export async function pageList(crawl: Crawl, catalog: Catalog, base: ExtraPairs): Promise<ListResult> {
  const guide = base.some(([name]) => name === 'date');
  const key = guide ? 'metasDetailed' : 'metas';
  const schema = guide ? MetaSchema : MetaPreviewSchema;
  const paged = extraDeclared(catalog, 'skip');
  const items = new Set<string>();
  const label = describeList(catalog, base);
  let skip = 0;
  let pages = 0;
  for (;;) {
    if (pages >= crawl.maxPages) {
      crawl.truncated.push(`${label}: stopped after ${pages} pages (maxPages); skip=${skip} and later are missing`);
      break;
    }
    const request = { resource: 'catalog', type: catalog.type, id: catalog.id };
    const orders = pages === 0 ? [base] : extraOrders(base, skip);
    const body = await fetchAndWrite(
      crawl,
      { ...request, extra: orders[0]! },
      orders.slice(1).map((extra) => ({ ...request, extra })),
    );
    if (body === undefined) break;
    pages += 1;
    const list = body[key];
    if (!Array.isArray(list) || list.length === 0) return { pages, empty: pages === 1, items };
    const valid = list.filter((item) => v.is(schema, item)) as Array<{ type: string; id: string }>;
    for (const item of valid) items.add(seeItem(crawl, item));
    if (!paged) break;
    const next = guide ? items.size : skip + valid.length;
    if (next === skip) {
      crawl.warnings.push({
        path: label,
        message: `page at skip=${skip} holds no item the client keeps; the client would ask skip=${skip} again, so paging stops here`,
      });
      break;
    }
    skip = next;
  }
  return { pages, empty: false, items };
}

/**
 * The orders the client may send a next page's extras in. The real client (stremio-core-web
 * 0.62.1, measured by test/export.test.ts) puts `skip` first for a filtered feed
 * (`skip=84&genre=X`); the guide sends `date=D&skip=N`; other clients and versions differ, so
 * both orders are written. The first is the one asked of the add-on.
 */
function extraOrders(base: ExtraPairs, skip: number): ExtraPairs[] {
  const pair = ['skip', String(skip)] as const;
  if (base.length === 0) return [[pair]];
  const guide = base.some(([name]) => name === 'date');
  const skipFirst: ExtraPairs = [pair, ...base];
  const skipLast: ExtraPairs = [...base, pair];
  return guide ? [skipLast, skipFirst] : [skipFirst, skipLast];
}

/** `catalog movie/top genre=Drama` for reports. */
export function describeList(catalog: Catalog, base: ExtraPairs): string {
  const extras = base.map(([name, value]) => `${name}=${value}`).join('&');
  return `catalog ${catalog.type}/${catalog.id}${extras === '' ? '' : ` ${extras}`}`;
}
