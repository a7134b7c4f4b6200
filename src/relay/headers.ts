/**
 * The request headers a stored stream needs upstream, from everything a playlist can say them
 * with: `#EXTVLCOPT:http-user-agent` / `http-referrer` (kept as the stream's userAgent and
 * referrer), `#KODIPROP:inputstream.adaptive.stream_headers` (and `manifest_headers`,
 * `common_headers`: `Name=value&Name=value`, URL-encoded), and Kodi's `URL|Name=value&Name=value`
 * suffix. The relay sends them on every request it makes for the stream (playlists, segments,
 * keys); the client needs none of them.
 */

/** What a stream is stored with. */
export interface StoredStream {
  readonly url: string;
  readonly userAgent?: string;
  readonly referrer?: string;
  readonly kodiProps?: Readonly<Record<string, string>>;
}

export interface UpstreamRequest {
  /** The URL to fetch (Kodi's header suffix removed). */
  readonly url: string;
  readonly userAgent?: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
}

const KODI_HEADER_PROPS = [
  'inputstream.adaptive.common_headers',
  'inputstream.adaptive.manifest_headers',
  'inputstream.adaptive.stream_headers',
];
/** Headers the relay sets itself, or that would change what is asked (never taken from a playlist). */
const RESERVED = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'range',
  'te',
  'upgrade',
  'keep-alive',
  'proxy-authorization',
  'if-none-match',
  'if-modified-since',
]);
const NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
const MAX_VALUE = 2_048;
const MAX_HEADERS = 16;

/**
 * @example upstreamRequest({ url: 'http://x/1.m3u8|Referer=https%3A%2F%2Fx%2F', userAgent: 'VLC' })
 *   // { url: 'http://x/1.m3u8', userAgent: 'VLC', headers: { referer: 'https://x/' } }
 */
export function upstreamRequest(stream: StoredStream): UpstreamRequest {
  const headers: Record<string, string> = {};
  let url = stream.url;
  const pipe = url.indexOf('|');
  if (pipe !== -1) {
    readPairs(url.slice(pipe + 1), headers);
    url = url.slice(0, pipe);
  }
  for (const prop of KODI_HEADER_PROPS) {
    const value = stream.kodiProps?.[prop];
    if (value !== undefined) readPairs(value, headers);
  }
  if (stream.referrer !== undefined && clean(stream.referrer) !== undefined) headers.referer = clean(stream.referrer)!;
  let userAgent = headers['user-agent'];
  delete headers['user-agent'];
  if (stream.userAgent !== undefined && clean(stream.userAgent) !== undefined) userAgent = clean(stream.userAgent);
  return { url, headers, ...(userAgent !== undefined ? { userAgent } : {}) };
}

function readPairs(text: string, into: Record<string, string>): void {
  for (const pair of text.split('&')) {
    if (Object.keys(into).length >= MAX_HEADERS) return;
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    const name = decode(pair.slice(0, equals)).trim();
    const value = clean(decode(pair.slice(equals + 1)));
    if (!NAME.test(name) || value === undefined) continue;
    const lower = name.toLowerCase();
    if (lower === 'referrer') into.referer = value;
    else if (!RESERVED.has(lower)) into[lower] = value;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A header value without control characters (a CR or LF would start another header), bounded. */
function clean(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > MAX_VALUE || /[\u0000-\u001f\u007f]/.test(trimmed)) return undefined;
  return trimmed;
}
