/**
 * Reading an upstream's HLS playlists (RFC 8216): a master playlist's variants and renditions, a
 * media playlist's segments with the keys, maps and byte ranges in force for each. URIs are made
 * absolute against the playlist's own URL (after redirects), since the relay fetches them itself
 * and hands out ids of its own instead. Lenient, as players are: unknown tags are skipped, a
 * segment without its EXTINF gets the target duration.
 */

/** An attribute list as written: names in order, values raw (quoted strings keep their quotes). */
export type AttributeList = readonly (readonly [string, string])[];

/**
 * `NAME=value,NAME="quoted, value"` into [name, raw value] pairs.
 * @example parseAttributes('BANDWIDTH=800000,CODECS="avc1.4d401f,mp4a.40.2"') // [['BANDWIDTH','800000'],['CODECS','"avc1.4d401f,mp4a.40.2"']]
 */
export function parseAttributes(text: string): AttributeList {
  const out: [string, string][] = [];
  let at = 0;
  while (at < text.length) {
    while (text[at] === ',' || text[at] === ' ') at++;
    const equals = text.indexOf('=', at);
    if (equals === -1) break;
    const name = text.slice(at, equals).trim();
    let end: number;
    if (text[equals + 1] === '"') {
      const close = text.indexOf('"', equals + 2);
      end = close === -1 ? text.length : close + 1;
    } else {
      const comma = text.indexOf(',', equals + 1);
      end = comma === -1 ? text.length : comma;
    }
    if (name !== '') out.push([name.toUpperCase(), text.slice(equals + 1, end)]);
    at = end;
  }
  return out;
}

/** An attribute's value, unquoted. */
export function attribute(list: AttributeList, name: string): string | undefined {
  const raw = list.find(([n]) => n === name)?.[1];
  return raw === undefined ? undefined : unquote(raw);
}

function unquote(raw: string): string {
  return raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
}

export interface Variant {
  readonly uri: string;
  readonly attributes: AttributeList;
  readonly bandwidth: number;
}

export interface Rendition {
  /** `AUDIO`, `SUBTITLES`, `VIDEO`, `CLOSED-CAPTIONS`. */
  readonly type: string;
  /** Absent for renditions carried in the variant (CLOSED-CAPTIONS, or audio without URI). */
  readonly uri?: string;
  readonly attributes: AttributeList;
}

export interface MasterPlaylist {
  readonly kind: 'master';
  readonly variants: readonly Variant[];
  readonly renditions: readonly Rendition[];
  /** Tags kept as they are (EXT-X-VERSION, EXT-X-INDEPENDENT-SEGMENTS, EXT-X-START). */
  readonly tags: readonly string[];
}

export interface ByteRange {
  readonly length: number;
  readonly offset: number;
}

export interface SegmentKey {
  /** `AES-128`, `SAMPLE-AES`, … (NONE is no key). */
  readonly method: string;
  /** Absolute http(s) URI, when the key is fetched from one. */
  readonly uri?: string;
  /** The tag's attributes as written. */
  readonly attributes: AttributeList;
}

export interface SegmentMap {
  readonly uri: string;
  readonly range?: ByteRange;
}

export interface MediaSegment {
  /** Its media sequence number. */
  readonly seq: number;
  readonly uri: string;
  readonly duration: number;
  readonly discontinuity: boolean;
  readonly range?: ByteRange;
  readonly key?: SegmentKey;
  readonly map?: SegmentMap;
  readonly dateTime?: string;
}

export interface MediaPlaylist {
  readonly kind: 'media';
  readonly targetDuration: number;
  readonly mediaSequence: number;
  readonly ended: boolean;
  readonly segments: readonly MediaSegment[];
}

export type HlsPlaylist = MasterPlaylist | MediaPlaylist;

/** Segments read from one media playlist at most: more is not a live window. */
const MAX_SEGMENTS = 10_000;

/**
 * Parse a playlist fetched from `base`; undefined when it is not one (no #EXTM3U).
 * @example parseHls('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n', 'http://x/live/').kind // 'master'
 */
export function parseHls(text: string, base: string): HlsPlaylist | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (
    !lines.some((l) => l.trim() !== '') ||
    !lines
      .find((l) => l.trim() !== '')!
      .trim()
      .startsWith('#EXTM3U')
  )
    return undefined;
  const master = lines.some((l) => l.startsWith('#EXT-X-STREAM-INF'));
  return master ? parseMaster(lines, base) : parseMedia(lines, base);
}

function absolute(uri: string, base: string): string | undefined {
  try {
    const url = new URL(uri.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function parseMaster(lines: readonly string[], base: string): MasterPlaylist {
  const variants: Variant[] = [];
  const renditions: Rendition[] = [];
  const tags: string[] = [];
  let pending: AttributeList | undefined;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      pending = parseAttributes(line.slice(18));
    } else if (line.startsWith('#EXT-X-MEDIA:')) {
      const attributes = parseAttributes(line.slice(13));
      const given = attribute(attributes, 'URI');
      const uri = given === undefined ? undefined : absolute(given, base);
      if (given !== undefined && uri === undefined) continue;
      renditions.push({ type: attribute(attributes, 'TYPE') ?? '', attributes, ...(uri ? { uri } : {}) });
    } else if (
      line.startsWith('#EXT-X-VERSION') ||
      line.startsWith('#EXT-X-INDEPENDENT-SEGMENTS') ||
      line.startsWith('#EXT-X-START')
    ) {
      tags.push(line);
    } else if (!line.startsWith('#') && pending) {
      const uri = absolute(line, base);
      if (uri) {
        const bandwidth = Number(attribute(pending, 'BANDWIDTH') ?? 0);
        variants.push({ uri, attributes: pending, bandwidth: Number.isFinite(bandwidth) ? bandwidth : 0 });
      }
      pending = undefined;
    }
  }
  return { kind: 'master', variants, renditions, tags };
}

function parseMedia(lines: readonly string[], base: string): MediaPlaylist {
  let targetDuration = 0;
  let mediaSequence = 0;
  let ended = false;
  const segments: MediaSegment[] = [];
  let duration: number | undefined;
  let discontinuity = false;
  let range: ByteRange | undefined;
  let key: SegmentKey | undefined;
  let map: SegmentMap | undefined;
  let dateTime: string | undefined;
  /** Where the previous byte range of each URI ended: a range without offset goes on from there. */
  let lastRange: { uri: string; end: number } | undefined;
  let pendingRange: { length: number; offset?: number } | undefined;
  /** URI lines so far: a segment's media sequence number is the playlist's plus its index. */
  let index = 0;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#EXTINF:')) {
      const value = Number.parseFloat(line.slice(8));
      duration = Number.isFinite(value) && value >= 0 ? value : undefined;
    } else if (line.startsWith('#EXT-X-TARGETDURATION:')) {
      const value = Number(line.slice(22));
      if (Number.isFinite(value) && value > 0) targetDuration = value;
    } else if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) {
      const value = Number(line.slice(22));
      if (Number.isSafeInteger(value) && value >= 0) mediaSequence = value;
    } else if (line.startsWith('#EXT-X-DISCONTINUITY') && !line.startsWith('#EXT-X-DISCONTINUITY-SEQUENCE')) {
      discontinuity = true;
    } else if (line.startsWith('#EXT-X-ENDLIST')) {
      ended = true;
    } else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) {
      dateTime = line.slice(25);
    } else if (line.startsWith('#EXT-X-BYTERANGE:')) {
      const [length, offset] = line.slice(17).split('@').map(Number);
      if (Number.isSafeInteger(length) && length! > 0)
        pendingRange = { length: length!, ...(Number.isSafeInteger(offset) ? { offset: offset! } : {}) };
    } else if (line.startsWith('#EXT-X-KEY:')) {
      const attributes = parseAttributes(line.slice(11));
      const method = attribute(attributes, 'METHOD') ?? 'NONE';
      const given = attribute(attributes, 'URI');
      const uri = given === undefined ? undefined : absolute(given, base);
      key = method === 'NONE' ? undefined : { method, attributes, ...(uri ? { uri } : {}) };
    } else if (line.startsWith('#EXT-X-MAP:')) {
      const attributes = parseAttributes(line.slice(11));
      const uri = absolute(attribute(attributes, 'URI') ?? '', base);
      const byterange = attribute(attributes, 'BYTERANGE');
      const [length, offset] = (byterange ?? '').split('@').map(Number);
      map = uri
        ? {
            uri,
            ...(byterange && Number.isSafeInteger(length)
              ? { range: { length: length!, offset: Number.isSafeInteger(offset) ? offset! : 0 } }
              : {}),
          }
        : undefined;
    } else if (!line.startsWith('#')) {
      const uri = absolute(line, base);
      const seq = mediaSequence + index++;
      if (uri !== undefined && segments.length < MAX_SEGMENTS) {
        if (pendingRange) {
          const offset = pendingRange.offset ?? (lastRange?.uri === uri ? lastRange.end : 0);
          range = { length: pendingRange.length, offset };
          lastRange = { uri, end: offset + pendingRange.length };
        }
        segments.push({
          seq,
          uri,
          duration: duration ?? targetDuration,
          discontinuity,
          ...(range ? { range } : {}),
          ...(key ? { key } : {}),
          ...(map ? { map } : {}),
          ...(dateTime ? { dateTime } : {}),
        });
      }
      duration = undefined;
      discontinuity = false;
      range = undefined;
      pendingRange = undefined;
      dateTime = undefined;
    }
  }
  return { kind: 'media', targetDuration, mediaSequence, ended, segments };
}
