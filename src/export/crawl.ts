import type { Addon } from '../addon/index.js';
import type { Issue } from '../errors.js';
import { formatAddonPath, type ResourcePath } from '../protocol/index.js';
import { exportFilePath } from './file-path.js';
import type { ExportWriter } from './writer.js';

/**
 * What every step of an export shares: the add-on, the writer, the items seen so far, and the
 * one way to turn a request into a file (`fetchAndWrite`). The add-on is asked in process, with
 * the same protocol checks its live server applies.
 */

/** An item seen in a catalog page: its meta, streams and subtitles are exported after the catalogs. */
export interface ItemRef {
  readonly type: string;
  readonly id: string;
}

export interface Crawl {
  readonly addon: Addon;
  readonly config: string | undefined;
  readonly writer: ExportWriter;
  readonly maxPages: number;
  readonly signal: AbortSignal | undefined;
  /** Items by `type` NUL `id`, in first-seen order. */
  readonly items: Map<string, ItemRef>;
  readonly warnings: Issue[];
  readonly truncated: string[];
}

/** Remember an item for the item phase; returns its key. */
export function seeItem(crawl: Crawl, item: ItemRef): string {
  const key = `${item.type}\u0000${item.id}`;
  if (!crawl.items.has(key)) crawl.items.set(key, { type: item.type, id: item.id });
  return key;
}

/**
 * Ask the add-on for `request` and write its answer to the file a static server looks up for
 * it, plus the same answer under each of `aliases` (the same extras in another order). Returns
 * the body when the file was written; undefined (with a warning) when it was not.
 *
 * @example const body = await fetchAndWrite(crawl, { resource: 'meta', type: 'movie', id: 'tt1', extra: [] });
 */
export async function fetchAndWrite(
  crawl: Crawl,
  request: ResourcePath,
  aliases: readonly ResourcePath[] = [],
): Promise<Record<string, unknown> | undefined> {
  crawl.signal?.throwIfAborted();
  if (crawl.writer.full) return undefined;
  const path = formatAddonPath(request);
  const target = exportFilePath(request);
  if ('refused' in target) {
    crawl.warnings.push({ path, message: `not exported: ${target.refused}` });
    return undefined;
  }
  let response: Awaited<ReturnType<Addon['handle']>>;
  try {
    response = await crawl.addon.handle({
      ...request,
      ...(crawl.config === undefined ? {} : { config: crawl.config }),
      ...(crawl.signal === undefined ? {} : { signal: crawl.signal }),
    });
  } catch (error) {
    crawl.signal?.throwIfAborted();
    const message = error instanceof Error ? error.message : String(error);
    crawl.warnings.push({ path, message: `not exported: the add-on failed: ${message}` });
    return undefined;
  }
  if (response.status !== 200) {
    crawl.warnings.push({ path, message: `not exported: the add-on answers 404 (${response.reason})` });
    return undefined;
  }
  const content = JSON.stringify(response.body);
  if ((await crawl.writer.write(target.file, content, path)) !== 'written') return undefined;
  for (const alias of aliases) {
    const aliasPath = formatAddonPath(alias);
    const aliasTarget = exportFilePath(alias);
    if (aliasPath === path || 'refused' in aliasTarget) continue;
    await crawl.writer.write(aliasTarget.file, content, aliasPath);
  }
  return response.body;
}
