import type { Dirent } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { MarqueeError } from '../../errors.js';
import { textEncodingOf } from '../input/encoding.js';
import { fsErrorReason } from '../input/file.js';
import type { SourceWarning } from '../records.js';
import { assembleLibrary, type ItemCandidate } from './assemble.js';
import { parseLibraryCsv } from './csv.js';
import { jsonCandidates, parseLibraryJson } from './json.js';
import { type LibraryReadOptions, type LibraryReadResult, resolveOptions } from './options.js';

/**
 * Library files on disk: the size limit is enforced while reading (a file that grows after
 * `stat` is still cut off), and text must be UTF-8 (a BOM is dropped).
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 text of a file of at most `maxBytes`; SOURCE_TOO_LARGE / SOURCE_UNREADABLE / SOURCE_INVALID otherwise. */
export async function readTextFile(path: string, maxBytes: number): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  let bytes: Buffer;
  try {
    handle = await open(path, 'r');
    const { size } = await handle.stat();
    if (size > maxBytes) throw tooLarge(path, maxBytes);
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw tooLarge(path, maxBytes);
      if (length === buffer.length) break;
    }
    bytes = buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof MarqueeError) throw error;
    throw new MarqueeError('SOURCE_UNREADABLE', `${path}: ${fsErrorReason(error)}`, {
      cause: error,
      details: { source: path },
    });
  } finally {
    await handle?.close();
  }
  // UTF-16 (Notepad's "Unicode"), with or without a BOM, is read as such; anything else must be UTF-8.
  const encoding = textEncodingOf(bytes);
  if (encoding !== 'utf-8') return new TextDecoder(encoding).decode(bytes);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new MarqueeError('SOURCE_INVALID', `${path}: not UTF-8 text (save it as UTF-8)`, {
      details: { source: path },
    });
  }
}

function tooLarge(path: string, maxBytes: number): MarqueeError {
  return new MarqueeError('SOURCE_TOO_LARGE', `${path}: larger than the limit of ${maxBytes} bytes`, {
    details: { source: path, maxFileBytes: maxBytes },
  });
}

/**
 * Read one library file, JSON or CSV by its extension (`.json`, `.csv`, `.tsv`).
 *
 * @example const { items, warnings } = await readLibraryFile('library.csv', { maxItems: 5000 });
 */
export async function readLibraryFile(path: string, options: LibraryReadOptions = {}): Promise<LibraryReadResult> {
  const o = resolveOptions({ ...options, source: options.source ?? path });
  const ext = extname(path).toLowerCase();
  if (ext !== '.json' && ext !== '.csv' && ext !== '.tsv') {
    throw new MarqueeError('SOURCE_INVALID', `${path}: a library file ends in .json, .csv or .tsv`, {
      details: { source: path },
    });
  }
  return parseLibraryText(await readTextFile(path, o.maxFileBytes), path, o);
}

/**
 * The items of the text of library file `path` (JSON or CSV by its extension, or as `format`
 * says: a URL's name need not end in one). Throws SOURCE_INVALID naming the file (and line) when
 * the text is not a library file: an HTML page where a library file is expected is refused on its
 * first character, not parsed by luck.
 * @example parseLibraryText('[{"type":"movie","name":"Sintel"}]', 'lib.json').items.length // 1
 */
export function parseLibraryText(
  text: string,
  path: string,
  options: LibraryReadOptions = {},
  format?: '.json' | '.csv' | '.tsv',
): LibraryReadResult {
  const o = resolveOptions({ ...options, source: options.source ?? path });
  checkNotMarkup(text, path);
  const ext = format ?? extname(path).toLowerCase();
  if (ext === '.json') return parseLibraryJson(text, o);
  return parseLibraryCsv(text, ext === '.tsv' ? { ...o, delimiter: o.delimiter ?? '\t' } : o);
}

/**
 * The raw items of one file of a folder library (one JSON item, or several), to be assembled
 * with the folder's other files by `assembleLibraryFolder`. Throws SOURCE_INVALID like
 * `parseLibraryText`.
 */
export function libraryFolderFile(
  text: string,
  path: string,
): { candidates: ItemCandidate[]; warnings: SourceWarning[] } {
  checkNotMarkup(text, path);
  return jsonCandidates(text, path);
}

/** The items of a folder library from the raw items of its files. */
export function assembleLibraryFolder(
  candidates: readonly ItemCandidate[],
  dir: string,
  options: LibraryReadOptions = {},
): LibraryReadResult {
  return assembleLibrary([...candidates], resolveOptions({ ...options, source: options.source ?? dir }));
}

function checkNotMarkup(text: string, path: string): void {
  const head = text.slice(0, 256).replace(/^[\uFEFF\s]+/, '');
  if (head.startsWith('<')) {
    const what = /^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i.test(head)
      ? 'an HTML page'
      : 'an XML or HTML document';
    throw new MarqueeError('SOURCE_INVALID', `${path}:1: is ${what}, not a library file`, {
      details: { source: path, line: 1 },
    });
  }
}

/**
 * The item files of a folder library, in name order (`*.json`; hidden and other files ignored).
 * Throws SOURCE_UNREADABLE, or SOURCE_TOO_LARGE past `maxItems` files.
 */
export async function listLibraryFolder(dir: string, options: LibraryReadOptions = {}): Promise<string[]> {
  const o = resolveOptions({ ...options, source: options.source ?? dir });
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new MarqueeError('SOURCE_UNREADABLE', `${dir}: ${fsErrorReason(error)}`, {
      cause: error,
      details: { source: dir },
    });
  }
  const names = entries
    .filter((e) => e.isFile() && !e.name.startsWith('.') && e.name.toLowerCase().endsWith('.json'))
    .map((e) => e.name)
    .sort();
  if (names.length > o.maxItems) {
    throw new MarqueeError(
      'SOURCE_TOO_LARGE',
      `${dir}: ${names.length} item files, more than the limit of ${o.maxItems} (library.maxItems)`,
      {
        details: { source: dir, items: names.length, maxItems: o.maxItems },
      },
    );
  }
  return names.map((name) => join(dir, name));
}

/**
 * Read a folder holding one JSON file per item (`*.json`, in name order; other files and
 * hidden ones are ignored). A file that is unreadable, too large or not JSON is a warning.
 *
 * @example const { items } = await readLibraryFolder('library/');
 */
export async function readLibraryFolder(dir: string, options: LibraryReadOptions = {}): Promise<LibraryReadResult> {
  const o = resolveOptions({ ...options, source: options.source ?? dir });
  const paths = await listLibraryFolder(dir, o);
  const candidates: ItemCandidate[] = [];
  const warnings: SourceWarning[] = [];
  for (const path of paths) {
    try {
      const found = jsonCandidates(await readTextFile(path, o.maxFileBytes), path);
      candidates.push(...found.candidates);
      warnings.push(...found.warnings);
    } catch (error) {
      if (!(error instanceof MarqueeError)) throw error;
      const line = typeof error.details?.line === 'number' ? error.details.line : undefined;
      warnings.push({
        source: path,
        ...(line === undefined ? {} : { line }),
        message: `${error.message}; file skipped`,
      });
    }
  }
  const result = assembleLibrary(candidates, o);
  return { items: result.items, warnings: [...warnings, ...result.warnings] };
}

/**
 * Read a library from a file or a folder of item files.
 *
 * @example const { items, warnings } = await readLibrary('examples/library/library.json');
 */
export async function readLibrary(path: string, options: LibraryReadOptions = {}): Promise<LibraryReadResult> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new MarqueeError('SOURCE_UNREADABLE', `${path}: ${fsErrorReason(error)}`, {
      cause: error,
      details: { source: path },
    });
  });
  return info.isDirectory() ? readLibraryFolder(path, options) : readLibraryFile(path, options);
}
