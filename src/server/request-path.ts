import type { CoreRequest } from './types.js';

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
 * The client's address for limits. Behind a trusted proxy, the address the proxy appended last:
 * entries before it are whatever the client sent, so taking the first would let a client pick a
 * fresh address for every request.
 * @example clientAddress(request, true) // '203.0.113.7'
 */
export function clientAddress(request: CoreRequest, trustProxy: boolean | undefined): string {
  const forwarded = trustProxy ? request.header('x-forwarded-for')?.split(',').at(-1)?.trim() : undefined;
  return forwarded || request.remoteAddress || 'unknown';
}
