/**
 * What each CSV header means. Headers match case-insensitively, ignoring `_`, `-` and spaces, so
 * `releaseInfo`, `release_info` and `Release Info` are one column. Repeated objects (streams,
 * subtitles, links) are column groups: `stream_url`, `stream_name`… is stream 1,
 * `stream2_url`, `stream2_name`… stream 2, and so on.
 */

export type CellKind = 'text' | 'list' | 'int' | 'bool' | 'type';
/** Which rows a column belongs to: item rows, episode rows (those with `series_id`), or both. */
export type Scope = 'item' | 'episode' | 'both';

export interface FieldColumn {
  readonly kind: 'field';
  /** Path inside the item or episode object: `['releaseInfo']`. */
  readonly path: readonly string[];
  readonly cell: CellKind;
  readonly scope: Scope;
}

export interface GroupColumn {
  readonly kind: 'group';
  /** The array the group fills: `streams`, `subtitles`, `links`. */
  readonly array: 'streams' | 'subtitles' | 'links';
  /** 1 for `stream_url` and `stream1_url`, 2 for `stream2_url`. */
  readonly number: number;
  /** Path inside one stream/subtitle/link: `['behaviorHints', 'notWebReady']`. */
  readonly path: readonly string[];
  readonly cell: CellKind;
  readonly scope: Scope;
}

export interface SeriesIdColumn {
  readonly kind: 'seriesId';
}

export type Column = FieldColumn | GroupColumn | SeriesIdColumn;

const field = (path: string, cell: CellKind = 'text', scope: Scope = 'item'): FieldColumn => ({
  kind: 'field',
  path: path.split('.'),
  cell,
  scope,
});

const FIELDS: Record<string, FieldColumn | SeriesIdColumn> = {
  id: field('id', 'text', 'both'),
  type: field('type', 'type'),
  name: field('name'),
  poster: field('poster'),
  background: field('background'),
  logo: field('logo'),
  description: field('description'),
  releaseinfo: field('releaseInfo'),
  released: field('released', 'text', 'both'),
  runtime: field('runtime', 'int'), // `90` is minutes, as in JSON
  genres: field('genres', 'list'),
  cast: field('cast', 'list'),
  director: field('director', 'list'),
  directors: field('director', 'list'),
  imdbrating: field('imdbRating'),
  language: field('language'),
  country: field('country'),
  adult: field('adult', 'bool'),
  seriesid: { kind: 'seriesId' },
  season: field('season', 'int', 'episode'),
  episode: field('episode', 'int', 'episode'),
  title: field('title', 'text', 'episode'),
  overview: field('overview', 'text', 'episode'),
  thumbnail: field('thumbnail', 'text', 'episode'),
};

type GroupField = { path: string; cell?: CellKind };

const GROUPS: Record<string, { array: GroupColumn['array']; scope: Scope; fields: Record<string, GroupField> }> = {
  stream: {
    array: 'streams',
    scope: 'both',
    fields: {
      url: { path: 'url' },
      externalurl: { path: 'externalUrl' },
      ytid: { path: 'ytId' },
      infohash: { path: 'infoHash' },
      fileidx: { path: 'fileIdx', cell: 'int' },
      name: { path: 'name' },
      title: { path: 'title' },
      description: { path: 'description' },
      notwebready: { path: 'behaviorHints.notWebReady', cell: 'bool' },
      bingegroup: { path: 'behaviorHints.bingeGroup' },
      filename: { path: 'behaviorHints.filename' },
    },
  },
  subtitle: {
    array: 'subtitles',
    scope: 'both',
    fields: { id: { path: 'id' }, url: { path: 'url' }, lang: { path: 'lang' } },
  },
  link: {
    array: 'links',
    scope: 'item',
    fields: { name: { path: 'name' }, category: { path: 'category' }, url: { path: 'url' } },
  },
};

/** `Stream 2 URL` → `stream2url`. */
export function headerKey(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/**
 * The column a header names, or undefined for an unknown header.
 *
 * @example columnFor('stream2_url') // { kind: 'group', array: 'streams', number: 2, path: ['url'], … }
 */
export function columnFor(header: string): Column | undefined {
  const key = headerKey(header);
  const known = FIELDS[key];
  if (known !== undefined) return known;
  const m = /^(stream|subtitle|link)(\d*)([a-z]+)$/.exec(key);
  if (m === null) return undefined;
  const group = GROUPS[m[1]!]!;
  const sub = group.fields[m[3]!];
  const number = m[2] === '' ? 1 : Number(m[2]);
  if (sub === undefined || number < 1 || number > 99) return undefined;
  return {
    kind: 'group',
    array: group.array,
    number,
    path: sub.path.split('.'),
    cell: sub.cell ?? 'text',
    scope: group.scope,
  };
}

/** A stable identity for a column, to find two headers naming the same one. */
export function columnIdentity(column: Column): string {
  if (column.kind === 'seriesId') return 'seriesId';
  if (column.kind === 'field') return column.path.join('.');
  return `${column.array}[${column.number}].${column.path.join('.')}`;
}

const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/**
 * A trimmed, non-empty cell as the schema wants it. What cannot be converted stays a string,
 * so the schema reports it with its usual message (`Expected number but received "x"`).
 */
export function convertCell(kind: CellKind, value: string): unknown {
  switch (kind) {
    case 'list':
      return value
        .split('|')
        .map((x) => x.trim())
        .filter((x) => x !== '');
    case 'int':
      return /^\d{1,9}$/.test(value) ? Number(value) : value;
    case 'bool': {
      const lower = value.toLowerCase();
      return TRUE.has(lower) ? true : FALSE.has(lower) ? false : value;
    }
    case 'type':
      return value.toLowerCase();
    default:
      return value;
  }
}
