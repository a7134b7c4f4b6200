import { isAbsoluteUrl, isRfc3339, SEMVER } from '../protocol/index.js';

/**
 * What the real client (stremio-core, as published in `@stremio/stremio-core-web` 0.62.1) refuses
 * or drops, field by field. The checker's severities come from here: a value this model rejects
 * is an error (the client loses the add-on, the item, the stream or the meta page); a value only
 * Marquee's stricter protocol schemas reject is a warning. Every rule below has a fixture in
 * test/fixtures/checker/client-rules.ts that the real client is run against
 * (test/checker-client.test.ts), so this file and the client cannot drift apart unnoticed.
 */

/** The client version this model was measured against; effects name it. */
export const CLIENT = 'stremio-core-web 0.62.1';

export interface ClientIssue {
  /** Stable rule id (`stream.title+description`); docs/checker.md lists them. */
  readonly rule: string;
  readonly path: string;
  readonly message: string;
}

type Json = Record<string, unknown>;
type Accepts = (value: unknown) => boolean;

interface Field {
  readonly name: string;
  readonly required?: boolean;
  readonly accepts: Accepts;
  /** What the client wants, for the message. */
  readonly wants: string;
}

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;
const str: Accepts = (v) => typeof v === 'string';
const optStr: Accepts = (v) => absent(v) || typeof v === 'string';
const optBool: Accepts = (v) => absent(v) || typeof v === 'boolean';
const optNumber: Accepts = (v) => absent(v) || typeof v === 'number';
const url: Accepts = (v) => typeof v === 'string' && isAbsoluteUrl(v);
/** Images: the client reads "" and null as "no image"; anything else must be an absolute URL. */
const image: Accepts = (v) => absent(v) || v === '' || url(v);
const date: Accepts = (v) => absent(v) || (typeof v === 'string' && isRfc3339(v));
const listOf =
  (item: Accepts): Accepts =>
  (v) =>
    absent(v) || (Array.isArray(v) && v.every(item));
const objectWith =
  (fields: readonly Field[]): Accepts =>
  (v) =>
    isRecord(v) && fieldIssues('', v, fields, '').length === 0;

const LINK: readonly Field[] = [
  { name: 'name', required: true, accepts: str, wants: 'a string' },
  { name: 'category', required: true, accepts: str, wants: 'a string' },
  { name: 'url', required: true, accepts: str, wants: 'a string' },
];
const TRAILER: readonly Field[] = [
  { name: 'source', required: true, accepts: str, wants: 'a string' },
  { name: 'type', required: true, accepts: str, wants: 'a string' },
];
const META_HINTS: readonly Field[] = [
  { name: 'defaultVideoId', accepts: optStr, wants: 'a string' },
  { name: 'featuredVideoId', accepts: optStr, wants: 'a string' },
  { name: 'hasScheduledVideos', accepts: optBool, wants: 'a boolean' },
];

const PREVIEW: readonly Field[] = [
  { name: 'id', required: true, accepts: str, wants: 'a string' },
  { name: 'type', required: true, accepts: str, wants: 'a string' },
  { name: 'name', accepts: optStr, wants: 'a string' },
  { name: 'poster', accepts: image, wants: 'an absolute URL (or "")' },
  { name: 'background', accepts: image, wants: 'an absolute URL (or "")' },
  { name: 'logo', accepts: image, wants: 'an absolute URL (or "")' },
  { name: 'description', accepts: optStr, wants: 'a string' },
  { name: 'released', accepts: date, wants: 'a full RFC 3339 date-time such as 2020-01-01T00:00:00Z' },
  { name: 'genres', accepts: listOf(str), wants: 'an array of strings' },
  { name: 'links', accepts: listOf(objectWith(LINK)), wants: 'an array of { name, category, url }' },
  { name: 'trailers', accepts: listOf(objectWith(TRAILER)), wants: 'an array of { source, type }' },
  {
    name: 'behaviorHints',
    accepts: (v) => absent(v) || objectWith(META_HINTS)(v),
    wants: 'an object with string defaultVideoId/featuredVideoId and boolean hasScheduledVideos',
  },
];

const STREAM_HINTS: readonly Field[] = [
  { name: 'notWebReady', accepts: optBool, wants: 'a boolean' },
  { name: 'bingeGroup', accepts: optStr, wants: 'a string' },
  { name: 'videoSize', accepts: optNumber, wants: 'a number' },
  { name: 'videoHash', accepts: optStr, wants: 'a string' },
  { name: 'filename', accepts: optStr, wants: 'a string' },
];

const STREAM: readonly Field[] = [
  { name: 'name', accepts: optStr, wants: 'a string' },
  { name: 'description', accepts: optStr, wants: 'a string' },
  { name: 'title', accepts: optStr, wants: 'a string' },
  {
    name: 'fileIdx',
    accepts: (v) => absent(v) || (Number.isInteger(v) && (v as number) >= 0),
    wants: 'a whole number of 0 or more',
  },
  { name: 'sources', accepts: listOf(str), wants: 'an array of strings' },
  {
    name: 'behaviorHints',
    accepts: (v) => absent(v) || objectWith(STREAM_HINTS)(v),
    wants: 'an object with boolean notWebReady, string bingeGroup/filename/videoHash and number videoSize',
  },
];

const HEX40 = /^[0-9a-fA-F]{40}$/;
const SOURCES: ReadonlyArray<readonly [string, Accepts]> = [
  ['url', url],
  ['ytId', str],
  ['infoHash', (v) => typeof v === 'string' && HEX40.test(v)],
  ['externalUrl', url],
];

function fieldIssues(kind: string, item: Json, fields: readonly Field[], base: string): ClientIssue[] {
  const out: ClientIssue[] = [];
  for (const field of fields) {
    const value = item[field.name];
    const path = `${base}.${field.name}`;
    if (value === undefined && field.required) {
      out.push({ rule: `${kind}.${field.name}`, path, message: `is missing: the client needs ${field.wants}` });
    } else if (value !== undefined && !field.accepts(value)) {
      out.push({ rule: `${kind}.${field.name}`, path, message: `must be ${field.wants} (got ${preview(value)})` });
    }
  }
  return out;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function notObject(kind: string, path: string, item: unknown): ClientIssue[] {
  return isRecord(item) ? [] : [{ rule: `${kind}.object`, path, message: `must be an object (got ${preview(item)})` }];
}

/**
 * Why the client drops this catalog item (a list answer keeps the rest); empty when it keeps it.
 *
 * @example clientPreviewIssues({ id: 'x', type: 'movie', poster: '/p.jpg' }, '$.metas[0]') // [{ rule: 'preview.poster', … }]
 */
export function clientPreviewIssues(item: unknown, path: string): ClientIssue[] {
  return isRecord(item) ? fieldIssues('preview', item, PREVIEW, path) : notObject('preview', path, item);
}

/**
 * Why the client fails the whole meta page for this meta; empty when it shows it.
 *
 * @example clientMetaIssues({ id: 'x', type: 'movie', released: '2020-01-01' }, '$.meta') // [{ rule: 'meta.released', … }]
 */
export function clientMetaIssues(meta: unknown, path: string): ClientIssue[] {
  if (meta === null)
    return [
      {
        rule: 'meta.null',
        path,
        message: 'answers { meta: null }: the client needs a meta object (answer 404 when there is none)',
      },
    ];
  if (!isRecord(meta)) return notObject('meta', path, meta);
  const out = fieldIssues('meta', meta, PREVIEW, path);
  if (meta.videos !== undefined && meta.videos !== null) {
    if (!Array.isArray(meta.videos)) {
      out.push({ rule: 'meta.videos', path: `${path}.videos`, message: 'must be an array of videos' });
    } else {
      meta.videos.forEach((video, i) => {
        out.push(...clientVideoIssues(video, `${path}.videos[${i}]`));
      });
    }
  }
  if (meta.trailerStreams !== undefined && meta.trailerStreams !== null) {
    const list = Array.isArray(meta.trailerStreams) ? meta.trailerStreams : [meta.trailerStreams];
    list.forEach((s, i) => {
      const issues = clientStreamIssues(s, `${path}.trailerStreams[${i}]`);
      out.push(...issues.map((x) => ({ ...x, rule: 'meta.trailerStreams' })));
    });
  }
  return out;
}

function clientVideoIssues(video: unknown, path: string): ClientIssue[] {
  if (!isRecord(video)) return notObject('video', path, video);
  const out = fieldIssues(
    'video',
    video,
    [
      { name: 'id', required: true, accepts: str, wants: 'a string' },
      { name: 'released', accepts: date, wants: 'a full RFC 3339 date-time such as 2020-01-01T00:00:00Z' },
    ],
    path,
  );
  if (video.streams !== undefined && video.streams !== null) {
    const list = Array.isArray(video.streams) ? video.streams : [video.streams];
    list.forEach((s, i) => {
      out.push(...clientStreamIssues(s, `${path}.streams[${i}]`).map((x) => ({ ...x, rule: 'video.streams' })));
    });
  }
  return out;
}

/**
 * Why the client drops this stream (the others of the answer are kept); empty when it keeps it.
 *
 * @example clientStreamIssues({ url: 'https://a/b.mp4', title: 'T', description: 'D' }, '$.streams[0]') // [{ rule: 'stream.title+description', … }]
 */
export function clientStreamIssues(stream: unknown, path: string): ClientIssue[] {
  if (!isRecord(stream)) return notObject('stream', path, stream);
  const out = fieldIssues('stream', stream, STREAM, path);
  if (Object.hasOwn(stream, 'title') && Object.hasOwn(stream, 'description')) {
    out.push({
      rule: 'stream.title+description',
      path: `${path}.title`,
      message:
        'is given with description: the client reads title as another name for description, so it is a duplicate field; keep only description',
    });
  }
  const present = SOURCES.filter(([name]) => stream[name] !== undefined);
  if (!present.some(([name, accepts]) => accepts(stream[name]))) {
    out.push({
      rule: 'stream.source',
      path: present.length === 1 ? `${path}.${present[0]![0]}` : path,
      message:
        present.length === 0
          ? 'has no source: give url, ytId, infoHash (40 hex digits) or externalUrl'
          : `has no valid source: ${present.map(([n]) => n).join(', ')} ${present.length === 1 ? 'is' : 'are'} not valid (url and externalUrl must be absolute URLs, infoHash 40 hex digits)`,
    });
  }
  return out;
}

export interface ClientManifest {
  /** Why the client refuses the manifest (and so installs nothing); empty when it accepts it. */
  readonly refused: ClientIssue[];
  /** Catalogs that lose every extra because one extra entry is malformed (no paging, genres, search). */
  readonly extrasDropped: ClientIssue[];
}

const MANIFEST: readonly Field[] = [
  { name: 'id', required: true, accepts: str, wants: 'a string' },
  { name: 'name', required: true, accepts: str, wants: 'a string' },
  { name: 'version', required: true, accepts: str, wants: 'a semver string such as 1.0.0' },
  { name: 'description', accepts: optStr, wants: 'a string' },
  { name: 'contactEmail', accepts: optStr, wants: 'a string' },
  { name: 'types', required: true, accepts: (v) => Array.isArray(v) && v.every(str), wants: 'an array of strings' },
  {
    name: 'resources',
    required: true,
    accepts: (v) => Array.isArray(v) && v.every((r) => typeof r === 'string' || (isRecord(r) && str(r.name))),
    wants: 'an array of names or { name, types?, idPrefixes? } objects',
  },
  { name: 'idPrefixes', accepts: listOf(str), wants: 'an array of strings' },
  {
    name: 'catalogs',
    accepts: listOf(
      objectWith([
        { name: 'id', required: true, accepts: str, wants: 'a string' },
        { name: 'type', required: true, accepts: str, wants: 'a string' },
        { name: 'name', accepts: optStr, wants: 'a string' },
      ]),
    ),
    wants: 'an array of { type, id, name? } with string values',
  },
  {
    name: 'addonCatalogs',
    accepts: listOf(
      objectWith([
        { name: 'id', required: true, accepts: str, wants: 'a string' },
        { name: 'type', required: true, accepts: str, wants: 'a string' },
      ]),
    ),
    wants: 'an array of { type, id, name }',
  },
  {
    name: 'behaviorHints',
    accepts: (v) =>
      absent(v) ||
      objectWith(
        ['configurable', 'configurationRequired', 'adult', 'p2p'].map((name) => ({
          name,
          accepts: optBool,
          wants: 'a boolean',
        })),
      )(v),
    wants: 'an object whose configurable, configurationRequired, adult and p2p are booleans',
  },
];

const EXTRA: readonly Field[] = [
  { name: 'name', required: true, accepts: str, wants: 'a string' },
  { name: 'isRequired', accepts: optBool, wants: 'a boolean' },
  { name: 'options', accepts: listOf(str), wants: 'an array of strings' },
  {
    name: 'optionsLimit',
    accepts: (v) => absent(v) || (Number.isInteger(v) && (v as number) >= 0),
    wants: 'a whole number',
  },
];

/**
 * How the client reads a manifest: whether it refuses it, and which catalogs lose their extras.
 *
 * @example clientManifest({ id: 'a.b', name: 'A', version: '1.0', types: [], resources: [] }).refused // [{ rule: 'manifest.version', … }]
 */
export function clientManifest(raw: unknown): ClientManifest {
  if (!isRecord(raw)) {
    return { refused: [{ rule: 'manifest.object', path: '$', message: 'must be a JSON object' }], extrasDropped: [] };
  }
  const refused = fieldIssues('manifest', raw, MANIFEST, '$');
  if (typeof raw.version === 'string' && !SEMVER.test(raw.version)) {
    refused.push({
      rule: 'manifest.version',
      path: '$.version',
      message: `${preview(raw.version)} is not strict semver: write MAJOR.MINOR.PATCH such as 1.0.0`,
    });
  }
  const extrasDropped: ClientIssue[] = [];
  if (Array.isArray(raw.catalogs)) {
    raw.catalogs.forEach((catalog, i) => {
      if (!isRecord(catalog) || catalog.extra === undefined) return;
      const base = `$.catalogs[${i}].extra`;
      const issues = Array.isArray(catalog.extra)
        ? catalog.extra.flatMap((extra, j) =>
            isRecord(extra)
              ? fieldIssues('extra', extra, EXTRA, `${base}[${j}]`)
              : notObject('extra', `${base}[${j}]`, extra),
          )
        : [{ rule: 'extra.array', path: base, message: 'must be an array of extra objects' }];
      const first = issues[0];
      if (first) extrasDropped.push({ ...first, rule: 'catalog.extra', message: `${first.message}` });
    });
  }
  return { refused, extrasDropped };
}

/**
 * Catalogs the client never shows: a required extra without options leaves it off Board and out
 * of Discover (search is the documented exception, a search-only catalog; the client disregards
 * a required skip).
 *
 * @example clientHiddenCatalogs({ catalogs: [{ type: 'tv', id: 'g', extra: [{ name: 'date', isRequired: true }] }] }) // [{ rule: 'catalog.hidden', … }]
 */
export function clientHiddenCatalogs(raw: unknown): ClientIssue[] {
  if (!isRecord(raw) || !Array.isArray(raw.catalogs)) return [];
  const out: ClientIssue[] = [];
  raw.catalogs.forEach((catalog, i) => {
    if (!isRecord(catalog) || !Array.isArray(catalog.extra)) return;
    catalog.extra.forEach((extra, j) => {
      if (!isRecord(extra) || extra.isRequired !== true || extra.name === 'search' || extra.name === 'skip') return;
      if (Array.isArray(extra.options) && extra.options.length > 0) return;
      out.push({
        rule: 'catalog.hidden',
        path: `$.catalogs[${i}].extra[${j}].isRequired`,
        message: `the required extra ${preview(extra.name)} has no options: make it optional, or list options (the first is the default)`,
      });
    });
  });
  return out;
}
