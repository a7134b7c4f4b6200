import type { Issue } from '../errors.js';

/** How `exportAddon` crawls and where the bounds are. Every field is optional. */
export interface ExportOptions {
  /**
   * Replace a previous export that holds files it did not write, deleting them; a database, key
   * ring or source copy in it still stops the export. A folder that is not an export is never
   * replaced. Default false.
   */
  readonly force?: boolean;
  /** A config segment (as in `/{config}/manifest.json`) every request is answered for; default none. */
  readonly config?: string;
  /** Guide days to export, in days relative to today (UTC): default `{ from: -1, to: 7 }`. */
  readonly guideDays?: { readonly from: number; readonly to: number };
  /** Most pages of one list (a feed, one genre, one guide day); default 1000 (100 000 items). */
  readonly maxPages?: number;
  /** Most files in the export; default 200 000. */
  readonly maxFiles?: number;
  /** Most bytes in the export; default 2 GiB. */
  readonly maxBytes?: number;
  /** Where the export will be served (`https://host/path`), for the landing page's install link. */
  readonly publicUrl?: string;
  /**
   * Marquee's HTTPS guide (docs/https.md) as Markdown: written as `https.html`, which the landing
   * page links where it is served over plain HTTP. Without it the landing page names the guide.
   * `marquee export` gives it.
   */
  readonly httpsGuide?: string;
  /** The clock (epoch ms); decides which guide days are today. Default `Date.now`. */
  readonly now?: () => number;
  /** Stops the export; the staging folder is removed and `outDir` is left as it was. */
  readonly signal?: AbortSignal;
}

/** What one catalog of the manifest gave. */
export interface CatalogExport {
  readonly type: string;
  readonly id: string;
  /** Lists paged: the feed, one per extra option (genre), one per guide day. */
  readonly lists: number;
  /** Catalog pages written (the closing empty pages included, extra-order copies not). */
  readonly pages: number;
  /** Distinct items seen in this catalog's pages. */
  readonly items: number;
}

/** The outcome of an export: what was written, what was cut short, what looked wrong. */
export interface ExportReport {
  /** Absolute path of the export folder. */
  readonly outDir: string;
  /** When the export ran (ISO 8601). */
  readonly exportedAt: string;
  readonly files: number;
  readonly bytes: number;
  readonly catalogs: readonly CatalogExport[];
  /** Catalog pages written in all (extra-order copies not counted). */
  readonly pages: number;
  /** Distinct items (type and id) seen in catalog pages. */
  readonly items: number;
  readonly metas: number;
  readonly streams: number;
  readonly subtitles: number;
  readonly addonCatalogs: number;
  /** Guide days that had channels, in order. */
  readonly guideDays: readonly string[];
  /** How the exported manifest differs from the live one (search dropped, config dropped). */
  readonly manifestChanges: readonly string[];
  /** Parts cut short by a bound; the client gets 404 past them. Empty when the export is complete. */
  readonly truncated: readonly string[];
  /** Requests not exported or answered badly, by request path. */
  readonly warnings: readonly Issue[];
}
