import { type Catalog, extraDeclared, formatAddonPath, requiredExtras } from '../protocol/index.js';
import { ask, type Context, keptPreviews } from './ask.js';
import type { ItemRef } from './catalogs.js';
import { raise } from './types.js';

/**
 * Genre filters and search, as the client asks them: every declared genre must answer 200 with a
 * valid body (an empty `{ metas: [] }` is fine), and search must survive the values users type,
 * encoded like `encodeURIComponent` (accents, `&`, `/`, `+`), including characters that break an
 * add-on that builds a regular expression or a query string from them (`(`, `*`, `[`, quotes).
 */

/** Probes every search catalog gets, after a word taken from one of its own items. */
export const SEARCH_PROBES = ['Amélie', 'Tom & Jerry', 'AC/DC', 'C++ (1999)', '*[Matrix', '"Fight" Club\'s'] as const;

/**
 * The genres the client offers: the genre extra's options, else the catalog's `genres`.
 *
 * @example declaredGenres({ type: 'movie', id: 'x', name: 'X', extra: [{ name: 'genre', options: ['A'] }] }) // ['A']
 */
export function declaredGenres(catalog: Catalog): string[] {
  const extra = catalog.extra?.find((e) => e.name === 'genre');
  if (extra === undefined) return [];
  return [...new Set(extra.options ?? catalog.genres ?? [])];
}

/**
 * Request each declared genre (up to maxGenres).
 *
 * @example await checkGenres(ctx, catalog);
 */
export async function checkGenres(ctx: Context, catalog: Catalog): Promise<void> {
  const genres = declaredGenres(catalog);
  if (requiredExtras(catalog).length > 1) return; // the client ignores the catalog; the manifest check says so
  const probed = genres.slice(0, ctx.options.maxGenres);
  if (probed.length < genres.length) {
    ctx.cut(
      formatAddonPath({ resource: 'catalog', type: catalog.type, id: catalog.id, extra: [] }),
      `${genres.length} genres are declared; the first ${probed.length} were requested: ${raise('maxGenres')} for all`,
    );
  }
  await Promise.all(
    probed.map((genre) =>
      ask(ctx, {
        check: 'catalog-genre',
        request: { resource: 'catalog', type: catalog.type, id: catalog.id, extra: [['genre', genre]] },
        failure: `choosing the genre ${JSON.stringify(genre)} shows the user an error instead of its items`,
      }),
    ),
  );
}

/** A word of an item's name that a user might type (letters only, 3 or more), with the item's name. */
function wordFrom(items: readonly ItemRef[]): { word: string; name: string } | undefined {
  for (const item of items) {
    const word = item.name.split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 3 && /\p{L}/u.test(w));
    if (word !== undefined) return { word, name: item.name };
  }
  return undefined;
}

/**
 * Search probes for a catalog that declares search (and no other required extra).
 *
 * @example await checkSearch(ctx, catalog, itemsOfTheFeed);
 */
export async function checkSearch(ctx: Context, catalog: Catalog, items: readonly ItemRef[]): Promise<void> {
  if (!extraDeclared(catalog, 'search')) return;
  if (requiredExtras(catalog).some((name) => name !== 'search')) return; // the client never searches it
  const own = wordFrom(items);
  const queries = [...(own ? [own.word] : []), ...SEARCH_PROBES];
  await Promise.all(
    queries.map(async (query) => {
      const answer = await ask(ctx, {
        check: 'catalog-search',
        request: { resource: 'catalog', type: catalog.type, id: catalog.id, extra: [['search', query]] },
        failure: `a search for ${JSON.stringify(query)} shows an error in this catalog's search row instead of results`,
      });
      if (own && query === own.word && answer.body && keptPreviews(answer.body.metas).length === 0) {
        ctx.findings.add({
          check: 'catalog-search',
          severity: 'info',
          rule: 'search.own-word',
          path: answer.path,
          message: `finds nothing for ${JSON.stringify(query)}, a word of the feed item ${JSON.stringify(own.name.slice(0, 60))}`,
          effect: 'the client shows no result from this catalog for that word (fine if search covers other fields)',
        });
      }
    }),
  );
}
