import { extname } from 'node:path';
import {
  readSourceText,
  redactLocation,
  type SourceOptions,
  type SourceValidators,
  validatorsOf,
} from '../sources/input/index.js';
import { readTextFile } from '../sources/library/index.js';

/**
 * Where a library file is read from: a path on disk, or an http(s) URL read through the same
 * reader as playlists and guides (size limit, timeouts, retries, redirects, the private-address
 * guard, ETag / Last-Modified, gzip). The operator names these URLs, so they may reach private
 * addresses, as configured playlists and guides may.
 */

/** True for an http(s) URL: read over the network, never a path on disk. */
export function isLibraryUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** What a library location is shown as: a URL with its credentials hidden, a path as it is. */
export function libraryLabel(location: string): string {
  return isLibraryUrl(location) ? redactLocation(location) : location;
}

/**
 * The format of a library URL's text: by the extension of its path (a query or `.gz` after it
 * does not count), else by its first character (`{` or `[` is JSON, anything else CSV).
 *
 * @example urlFormat('https://x.example/films.csv?token=1', 'name,type') // '.csv'
 */
export function urlFormat(location: string, text: string): '.json' | '.csv' | '.tsv' {
  let path = '';
  try {
    path = new URL(location).pathname.toLowerCase().replace(/\.gz$/, '');
  } catch {
    // Not a URL after all: the text decides.
  }
  const ext = extname(path);
  if (ext === '.json' || ext === '.csv' || ext === '.tsv') return ext;
  return /^[\uFEFF\s]*[[{]/.test(text) ? '.json' : '.csv';
}

export type LocationText =
  | { readonly notModified: false; readonly text: string; readonly validators?: SourceValidators }
  | { readonly notModified: true };

/**
 * The text of the library file at `location`, at most `maxBytes`; a URL asked conditionally with
 * `previous` (its last good read's validators) answers `notModified` when it did not change.
 *
 * @example await readLibraryLocation('https://x.example/films.json', { maxBytes: 1 << 26 })
 */
export async function readLibraryLocation(
  location: string,
  options: { readonly maxBytes: number; readonly source?: SourceOptions; readonly previous?: SourceValidators },
): Promise<LocationText> {
  if (!isLibraryUrl(location)) return { notModified: false, text: await readTextFile(location, options.maxBytes) };
  const read = await readSourceText(location, {
    ...options.source,
    allowPrivateAddresses: true,
    maxBytes: options.maxBytes,
    ...(options.previous ? { previous: options.previous } : {}),
  });
  if (read.notModified) return { notModified: true };
  const validators = validatorsOf(read.metadata);
  return { notModified: false, text: read.text, ...(validators ? { validators } : {}) };
}
