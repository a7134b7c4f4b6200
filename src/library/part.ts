/**
 * The library backend as an add-on part: catalogs, meta, streams and subtitles over the store,
 * plus add-on catalogs from the manifest cache. The part describes the store as it is when the
 * part is built (types, genres, id prefixes, resources): build a new one after each import, e.g.
 * by serving `() => addon` and swapping `addon` when `store.dataVersion()` changes.
 */
import { answerBytes } from '../addon/answer-bytes.js';
import type { AddonPart } from '../addon/compose.js';
import type { Handlers } from '../addon/types.js';
import type { ConfigField } from '../protocol/config-field.js';
import type { Resource } from '../protocol/resource.js';
import { GENERATED_ID_PREFIX } from '../sources/library/id.js';
import type { Audience, Store } from '../store/index.js';
import { addonEntries } from './addon-catalogs.js';
import { libraryCatalogs } from './catalogs.js';
import { checkAddonCatalogs, LIBRARY_CACHE, type LibraryPartOptions } from './options.js';

/**
 * Id prefixes the library part always declares: IMDb ids and generated ids, the two kinds a
 * library file holds most. Declared whether or not the data has them yet, so the first item of
 * either kind does not change the manifest (installed clients would not route it until reinstalled).
 */
export const LIBRARY_ID_PREFIXES = ['tt', GENERATED_ID_PREFIX] as const;

/** The config field that lets a user see adult items; declare it in the add-on's `config`. */
export const ADULT_CONFIG_FIELD: ConfigField = {
  key: 'adult',
  type: 'checkbox',
  title: 'Show adult titles',
};

/** What one request's user may see: adult items only with `adult: true` in their configuration. @example audienceOf({ adult: true }) // { adult: true } */
export function audienceOf(config: Readonly<Record<string, unknown>>): Audience {
  return { adult: config.adult === true };
}

/**
 * The library part of an add-on, for `composeAddon`.
 *
 * @example composeAddon(base, [createLibraryPart(store, { catalogs: [{ type: 'movie', id: 'top', name: 'Top', sort: 'rating' }] })])
 */
export function createLibraryPart(store: Store, options: LibraryPartOptions = {}): AddonPart {
  const cache = options.cache ?? LIBRARY_CACHE;
  const maxBytes = answerBytes(options.maxAnswerBytes);
  const catalogs = libraryCatalogs(store, options);
  const addonCatalogs = checkAddonCatalogs(options.addonCatalogs ?? []);
  const info = store.libraryInfo();
  const counts = store.libraryCounts();

  const resources: Resource[] = [];
  if (catalogs.length > 0) resources.push('catalog');
  if (counts.items > 0) resources.push('meta');
  if (counts.streams > 0) resources.push('stream');
  if (counts.subtitles > 0) resources.push('subtitles');
  if (addonCatalogs.length > 0) resources.push('addon_catalog');
  const types = [...new Set([...(info?.types ?? []), ...catalogs.map((c) => c.catalog.type)])];

  const sortOf = new Map(catalogs.map((c) => [`${c.catalog.type}/${c.catalog.id}`, c.sort]));
  const addonsOf = new Map(addonCatalogs.map((c) => [`${c.type}/${c.id}`, c.addons]));
  // An empty answer gets no hints: the server's short default applies, so a later import shows up soon.
  const hinted = <T extends object>(body: T, found: boolean) => (found ? { ...body, ...cache } : body);

  const handlers: Handlers<Record<string, unknown>> = {
    catalog: ({ type, id, extra, config }) => {
      const metas = store.libraryPage({
        type,
        sort: sortOf.get(`${type}/${id}`) ?? 'newest',
        offset: extra.skip,
        ...(extra.genre === undefined ? {} : { genre: extra.genre }),
        ...(extra.search === undefined ? {} : { search: extra.search }),
        ...audienceOf(config),
        maxBytes,
      });
      return hinted({ metas }, metas.length > 0);
    },
    meta: ({ type, id, config }) => {
      const meta = store.libraryMeta(type, id, audienceOf(config), maxBytes);
      return meta ? { meta, ...cache } : null;
    },
    stream: ({ type, id, config }) => {
      const streams = store.libraryStreams(type, id, audienceOf(config));
      return hinted({ streams }, streams.length > 0);
    },
    subtitles: ({ type, id, config }) => {
      const subtitles = store.librarySubtitles(type, id, audienceOf(config));
      return hinted({ subtitles }, subtitles.length > 0);
    },
    addonCatalog: ({ type, id }) => {
      const addons = addonEntries(store, addonsOf.get(`${type}/${id}`) ?? []);
      return hinted({ addons }, addons.length > 0);
    },
  };

  return {
    name: 'library',
    types,
    resources,
    ...(info?.idPrefixes ? { idPrefixes: [...new Set([...LIBRARY_ID_PREFIXES, ...info.idPrefixes])].sort() } : {}),
    catalogs: catalogs.map((c) => c.catalog),
    ...(addonCatalogs.length > 0
      ? { addonCatalogs: addonCatalogs.map(({ type, id, name }) => ({ type, id, name })) }
      : {}),
    handlers,
  };
}
