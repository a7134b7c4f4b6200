import type { Catalog } from '../protocol/catalog.js';
import { isIsoDay } from '../protocol/common.js';
import type { ExtraPairs } from '../protocol/path.js';
import type { CatalogExtra } from './types.js';

/** Largest skip we accept: far past any real catalog, small enough to stay an exact integer. */
const MAX_SKIP = 1_000_000_000;

/**
 * Check a catalog request's extras against the catalog's declaration. Returns the typed extras,
 * or a reason the request is not served (the server answers 404 `Not found`).
 */
export function readCatalogExtra(catalog: Catalog, pairs: ExtraPairs): CatalogExtra | { notServed: string } {
  const declared = new Map((catalog.extra ?? []).map((e) => [e.name, e]));
  const all: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const extra = declared.get(name);
    if (!extra) return { notServed: `extra "${name}" is not declared by catalog ${catalog.type}/${catalog.id}` };
    const previous = all[name];
    if (previous === undefined) {
      all[name] = value;
      continue;
    }
    const list = Array.isArray(previous) ? previous : [previous as string];
    if (list.length >= (extra.optionsLimit ?? 1)) {
      return { notServed: `extra "${name}" is given more often than its optionsLimit allows` };
    }
    all[name] = [...list, value];
  }
  for (const extra of catalog.extra ?? []) {
    if (extra.isRequired && all[extra.name] === undefined)
      return { notServed: `required extra "${extra.name}" is missing` };
  }

  const single = (name: string): string | undefined => {
    const v = all[name];
    return Array.isArray(v) ? v[0] : (v as string | undefined);
  };
  const skipText = single('skip');
  let skip = 0;
  if (skipText !== undefined) {
    if (!/^\d{1,10}$/.test(skipText) || Number(skipText) > MAX_SKIP)
      return { notServed: 'skip is not a non-negative integer' };
    skip = Number(skipText);
  }
  const date = single('date');
  if (date !== undefined && !isIsoDay(date)) return { notServed: 'date is not a valid YYYY-MM-DD day' };
  const search = single('search');
  if (search !== undefined && search.trim() === '') return { notServed: 'search is empty' };

  const result: { -readonly [K in keyof CatalogExtra]: CatalogExtra[K] } = { skip, all };
  if (search !== undefined) result.search = search;
  const genre = single('genre');
  if (genre !== undefined) result.genre = genre;
  if (date !== undefined) result.date = date;
  return result;
}
