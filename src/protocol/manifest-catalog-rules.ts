import { arrayOf, type Collector, isRecord, type Json, quote, stringsOf } from './report.js';

/**
 * Catalog and extra rules of the manifest (spec "Extra rules" and the client's catalog
 * selection): required extras, the guide's `date`, genre options, duplicates.
 */

interface ExtraEntry {
  readonly index: number;
  readonly name: string;
  readonly isRequired: boolean;
  readonly options: readonly string[] | undefined;
  readonly path: string;
}

function extrasOf(catalog: Json, base: string): ExtraEntry[] {
  const out: ExtraEntry[] = [];
  arrayOf(catalog.extra).forEach((extra, index) => {
    if (!isRecord(extra) || typeof extra.name !== 'string') return;
    out.push({
      index,
      name: extra.name,
      isRequired: extra.isRequired === true,
      options: Array.isArray(extra.options) ? stringsOf(extra.options) : undefined,
      path: `${base}.extra[${index}]`,
    });
  });
  return out;
}

/**
 * Check every catalog; returns the labels (`$.catalogs[2] (tv/channels)`) of the guide catalogs.
 *
 * @example const { guideCatalogs } = checkCatalogs(manifest, out)
 */
export function checkCatalogs(m: Json, out: Collector): { guideCatalogs: string[] } {
  const guideCatalogs: string[] = [];
  const seen = new Map<string, number>();
  arrayOf(m.catalogs).forEach((catalog, i) => {
    if (!isRecord(catalog)) return;
    const base = `$.catalogs[${i}]`;
    const type = typeof catalog.type === 'string' ? catalog.type : undefined;
    const label = `${type ?? '?'}/${typeof catalog.id === 'string' ? catalog.id : '?'}`;
    if (type !== undefined && typeof catalog.id === 'string') {
      const first = seen.get(label);
      if (first === undefined) seen.set(label, i);
      else {
        out.warning(
          base,
          `repeats catalog ${quote(label)} of $.catalogs[${first}]: give each catalog a unique type and id`,
          'the client merges them into one catalog',
        );
      }
    }
    const extras = extrasOf(catalog, base);
    checkExtras(extras, type, out);
    checkGenres(catalog, base, extras, out);
    if (type === 'tv' && extras.some((e) => e.name === 'date')) {
      guideCatalogs.push(`${base} (${quote(label)})`);
      if (!extras.some((e) => e.name === 'skip')) {
        out.warning(
          `${base}.extra`,
          'a guide catalog without { name: "skip" } cannot page its channels: declare skip',
          'the client requests only the first page of channels for each day',
        );
      }
    }
  });
  return { guideCatalogs };
}

function checkExtras(extras: readonly ExtraEntry[], type: string | undefined, out: Collector): void {
  const names = new Map<string, number>();
  let firstRequired: ExtraEntry | undefined;
  for (const extra of extras) {
    const earlier = names.get(extra.name);
    if (earlier === undefined) names.set(extra.name, extra.index);
    else {
      out.warning(
        `${extra.path}.name`,
        `repeats the extra ${quote(extra.name)} declared at index ${earlier}: declare each extra once`,
        'the client reads only the first declaration',
      );
    }
    if (extra.isRequired) {
      if (firstRequired === undefined) firstRequired = extra;
      else {
        out.error(
          `${extra.path}.isRequired`,
          `${quote(extra.name)} is the second required extra (after ${quote(firstRequired.name)}): at most one extra of a catalog may be required`,
          'the client ignores this catalog',
        );
      }
    }
    checkExtraSemantics(extra, type, out);
  }
}

function checkExtraSemantics(extra: ExtraEntry, type: string | undefined, out: Collector): void {
  const hasOptions = extra.options !== undefined && extra.options.length > 0;
  switch (extra.name) {
    case 'date':
      if (extra.isRequired) {
        out.error(
          `${extra.path}.isRequired`,
          'date must stay optional so that the channel list loads without a day: remove isRequired',
          'the client hides the catalog from Board and Discover',
        );
      }
      if (type !== undefined && type !== 'tv') {
        out.error(
          `${extra.path}.name`,
          `date is the programme-guide extra and only tv catalogs declare it (this catalog is ${quote(type)}): remove it or make the catalog tv`,
          'the client never shows a guide for this catalog',
        );
      }
      return;
    case 'genre':
      if (!hasOptions) {
        out.warning(
          `${extra.path}.options`,
          'the genre extra has no options: list the genres the catalog can filter by',
          'the client offers no genre filter: it takes genre choices only from extra options',
        );
        return; // says all the generic "required extra without options" rule would
      }
      break;
    case 'skip':
      if (extra.isRequired) {
        out.warning(
          `${extra.path}.isRequired`,
          'skip must stay optional: the first page is requested without skip',
          'the client never shows this catalog on Board',
        );
      }
      return;
    case 'search':
      // A required search is the documented way to make a search-only catalog.
      return;
  }
  if (extra.isRequired && !hasOptions) {
    out.warning(
      `${extra.path}.options`,
      `the required extra ${quote(extra.name)} has no options: list them (the first one is the default)`,
      'the client cannot open this catalog in Discover and never shows it on Board',
    );
  }
}

function checkGenres(catalog: Json, base: string, extras: readonly ExtraEntry[], out: Collector): void {
  if (!Array.isArray(catalog.genres)) return;
  const genre = extras.find((e) => e.name === 'genre');
  if (genre === undefined) {
    out.warning(
      `${base}.genres`,
      'catalog-level genres are ignored by the client: declare { name: "genre", options: [...these genres] } in extra',
      'the client offers no genre filter',
    );
    return;
  }
  if (genre.options === undefined || genre.options.length === 0) {
    out.warning(
      `${base}.genres`,
      `copy these genres into ${genre.path}.options: the client reads genre choices only from there`,
      'the client offers no genre filter',
    );
    return;
  }
  const options = new Set(genre.options);
  arrayOf(catalog.genres).forEach((name, j) => {
    if (typeof name === 'string' && !options.has(name)) {
      out.warning(
        `${base}.genres[${j}]`,
        `${quote(name)} is not in ${genre.path}.options: add it there`,
        'the client does not offer this genre',
      );
    }
  });
}
