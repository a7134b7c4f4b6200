/**
 * What a source location names (a file or an http(s) URL) and how to print it without the
 * credentials IPTV URLs routinely carry (`user:pass@`, `?username=..&password=..`, `?token=`).
 */
import { fileURLToPath } from 'node:url';
import { MarqueeError } from '../../errors.js';

export type ParsedLocation =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'url'; readonly url: URL };

/** A scheme needs two letters at least, so `C:\guide.xml` stays a Windows path. */
const SCHEME = /^([a-z][a-z0-9+.-]+):\/\//i;
/** Query names whose values are secrets; over-matching only hides more of a log line. */
const SECRET_NAME = /token|secret|pass|pwd|key|auth|sig|credential|session|user|login/i;

/**
 * Classify a location: http(s) URL, `file://` URL or plain path; other schemes are refused.
 * @example parseLocation('https://x.example/list.m3u').kind // 'url'
 */
export function parseLocation(location: string): ParsedLocation {
  const scheme = SCHEME.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'file', path: location };
  if (scheme === 'file') {
    try {
      return { kind: 'file', path: fileURLToPath(location) };
    } catch (cause) {
      throw new MarqueeError('SOURCE_UNREADABLE', `not a valid file URL: ${redactLocation(location)}`, { cause });
    }
  }
  if (scheme !== 'http' && scheme !== 'https') {
    throw new MarqueeError(
      'SOURCE_FORBIDDEN',
      `only http(s) URLs and file paths are read, not ${scheme}: ${redactLocation(location)}`,
    );
  }
  try {
    return { kind: 'url', url: new URL(location) };
  } catch (cause) {
    throw new MarqueeError('SOURCE_UNREADABLE', `not a valid URL: ${redactLocation(location)}`, { cause });
  }
}

/**
 * The location with user info and secret-looking query values replaced by `***`, for messages and logs.
 * @example redactLocation('http://me:pw@tv.example/get.php?username=me&password=pw&type=m3u')
 *   // 'http://***@tv.example/get.php?username=***&password=***&type=m3u'
 */
export function redactLocation(location: string | URL): string {
  const text = String(location);
  if (!SCHEME.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Unparseable: still hide anything between `//` and `@`, and every query value.
    return text.replace(/\/\/[^/?#]*@/, '//***@').replace(/([?&][^=&#]*=)[^&#]*/g, '$1***');
  }
  const hadUser = url.username !== '' || url.password !== '';
  url.username = '';
  url.password = '';
  // Rebuilt by hand: URLSearchParams would re-encode the untouched parameters too.
  const query = url.search
    .slice(1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {}
      return SECRET_NAME.test(decoded) ? `${name}=***` : pair;
    })
    .join('&');
  url.search = '';
  const base = url.href.replace(/#.*$/, '');
  const withUser = hadUser ? base.replace('//', '//***@') : base;
  return query === '' ? withUser : `${withUser}?${query}`;
}

/**
 * A stream URL for reports: its scheme, host and last path segment only. Stream URLs carry
 * accounts in their paths (`/live/USER/PASS/1.ts`) and tokens in their queries, which
 * `redactLocation` cannot tell from the rest of a path.
 * @example redactStreamUrl('http://me:pw@tv.example:8080/live/me/pw/12.ts?token=x') // 'http://tv.example:8080/…/12.ts?…'
 */
export function redactStreamUrl(location: string): string {
  if (!SCHEME.test(location)) return location;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return redactLocation(location);
  }
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const last = segments.at(-1);
  const path = last === undefined ? '/' : segments.length > 1 ? `/…/${last}` : `/${last}`;
  return `${url.protocol}//${url.host}${path}${url.search !== '' ? '?…' : ''}`;
}
