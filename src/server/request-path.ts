import type { CoreRequest, ServerOptions } from './types.js';

/**
 * A Host header worth writing back into a link or a redirect: a name or an IP address, with a
 * port; anything else is a client's arbitrary text.
 */
export const HOST_HEADER = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The path after the mount prefix `basePath` (no trailing slash), without the query; undefined
 * when the URL is outside the prefix.
 * @example localPath('/tv/manifest.json?x=1', '/tv') // '/manifest.json'
 */
export function localPath(url: string, basePath: string): string | undefined {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!basePath) return path;
  if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
  return path.slice(basePath.length) || '/';
}

/**
 * The add-on's base URL as this request reached it, for links in pages: `publicUrl` when set;
 * else the request's scheme and Host (`X-Forwarded-Proto` and `-Host` behind a trusted proxy; a
 * Host that is not a name or an address is read as 127.0.0.1), then `basePath`.
 * @example requestBaseUrl(request, { basePath: '/tv' }) // 'http://192.168.1.5:7000/tv'
 */
export function requestBaseUrl(
  request: CoreRequest,
  options: Pick<ServerOptions, 'publicUrl' | 'trustProxy' | 'basePath'>,
): string {
  if (options.publicUrl) return options.publicUrl.replace(/\/+$/, '');
  const forwardedHost = options.trustProxy ? request.header('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const forwardedProto = options.trustProxy ? request.header('x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  const rawHost = forwardedHost ?? request.header('host') ?? '127.0.0.1';
  const host = HOST_HEADER.test(rawHost) ? rawHost : '127.0.0.1';
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : (request.protocol ?? 'http');
  return `${proto}://${host}${(options.basePath ?? '').replace(/\/+$/, '')}`;
}

/**
 * The client's address for limits. Behind a trusted proxy, the address the proxy appended last:
 * entries before it are whatever the client sent, so taking the first would let a client pick a
 * fresh address for every request.
 * @example clientAddress(request, true) // '203.0.113.7'
 */
export function clientAddress(request: CoreRequest, trustProxy: boolean | undefined): string {
  const forwarded = trustProxy ? request.header('x-forwarded-for')?.split(',').at(-1)?.trim() : undefined;
  return forwarded || request.remoteAddress || 'unknown';
}

const FIRST_SEGMENTS = new Set([
  'catalog',
  'meta',
  'stream',
  'subtitles',
  'addon_catalog',
  'manifest.json',
  'configure',
  '',
]);

/** The path for logs: the config segment may hold secrets, so it is never written out; nor is the query. */
export function redactPath(url: string, basePath = ''): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  if (basePath && path.startsWith(basePath)) path = path.slice(basePath.length);
  const segments = path.split('/');
  const first = segments.findIndex((s, i) => i > 0 && (FIRST_SEGMENTS.has(s) || s === 'manifest.json'));
  if (first > 1) segments[first - 1] = '{config}';
  return basePath + segments.join('/') + (q === -1 ? '' : '?…');
}
