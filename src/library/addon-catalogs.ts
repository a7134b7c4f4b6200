/**
 * Add-on catalogs: lists of other add-ons by manifest URL. Their manifests are fetched at
 * import/refresh time (never while answering a client), validated with our manifest validator
 * and cached in the store; a manifest that cannot be fetched or does not validate keeps its
 * last good copy, and a warning says why.
 */
import type { AddonEntry } from '../protocol/addon-entry.js';
import { validateManifest } from '../protocol/validate-manifest.js';
import type { SourceOptions } from '../sources/input/index.js';
import { readSourceText } from '../sources/input/index.js';
import type { SourceWarning } from '../sources/records.js';
import type { AddonManifestUpdate, Store } from '../store/index.js';
import { type AddonCatalogConfig, checkAddonCatalogs } from './options.js';

export interface RefreshAddonCatalogsOptions {
  /** Source options for every fetch (timeouts, address policy). Operator URLs may reach private addresses by default. */
  readonly fetch?: SourceOptions;
  /** Deadline per manifest, everything included. Default 10 s. */
  readonly timeoutMs?: number;
  /** Largest manifest read, in bytes. Default 256 KiB (valid manifests are far smaller). */
  readonly maxBytes?: number;
  /** Fetches at once. Default 4. */
  readonly concurrency?: number;
  /** How long to wait for another import to release the store. Default 60 s. */
  readonly lockTimeoutMs?: number;
}

export interface AddonCatalogsRefreshReport {
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
  /** One per manifest that failed: `source` is its URL, `field` the first manifest error's path when it did not validate. */
  readonly warnings: SourceWarning[];
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 256 * 1024;

async function fetchOne(
  url: string,
  previous: { etag?: string; lastModified?: string } | undefined,
  options: RefreshAddonCatalogsOptions,
): Promise<{ update: AddonManifestUpdate; warning?: SourceWarning }> {
  const fail = (message: string, field?: string) => ({
    update: { url, error: message },
    warning: { source: url, ...(field ? { field } : {}), message: `${message}; the last good copy is kept` },
  });
  let text: string;
  let meta: { etag?: string; lastModified?: string };
  try {
    const result = await readSourceText(url, {
      allowPrivateAddresses: true,
      allowFiles: false,
      retries: 1,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      ...options.fetch,
      ...(previous ? { previous } : {}),
    });
    if (result.notModified) return { update: { url, notModified: true } };
    text = result.text;
    meta = result.metadata;
  } catch (error) {
    return fail(`cannot fetch the manifest: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(`the manifest is not JSON: ${(error as Error).message}`);
  }
  const report = validateManifest(json);
  if (!report.manifest) {
    const first = report.errors[0];
    const more = report.errors.length > 1 ? ` (and ${report.errors.length - 1} more)` : '';
    return fail(`the manifest is not valid: ${first?.path}: ${first?.message}${more}`, first?.path);
  }
  return {
    update: {
      url,
      manifest: report.manifest as Record<string, unknown>,
      ...(meta.etag ? { etag: meta.etag } : {}),
      ...(meta.lastModified ? { lastModified: meta.lastModified } : {}),
    },
  };
}

/**
 * Fetches the manifest of every add-on listed in `addonCatalogs` and caches the good ones in
 * `store`. Never throws for one add-on's failure: it becomes a warning and the last good copy stays.
 *
 * @example const { warnings } = await refreshAddonCatalogs(store, { addonCatalogs }, { timeoutMs: 5000 })
 */
export async function refreshAddonCatalogs(
  store: Store,
  config: { readonly addonCatalogs?: readonly AddonCatalogConfig[] },
  options: RefreshAddonCatalogsOptions = {},
): Promise<AddonCatalogsRefreshReport> {
  const urls = [...new Set(checkAddonCatalogs(config.addonCatalogs ?? []).flatMap((c) => c.addons))];
  if (urls.length === 0) return { updated: 0, unchanged: 0, failed: 0, warnings: [] };
  const cached = new Map(store.addonManifests(urls).map((row) => [row.url, row]));
  const results: Array<{ update: AddonManifestUpdate; warning?: SourceWarning }> = new Array(urls.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < urls.length; i = next++) {
      const row = cached.get(urls[i]!);
      // Conditional requests only when a good copy exists: a 304 must never stand for "no manifest".
      const previous =
        row?.manifest && (row.etag || row.lastModified)
          ? { ...(row.etag ? { etag: row.etag } : {}), ...(row.lastModified ? { lastModified: row.lastModified } : {}) }
          : undefined;
      results[i] = await fetchOne(urls[i]!, previous, options);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, urls.length));
  await Promise.all(Array.from({ length: workers }, worker));
  const tally = await store.saveAddonManifests(
    results.map((r) => r.update),
    options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs },
  );
  return { ...tally, warnings: results.flatMap((r) => (r.warning ? [r.warning] : [])) };
}

/**
 * The entries of one add-on catalog from the cache, in configured order; add-ons never fetched
 * successfully are left out.
 *
 * @example addonEntries(store, ['https://a.example/manifest.json'])
 */
export function addonEntries(store: Store, urls: readonly string[]): AddonEntry[] {
  return store
    .addonManifests(urls)
    .flatMap((row) =>
      row.manifest
        ? [{ transportName: 'http' as const, transportUrl: row.url, manifest: row.manifest as AddonEntry['manifest'] }]
        : [],
    );
}
