import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { checkedFile } from './file-path.js';
import { FILE_MODE, FOLDER_MODE } from './replace-dir.js';

/**
 * Writes the files of one export into its staging folder, within the file and byte bounds, and
 * refuses paths that would clash: a name used both as a file and as a folder (`x.json` the file
 * and `x.json/` the folder of an id with a `/`), or one file claimed by two different requests.
 */

export interface WriterLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

export type WriteResult = 'written' | 'refused' | 'full';

export interface ExportWriter {
  /** Write `content` at the relative `file`; `source` names the request in warnings. */
  write(file: string, content: string, source: string): Promise<WriteResult>;
  /** True once a bound was reached: nothing more is written. */
  readonly full: boolean;
  readonly files: number;
  readonly bytes: number;
  /** Every file written, relative to the root, in the order written (the marker lists them). */
  written(): string[];
}

export interface WriterEvents {
  /** A file not written, or written with a caveat; `source` is the request or file it was for. */
  warn(source: string, message: string): void;
  /** A bound was reached (called once). */
  stop(reason: string): void;
}

/**
 * A bounded writer rooted at `root` (an existing, empty staging folder).
 *
 * @example const writer = createExportWriter(staging, { maxFiles: 1000, maxBytes: 1e8 }, events);
 */
export function createExportWriter(root: string, limits: WriterLimits, events: WriterEvents): ExportWriter {
  const owners = new Map<string, string>();
  const folders = new Set<string>();
  /** Lower-cased paths: two that differ only in case are one file on macOS and Windows. */
  const folded = new Map<string, string>();
  let files = 0;
  let bytes = 0;
  let full = false;

  function stop(reason: string): WriteResult {
    if (!full) events.stop(reason);
    full = true;
    return 'full';
  }

  function clash(file: string, source: string): string | undefined {
    const owner = owners.get(file);
    if (owner !== undefined) return `it maps to the same file as ${owner}`;
    if (folders.has(file)) return `"${file}" is already a folder of other files`;
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      const other = owners.get(folder);
      if (other !== undefined) return `"${folder}" is already the file of ${other}`;
    }
    const lower = folded.get(file.toLowerCase());
    if (lower !== undefined && lower !== source) {
      events.warn(
        source,
        `"${file}" differs only in letter case from the file of ${lower}; on a case-insensitive file system (macOS, Windows) one overwrites the other`,
      );
    }
    return undefined;
  }

  return {
    get full() {
      return full;
    },
    get files() {
      return files;
    },
    get bytes() {
      return bytes;
    },
    written: () => [...owners.keys()],
    async write(file, content, source) {
      if (full) return 'full';
      const checked = checkedFile(file);
      if ('refused' in checked) {
        events.warn(source, `not written: ${checked.refused}`);
        return 'refused';
      }
      const problem = clash(file, source);
      if (problem !== undefined) {
        events.warn(source, `not written: ${problem}`);
        return 'refused';
      }
      const size = Buffer.byteLength(content);
      if (files + 1 > limits.maxFiles) return stop(`the file limit (${limits.maxFiles}) was reached`);
      if (bytes + size > limits.maxBytes) return stop(`the byte limit (${limits.maxBytes}) was reached`);
      const folder = dirname(file);
      if (folder !== '.' && !folders.has(folder)) {
        await mkdir(join(root, folder), { recursive: true, mode: FOLDER_MODE });
        const parts = folder.split('/');
        for (let i = 1; i <= parts.length; i++) folders.add(parts.slice(0, i).join('/'));
      }
      try {
        // `wx`: the staging folder is ours and new; an existing file is a case-folding clash, never data to overwrite.
        await writeFile(join(root, file), content, { flag: 'wx', mode: FILE_MODE });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        events.warn(source, `not written: the file system already holds "${file}" under another letter case`);
        return 'refused';
      }
      owners.set(file, source);
      folded.set(file.toLowerCase(), source);
      files += 1;
      bytes += size;
      return 'written';
    },
  };
}
