/**
 * The library's manifest catalogs: declared ones, or one newest-first feed per type in the
 * store. Genre options come from the store, so the manifest lists exactly the genres that have
 * items in that catalog (every one of them answers with items).
 */
import type { Catalog } from '../protocol/catalog.js';
import type { Extra } from '../protocol/extra.js';
import type { LibraryGenre, LibrarySort, Store } from '../store/index.js';
import {
  checkCatalogs,
  DEFAULT_MAX_GENRE_OPTIONS,
  DERIVED_CATALOG_NAMES,
  LIBRARY_EXTRAS,
  type LibraryExtra,
  type LibraryPartOptions,
} from './options.js';

/** A catalog as declared in the manifest, with the order its feed is served in. */
export interface LibraryCatalog {
  readonly catalog: Catalog;
  readonly sort: LibrarySort;
}

/** Id of the derived catalog of a type. @example derivedCatalogId('movie') // 'movies' */
export function derivedCatalogId(type: string): string {
  return type === 'movie' ? 'movies' : type;
}

/** The `max` genres with the most items, in the store's (name) order. */
function topGenres(genres: readonly LibraryGenre[], max: number): string[] {
  if (genres.length <= max) return genres.map((g) => g.genre);
  const keep = new Set(
    [...genres]
      .sort((a, b) => b.items - a.items)
      .slice(0, max)
      .map((g) => g.genre),
  );
  return genres.filter((g) => keep.has(g.genre)).map((g) => g.genre);
}

function manifestCatalog(
  type: string,
  id: string,
  name: string,
  extras: readonly LibraryExtra[],
  genres: readonly string[],
): Catalog {
  const extra: Extra[] = [];
  for (const e of LIBRARY_EXTRAS) {
    if (!extras.includes(e)) continue;
    // A genre extra without options offers no filter in the client: leave it out until genres exist.
    if (e === 'genre') {
      if (genres.length > 0) extra.push({ name: 'genre', isRequired: false, options: [...genres] });
    } else extra.push({ name: e, isRequired: false });
  }
  const hasGenres = extra.some((e) => e.name === 'genre');
  return {
    type,
    id,
    name,
    ...(extra.length > 0 ? { extra } : {}),
    ...(hasGenres ? { genres: [...genres] } : {}),
  };
}

/**
 * The catalogs the library part declares, with their genre options read from `store`.
 * Genres only adult items have are not offered (the manifest is the same for every user).
 *
 * @example libraryCatalogs(store, {}) // [{ catalog: { type: 'movie', id: 'movies', ... }, sort: 'newest' }, ...]
 */
export function libraryCatalogs(store: Store, options: LibraryPartOptions): LibraryCatalog[] {
  const max = Math.max(0, Math.trunc(options.maxGenreOptions ?? DEFAULT_MAX_GENRE_OPTIONS));
  const declared =
    options.catalogs === undefined
      ? (store.libraryInfo()?.types ?? []).map((type) => ({
          type,
          id: derivedCatalogId(type),
          name: DERIVED_CATALOG_NAMES[type] ?? type,
          extras: LIBRARY_EXTRAS,
          sort: 'newest' as const,
        }))
      : checkCatalogs(options.catalogs);
  const genresByType = new Map<string, string[]>();
  return declared.map((c) => {
    let genres = genresByType.get(c.type);
    if (genres === undefined) {
      genres = topGenres(store.libraryGenres(c.type), max);
      genresByType.set(c.type, genres);
    }
    return { catalog: manifestCatalog(c.type, c.id, c.name, c.extras, genres), sort: c.sort };
  });
}
