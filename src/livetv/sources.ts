/**
 * Reading the playlists, and the "has anything changed?" check of a refresh. Every import
 * rebuilds the whole data set, so a source answering "not modified" only helps when every
 * source does: then nothing is imported at all. Otherwise the unchanged ones are read again.
 */
import type { SourceCopySink, SourceOptions, SourceStream, SourceValidators } from '../sources/input/index.js';
import { limitsFor, openSource, readSourceText, redactLocation } from '../sources/input/index.js';
import type { GuideSource, ImportProgress, PlaylistSource, SourceReport, SourceState } from './types.js';

export interface PlaylistText {
  readonly source: PlaylistSource;
  readonly label: string;
  /** Undefined when the source answered "not modified". */
  readonly text?: string;
  readonly report: SourceReport;
  readonly validators?: SourceValidators;
}

/** The ETag / Last-Modified of a read, if the source gave any. */
export function validatorsOf(metadata: { etag?: string; lastModified?: string }): SourceValidators | undefined {
  if (metadata.etag === undefined && metadata.lastModified === undefined) return undefined;
  return {
    ...(metadata.etag !== undefined ? { etag: metadata.etag } : {}),
    ...(metadata.lastModified !== undefined ? { lastModified: metadata.lastModified } : {}),
  };
}

/**
 * Reads one playlist whole (playlists are small: their cap, limitsFor 'playlist', applies while
 * the bytes arrive, whatever `options.maxBytes` allows), conditionally when `previous` is given.
 * @example const p = await readPlaylist({ location: 'list.m3u' }, { allowPrivateAddresses: true })
 */
export async function readPlaylist(
  source: PlaylistSource,
  options: SourceOptions,
  onProgress?: (progress: ImportProgress) => void,
): Promise<PlaylistText> {
  const started = performance.now();
  const label = redactLocation(source.location);
  const result = await readSourceText(source.location, limitsFor('playlist', options));
  const bytes = result.notModified ? 0 : Buffer.byteLength(result.text);
  const validators = validatorsOf(result.metadata) ?? options.previous;
  // Read whole before it is parsed: its #EXTINF lines are the entries the parser will find.
  const records = result.notModified ? 0 : countEntries(result.text);
  if (!result.notModified) onProgress?.({ phase: 'playlist', source: label, bytes, totalBytes: bytes, records });
  return {
    source,
    label,
    ...(result.notModified ? {} : { text: result.text }),
    report: {
      kind: 'playlist',
      location: label,
      status: result.notModified ? 'unchanged' : 'fetched',
      outcome: result.notModified ? 'unchanged' : 'imported',
      bytes,
      durationMs: Math.round(performance.now() - started),
      records: 0,
      warnings: 0,
    },
    ...(validators !== undefined ? { validators } : {}),
  };
}

/** `#EXTINF` lines of a playlist text, for progress (the parser may still skip some). */
function countEntries(text: string): number {
  let count = 0;
  for (let at = text.indexOf('#EXTINF'); at !== -1; at = text.indexOf('#EXTINF', at + 7)) count++;
  return count;
}

export type ChangeCheck =
  | { readonly changed: false; readonly reports: SourceReport[] }
  /**
   * `opened`: the first changed guide's stream, by its index in `guides`, to be read, not
   * reopened; the guides before it answered "not modified".
   */
  | { readonly changed: true; readonly opened?: { readonly index: number; readonly stream: SourceStream } };

/**
 * Asks each guide "changed since `previous`?" in order, stopping at the first that has. Only
 * called once every playlist answered "not modified".
 * @example const check = await checkGuides(guides, state, options)
 */
export async function checkGuides(
  guides: readonly GuideSource[],
  previous: SourceState,
  options: (location: string) => SourceOptions,
  copyFor?: (index: number) => SourceCopySink,
): Promise<ChangeCheck> {
  const reports: SourceReport[] = [];
  for (const [index, guide] of guides.entries()) {
    const validators = previous.validators[guide.location];
    if (validators === undefined) return { changed: true };
    const started = performance.now();
    const copyTo = copyFor?.(index);
    const opened = await openSource(guide.location, {
      ...options(guide.location),
      previous: validators,
      ...(copyTo ? { copyTo } : {}),
    });
    if (!opened.notModified) return { changed: true, opened: { index, stream: opened } };
    reports.push({
      kind: 'guide',
      location: redactLocation(guide.location),
      status: 'unchanged',
      outcome: 'unchanged',
      bytes: 0,
      durationMs: Math.round(performance.now() - started),
      records: 0,
      warnings: 0,
    });
  }
  return { changed: false, reports };
}
