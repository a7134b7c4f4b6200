/** Reading one configured library source (a file, a folder of item files, a URL or a text source) through the judge. */
import { stat } from 'node:fs/promises';
import { sep } from 'node:path';
import {
  assembleLibraryFolder,
  type ItemCandidate,
  type LibraryReadResult,
  libraryFolderFile,
  listLibraryFolder,
  parseLibraryJson,
  parseLibraryText,
} from '../sources/library/index.js';
import type { LibraryReadOptions } from '../sources/library/options.js';
import type { SourceWarning } from '../sources/records.js';
import { failureReason, sourceKey } from '../store/index.js';
import { bad, fromCopy, type Judge, judgeFile, newPlan } from './import-judge.js';
import type { LibraryTextSource } from './import-types.js';
import { isLibraryUrl, libraryLabel, urlFormat } from './location.js';

/** The items of one configured file, folder or URL, each of its files judged on its own. */
export async function readSource(j: Judge, source: string, read: LibraryReadOptions): Promise<LibraryReadResult> {
  const url = isLibraryUrl(source);
  if (!url) {
    const folder = await readFolder(j, source, read);
    if (folder !== undefined) return folder;
  }
  // A URL is shown without its credentials, and its format is told by its path or its text.
  const label = libraryLabel(source);
  const found = await judgeFile(j, source, (text) => {
    const r = parseLibraryText(text, label, read, url ? urlFormat(source, text) : undefined);
    return { value: r.items, count: r.items.length, warnings: r.warnings };
  });
  return { items: found.value, warnings: found.warnings };
}

/**
 * The items of `source` when it is a folder (or was one: its files were imported before), each
 * file judged on its own; undefined when it is not a folder.
 */
async function readFolder(j: Judge, source: string, read: LibraryReadOptions): Promise<LibraryReadResult | undefined> {
  const info = await stat(source).catch(() => undefined);
  const prefix = source.endsWith(sep) ? source : `${source}${sep}`;
  const folderFiles = [...j.states.values()].filter((s) => s.label.startsWith(prefix));
  if (!info?.isDirectory() && (info !== undefined || folderFiles.length === 0)) return undefined;
  let paths: string[] | undefined;
  let reason: string | undefined;
  try {
    paths = await listLibraryFolder(source, read);
    if (paths.length === 0) reason = 'holds no item file (*.json)';
  } catch (error) {
    reason = failureReason(error, source, j.signal);
  }
  if (reason !== undefined) {
    // The folder itself is bad: every file it held keeps its last good items.
    if (folderFiles.length === 0) {
      const p = newPlan(j, source);
      bad(j, p, reason);
      return { items: [], warnings: [] };
    }
    paths = folderFiles.map((s) => s.label);
    const candidates: ItemCandidate[] = [];
    for (const path of paths) {
      const p = newPlan(j, path);
      bad(j, p, `is in folder ${source}, which ${reason}`);
      candidates.push(...(await fromCopy(j, p, (text) => libraryFolderFile(text, path).candidates)));
    }
    return assembleLibraryFolder(candidates, source, read);
  }
  const candidates: ItemCandidate[] = [];
  const warnings: SourceWarning[] = [];
  for (const path of paths!) {
    const found = await judgeFile(j, path, (text) => {
      const r = libraryFolderFile(text, path);
      return { value: r.candidates, count: r.candidates.length, warnings: r.warnings };
    });
    candidates.push(...found.value);
    warnings.push(...found.warnings);
  }
  const assembled = assembleLibraryFolder(candidates, source, read);
  return { items: assembled.items, warnings: [...warnings, ...assembled.warnings] };
}

/** The items of a library text source, judged like a file. */
export async function readTextSource(
  j: Judge,
  source: LibraryTextSource,
  read: LibraryReadOptions,
): Promise<LibraryReadResult> {
  const found = await judgeFile(
    j,
    source.label,
    (text) => {
      const r = parseLibraryJson(text, { ...read, source: source.label });
      return { value: r.items, count: r.items.length, warnings: r.warnings };
    },
    { key: sourceKey(source.kind, source.location), kind: source.kind, read: () => source.read(j.signal ?? undefined) },
  );
  return { items: found.value, warnings: found.warnings };
}
