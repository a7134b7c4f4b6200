/**
 * The playlists the relay serves (RFC 8216). Every URI in them is the relay's own, relative to
 * the playlist, so no upstream address reaches the client: a master playlist whose variants and
 * renditions are the relay's tracks, and per track a live media playlist of the relay's own
 * sequence numbers, with EXT-X-DISCONTINUITY where the timeline breaks (a failover, a loop, a
 * clock jump) and keys and init segments as relay ids.
 */
import type { AttributeList, MasterPlaylist } from './hls-parse.js';

/** One segment as a media playlist lists it. */
export interface ListedSegment {
  readonly seq: number;
  readonly duration: number;
  readonly discontinuity: boolean;
  /** Relative to the playlist. */
  readonly uri: string;
  /** The EXT-X-KEY line in force for it (relay URIs), when it is encrypted. */
  readonly keyTag?: string;
  /** The EXT-X-MAP line in force for it (relay URI). */
  readonly mapTag?: string;
  readonly dateTime?: string;
}

export interface MediaPlaylistOptions {
  /** Discontinuities that have left the window (EXT-X-DISCONTINUITY-SEQUENCE). */
  readonly discontinuitySequence: number;
  /** No more segments will come (EXT-X-ENDLIST). */
  readonly ended: boolean;
}

/**
 * A live media playlist of `segments` (oldest first).
 * @example mediaPlaylist([{ seq: 7, duration: 2, discontinuity: false, uri: 't0/7.ts' }], { discontinuitySequence: 0, ended: false })
 */
export function mediaPlaylist(segments: readonly ListedSegment[], options: MediaPlaylistOptions): string {
  const target = Math.max(1, ...segments.map((s) => Math.ceil(s.duration - 0.001)));
  const version = segments.some((s) => s.mapTag !== undefined) ? 6 : 3;
  const lines = [
    '#EXTM3U',
    `#EXT-X-VERSION:${version}`,
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-MEDIA-SEQUENCE:${segments[0]?.seq ?? 0}`,
  ];
  if (options.discontinuitySequence > 0) lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${options.discontinuitySequence}`);
  let key: string | undefined;
  let map: string | undefined;
  for (const s of segments) {
    // Counted in EXT-X-DISCONTINUITY-SEQUENCE only once its segment has left the window.
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    if (s.keyTag !== key) {
      lines.push(s.keyTag ?? '#EXT-X-KEY:METHOD=NONE');
      key = s.keyTag;
    }
    if (s.mapTag !== undefined && s.mapTag !== map) {
      lines.push(s.mapTag);
      map = s.mapTag;
    }
    if (s.dateTime !== undefined) lines.push(`#EXT-X-PROGRAM-DATE-TIME:${s.dateTime}`);
    lines.push(`#EXTINF:${s.duration.toFixed(3)},`, s.uri);
  }
  if (options.ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/**
 * A master playlist of one variant: the relay's own track of an MPEG-TS upstream.
 * @example singleVariant('v1/t0.m3u8', 4_000_000)
 */
export function singleVariant(uri: string, bandwidth: number): string {
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=${Math.max(1, Math.round(bandwidth))}\n${uri}\n`;
}

/**
 * The upstream's master playlist with its variants and renditions replaced by the relay's tracks:
 * variant `i` is `uriOf(i)`, the rendition with a URI that is the `j`-th such is `uriOf(variants + j)`.
 */
export function rewriteMaster(master: MasterPlaylist, uriOf: (track: number) => string): string {
  const lines = ['#EXTM3U', ...master.tags];
  let track = master.variants.length;
  for (const r of master.renditions) {
    const attributes = r.uri === undefined ? r.attributes : withUri(r.attributes, uriOf(track++));
    lines.push(`#EXT-X-MEDIA:${writeAttributes(attributes)}`);
  }
  for (const [i, v] of master.variants.entries()) {
    lines.push(`#EXT-X-STREAM-INF:${writeAttributes(v.attributes)}`, uriOf(i));
  }
  return `${lines.join('\n')}\n`;
}

/** The attribute list with its URI replaced (added when there was none); byte ranges dropped. */
export function withUri(list: AttributeList, uri: string): AttributeList {
  const out: [string, string][] = list.filter(([n]) => n !== 'URI' && n !== 'BYTERANGE').map(([n, v]) => [n, v]);
  out.push(['URI', `"${uri}"`]);
  return out;
}

export function writeAttributes(list: AttributeList): string {
  return list.map(([n, v]) => `${n}=${v}`).join(',');
}
