import { jsonError } from './respond.js';
import type { CoreRequest, CoreResponse, ServerOptions } from './types.js';

/**
 * Whether a request comes from a page of another site: its `Origin` (or, without one, its
 * `Referer`) names a host other than this server's own (the Host header, `X-Forwarded-Host`
 * behind a trusted proxy, or `publicUrl`'s). Any web page can make its visitors' browsers POST a
 * form to `/configure` (a simple cross-origin request, sent without asking), and so make the
 * server fetch a thousand URLs from a thousand addresses; browsers always name the page a POST
 * comes from, so refusing these costs the server's own form nothing. A request with neither
 * header (a script, `curl`) is not a browser's and passes; an opaque origin (`null`: a sandboxed
 * frame, a `file:` page) is refused.
 * @example crossSiteOrigin(request, {}) // 'https://evil.example' for a form posted from there
 */
export function crossSiteOrigin(request: CoreRequest, options: ServerOptions): string | undefined {
  const origin = request.header('origin')?.trim();
  const from = origin !== undefined && origin !== '' ? origin : request.header('referer')?.trim();
  if (from === undefined || from === '') return undefined;
  const host = hostOf(from);
  if (host === undefined) return from.slice(0, 100);
  return ownHosts(request, options).has(host) ? undefined : from.slice(0, 100);
}

/** `host[:port]` of a URL, lower case, without the scheme's default port; undefined when not an http(s) URL. */
function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.host.toLowerCase(); // URL drops :80 for http and :443 for https
  } catch {
    return undefined;
  }
}

/** The names this server answers to, as `host[:port]`. */
function ownHosts(request: CoreRequest, options: ServerOptions): Set<string> {
  const hosts = new Set<string>();
  const add = (host: string | undefined) => {
    if (host === undefined || host === '') return;
    const bare = host.toLowerCase().replace(/:(80|443)$/, '');
    hosts.add(bare);
  };
  if (options.publicUrl) add(hostOf(options.publicUrl));
  if (options.trustProxy) add(request.header('x-forwarded-host')?.split(',')[0]?.trim());
  add(request.header('host')?.trim());
  return hosts;
}

/**
 * The 403 of a form posted from another site, naming that site (its origin, cut short; JSON
 * escapes it). Not cached anywhere (`no-store`).
 * @example crossSiteResponse('https://evil.example').status // 403
 */
export function crossSiteResponse(origin: string, requestId?: string): CoreResponse {
  return jsonError(
    403,
    'CROSS_SITE_REQUEST',
    `a form posted from another site (${origin}) is refused: configure on this site's own page`,
    requestId,
  );
}
