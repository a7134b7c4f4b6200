/**
 * What the real client (stremio-core, as published in `@stremio/stremio-core-web` 0.62.1) refuses
 * or drops, field by field. The checker's severities come from here: a value this model rejects
 * is an error (the client loses the add-on, the item, the stream or the meta page); a value only
 * Marquee's stricter protocol schemas reject is a warning. Every rule below has a fixture in
 * test/fixtures/checker/client-rules.ts that the real client is run against
 * (test/checker-client.test.ts), so the model and the client cannot drift apart unnoticed. The
 * items' rules are here, the manifest's in client-model-manifest.ts, the field checks both are
 * written with in client-model-fields.ts.
 */
import {
  type Accepts,
  absent,
  type ClientIssue,
  date,
  type Field,
  fieldIssues,
  image,
  isRecord,
  listOf,
  notObject,
  objectWith,
  optBool,
  optNumber,
  optStr,
  str,
  url,
} from './client-model-fields.js';

export type { ClientIssue } from './client-model-fields.js';
export { type ClientManifest, clientHiddenCatalogs, clientManifest } from './client-model-manifest.js';

/** The client version this model was measured against; effects name it. */
export const CLIENT = 'stremio-core-web 0.62.1';

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
