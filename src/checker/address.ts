/**
 * The add-on's address as the client reads it: everything in front of `/manifest.json` (a path
 * prefix, a config segment) is kept, and so is the query string, on every request.
 */

export interface AddonAddress {
  /** The manifest URL, normalised (a `stremio://` link read as https, no fragment). */
  readonly manifestUrl: string;
  /** The absolute URL of an add-on path such as `/catalog/movie/top.json`. */
  resolve(path: string): string;
}

export type AddressResult = { readonly address: AddonAddress } | { readonly error: string };

const TAIL = '/manifest.json';

/**
 * Read a manifest URL; a `stremio://` install link is read as the https address behind it.
 *
 * @example readAddress('https://host/prefix/%7B%7D/manifest.json?k=1').address.resolve('/meta/tv/a.json') // 'https://host/prefix/%7B%7D/meta/tv/a.json?k=1'
 */
export function readAddress(input: string): AddressResult {
  const text = input.trim().replace(/^stremio:\/\//i, 'https://');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: `${JSON.stringify(input.slice(0, 200))} is not a URL: give the add-on's manifest URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: `${url.protocol} URLs are not add-on addresses: use http(s)://…/manifest.json` };
  }
  if (!url.pathname.endsWith(TAIL)) {
    return { error: `the add-on address ends in /manifest.json; ${url.pathname} does not` };
  }
  url.hash = '';
  const prefix = url.pathname.slice(0, -TAIL.length);
  const head = `${url.origin}${prefix}`;
  const query = url.search;
  return {
    address: {
      manifestUrl: url.href,
      resolve: (path) => `${head}${path}${query}`,
    },
  };
}
