/**
 * The cache of other add-ons' manifests behind add-on catalogs. A refresh writes its results
 * in one short transaction, recorded as an import of kind `addon-manifests` so that
 * `store.dataVersion()` (the response-cache key) changes with it. A failed fetch only records
 * its error and time: the last manifest that validated stays served.
 */
import { MarqueeError } from '../../errors.js';
import type { Connection } from '../connection.js';
import { isLockError, storeError } from '../errors.js';
import { finishImportRecord, startImportRecord } from '../imports.js';
import { withLockRetry } from '../lock.js';
import type { AddonManifestRow, AddonManifestUpdate } from './types.js';

export const ADDON_MANIFESTS_IMPORT_KIND = 'addon-manifests';
/** Longest error text kept per manifest. */
const MAX_ERROR_CHARS = 1_000;

export interface AddonManifestHost {
  readonly file: string;
  openWriter(busyTimeoutMs: number, cacheKiB: number): Connection;
}

/**
 * Writes the outcome of one refresh: new manifests replace the cached ones, errors are recorded
 * next to the last good copy. Returns how many manifests were replaced, unchanged and failed.
 *
 * @example await saveAddonManifests(host, [{ url, manifest }, { url: other, error: 'timed out' }])
 */
export async function saveAddonManifests(
  host: AddonManifestHost,
  updates: readonly AddonManifestUpdate[],
  options: { lockTimeoutMs?: number; now?: number } = {},
): Promise<{ updated: number; unchanged: number; failed: number }> {
  const lockTimeoutMs = options.lockTimeoutMs ?? 60_000;
  const now = options.now ?? Date.now();
  const tally = { updated: 0, unchanged: 0, failed: 0 };
  const db = host.openWriter(20, 1024);
  let id: number | undefined;
  try {
    id = await withLockRetry(() => startImportRecord(db, ADDON_MANIFESTS_IMPORT_KIND, now), lockTimeoutMs);
    const replace = db.prepare(
      `INSERT INTO addon_manifests (url, manifest, fetched_at, etag, last_modified, checked_at, error)
       VALUES (?, ?, ?, ?, ?, ?, NULL)
       ON CONFLICT (url) DO UPDATE SET manifest = excluded.manifest, fetched_at = excluded.fetched_at,
         etag = excluded.etag, last_modified = excluded.last_modified, checked_at = excluded.checked_at, error = NULL`,
    );
    const checked = db.prepare(
      `INSERT INTO addon_manifests (url, checked_at, error) VALUES (?, ?, ?)
       ON CONFLICT (url) DO UPDATE SET checked_at = excluded.checked_at, error = excluded.error`,
    );
    const write = db.transaction(() => {
      for (const u of updates) {
        if ('manifest' in u) {
          replace.run(u.url, JSON.stringify(u.manifest), now, u.etag ?? null, u.lastModified ?? null, now);
          tally.updated++;
        } else if ('notModified' in u) {
          checked.run(u.url, now, null);
          tally.unchanged++;
        } else {
          checked.run(u.url, now, u.error.slice(0, MAX_ERROR_CHARS));
          tally.failed++;
        }
      }
      finishImportRecord(db, id!, 'ok', tally, Date.now());
    });
    await withLockRetry(() => write.immediate(), lockTimeoutMs);
    return tally;
  } catch (error) {
    const reason = isLockError(error)
      ? `another import is writing ${host.file} (waited ${lockTimeoutMs} ms); the cached manifests stay as they were`
      : storeError(host.file, error, 'saving add-on manifests').message;
    try {
      if (id !== undefined) finishImportRecord(db, id, 'failed', { reason }, Date.now());
    } catch {
      // Best effort: the error below is what matters; the next import marks the row interrupted.
    }
    throw new MarqueeError('IMPORT_FAILED', reason, { cause: error, details: { file: host.file } });
  } finally {
    db.close();
  }
}

/** Reads of the manifest cache on one connection. */
export function addonManifestReads(db: Connection) {
  const one = db
    .prepare<unknown[]>(
      'SELECT url, manifest, fetched_at, etag, last_modified, checked_at, error FROM addon_manifests WHERE url = ?',
    )
    .raw();
  return {
    /** The cached manifest of each of `urls` that has a row, in the order given. */
    addonManifests(urls: readonly string[]): AddonManifestRow[] {
      const out: AddonManifestRow[] = [];
      for (const url of urls) {
        const r = one.get(url) as unknown[] | undefined;
        if (r === undefined) continue;
        out.push({
          url: r[0] as string,
          ...(r[1] === null ? {} : { manifest: JSON.parse(r[1] as string) as Record<string, unknown> }),
          ...(r[2] === null ? {} : { fetchedAt: r[2] as number }),
          ...(r[3] === null ? {} : { etag: r[3] as string }),
          ...(r[4] === null ? {} : { lastModified: r[4] as string }),
          checkedAt: r[5] as number,
          ...(r[6] === null ? {} : { error: r[6] as string }),
        });
      }
      return out;
    },
  };
}
