import { formatAddonPath, type ResourcePath } from '../protocol/index.js';

/**
 * Where a static server looks for the answer to a request. nginx, object storage, CDNs and
 * `python3 -m http.server` percent-decode the request path before the file lookup, so the file
 * for `/catalog/movie/top/genre=Rock%20%26%20Roll.json` is `catalog/movie/top/genre=Rock & Roll.json`.
 * The file name is therefore, by construction, the decoded form of the exact path the client
 * sends: a `/` inside a value becomes a folder, because that is what a decoding server looks up.
 */

/** Longest file or folder name most file systems take (ext4, APFS, NTFS: 255). */
const MAX_NAME_BYTES = 255;
/** Longest relative path we write; Linux PATH_MAX is 4096 and the export folder adds to it. */
const MAX_PATH_BYTES = 3_000;

/** Characters NTFS refuses in a name; `:` would even write an alternate data stream silently. */
const WINDOWS_FORBIDDEN = /[<>:"|?*\\\x00-\x1f]/;

export type FilePathResult = { readonly file: string } | { readonly refused: string };

/**
 * The relative file path for a request, or why it cannot be written safely (a segment that is
 * empty, `.` or `..` would be merged or climbed by the server, NUL cannot be in a file name).
 *
 * @example exportFilePath({ resource: 'meta', type: 'tv', id: 'mq-tv:bbc', extra: [] }) // { file: 'meta/tv/mq-tv:bbc.json' }
 */
export function exportFilePath(path: ResourcePath): FilePathResult {
  return checkedFile(decodeURIComponent(formatAddonPath(path)).slice(1));
}

/**
 * Check a relative file path made of `/`-separated names; see `exportFilePath`. With `windows`,
 * names NTFS cannot hold (`:` in ids, trailing dots or spaces) are refused too.
 */
export function checkedFile(file: string, windows = process.platform === 'win32'): FilePathResult {
  if (file.includes('\0')) return { refused: 'it contains a NUL character' };
  if (Buffer.byteLength(file) > MAX_PATH_BYTES) return { refused: `its file path is over ${MAX_PATH_BYTES} bytes` };
  for (const name of file.split('/')) {
    // An empty name means an absolute path or `//`; servers collapse both, so the file would be unreachable.
    if (name === '') return { refused: 'it makes an empty path segment (a leading, trailing or double "/")' };
    if (name === '.' || name === '..') return { refused: `it makes a "${name}" path segment` };
    if (Buffer.byteLength(name) > MAX_NAME_BYTES)
      return { refused: `a file name would be over ${MAX_NAME_BYTES} bytes` };
    if (windows && (WINDOWS_FORBIDDEN.test(name) || /[. ]$/.test(name))) {
      return { refused: `"${name}" is not a valid Windows file name; export on Linux or macOS` };
    }
  }
  return { file };
}
