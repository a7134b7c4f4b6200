import { readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Addon } from '../addon/index.js';
import { MarqueeError } from '../errors.js';
import { isGuideCatalog, type Manifest } from '../protocol/index.js';
import { checkPageUrls } from '../server/page.js';
import { catalogLists, describeList, pageList } from './catalog-pages.js';
import type { Crawl } from './crawl.js';
import { exportGuideDays, GUIDE_WINDOW_LIMITS } from './guide.js';
import { HTTPS_GUIDE_FILE, httpsGuidePage } from './https-page.js';
import { exportAddonCatalogs, exportItems } from './items.js';
import { landingHtml } from './landing.js';
import {
  checkOutDir,
  createStagingDir,
  FILE_MODE,
  MARKER_FILE,
  MARKER_GENERATOR,
  MARKER_VERSION,
  swapIn,
} from './replace-dir.js';
import { staticManifest } from './static-manifest.js';
import type { CatalogExport, ExportOptions, ExportReport } from './types.js';
import { createExportWriter } from './writer.js';

const DEFAULTS = { maxPages: 1_000, maxFiles: 200_000, maxBytes: 2 * 1024 ** 3, guideDays: { from: -1, to: 7 } };

/**
 * `_headers`, for static hosts that read it (Netlify, Cloudflare Pages): CORS on every file (the
 * web client needs it), and on the landing page and the HTTPS guide the served pages' policy and
 * frame rules. The guide under `/https` too: Cloudflare Pages serves `https.html` there.
 */
function headersFile(policy: string, guidePolicy: string | undefined): string {
  const page = (csp: string) =>
    [`  Content-Security-Policy: ${csp}`, '  X-Frame-Options: DENY', '  Referrer-Policy: same-origin'].join('\n');
  const guide =
    guidePolicy === undefined ? '' : `/${HTTPS_GUIDE_FILE}\n${page(guidePolicy)}\n/https\n${page(guidePolicy)}\n`;
  return `/*\n  Access-Control-Allow-Origin: *\n  X-Content-Type-Options: nosniff\n/\n${page(policy)}\n/index.html\n${page(policy)}\n${guide}`;
}

/**
 * Write `addon` as static files into `outDir`: manifest, every catalog page the client asks
 * (feed, options, skip steps, guide days), and the meta, streams and subtitles of every item.
 * Built in a staging folder and swapped in whole; refuses a non-empty folder that is not a
 * previous export unless `force`.
 *
 * @example const report = await exportAddon(createExampleAddon(), './public', { guideDays: { from: -1, to: 3 } });
 */
export async function exportAddon(addon: Addon, outDir: string, options: ExportOptions = {}): Promise<ExportReport> {
  const settings = resolveOptions(options);
  const target = resolve(outDir);
  const previous = await checkOutDir(target, options.force === true);
  const manifestAnswer = addon.manifestFor(options.config);
  if (manifestAnswer.status !== 200) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `the add-on has no manifest for this configuration: ${manifestAnswer.reason}`,
    );
  }
  const { manifest, notes } = staticManifest(manifestAnswer.body as unknown as Manifest);
  // Its logo reaches the landing page: an http(s) URL or nothing (INVALID_MANIFEST naming the field).
  checkPageUrls(manifest);
  const now = settings.now();
  const exportedAt = new Date(now).toISOString();

  const staging = await createStagingDir(target);
  try {
    const crawl: Crawl = {
      addon,
      config: options.config,
      maxPages: settings.maxPages,
      signal: options.signal,
      items: new Map(),
      warnings: [],
      truncated: [],
      writer: createExportWriter(staging, settings, {
        warn: (path, message) => crawl.warnings.push({ path, message }),
        stop: (reason) => crawl.truncated.push(`the export stopped early: ${reason}; later files are missing`),
      }),
    };
    const own = (name: string, content: string) => crawl.writer.write(name, content, name);
    if ((await own('manifest.json', JSON.stringify(manifest))) !== 'written') {
      throw new MarqueeError('INVALID_SETTINGS', 'the export limits leave no room for manifest.json');
    }
    // The guide first: the landing page links it only once it is there.
    const guide = options.httpsGuide === undefined ? undefined : httpsGuidePage(manifest, options.httpsGuide);
    const guideWritten = guide !== undefined && (await own(HTTPS_GUIDE_FILE, guide.html)) === 'written';
    const landing = landingHtml(manifest, options.publicUrl, guideWritten ? HTTPS_GUIDE_FILE : undefined);
    await own('index.html', landing.html);
    // GitHub Pages runs Jekyll unless told not to, and Jekyll drops `_` and `.` files.
    await own('.nojekyll', '');
    await own('_headers', headersFile(landing.policy, guideWritten ? guide.policy : undefined));

    const catalogs: CatalogExport[] = [];
    const guideDays = new Set<string>();
    for (const catalog of manifest.catalogs) {
      const report = { type: catalog.type, id: catalog.id, lists: 0, pages: 0, items: new Set<string>() };
      const lists = catalogLists(catalog);
      if ('unreachable' in lists) {
        crawl.warnings.push({ path: describeList(catalog, []), message: `no pages exported: ${lists.unreachable}` });
      } else {
        for (const base of lists) {
          const result = await pageList(crawl, catalog, base);
          report.lists += 1;
          report.pages += result.pages;
          for (const key of result.items) report.items.add(key);
        }
      }
      if (isGuideCatalog(catalog)) {
        const guide = await exportGuideDays(crawl, catalog, now, settings.guideDays);
        report.lists += guide.lists;
        report.pages += guide.pages;
        for (const key of guide.items) report.items.add(key);
        for (const day of guide.days) guideDays.add(day);
      }
      catalogs.push({
        type: report.type,
        id: report.id,
        lists: report.lists,
        pages: report.pages,
        items: report.items.size,
      });
    }
    const counts = await exportItems(crawl, addon.manifest);
    const addonCatalogs = await exportAddonCatalogs(crawl, addon.manifest);

    const summary = {
      outDir: target,
      exportedAt,
      catalogs,
      pages: catalogs.reduce((sum, c) => sum + c.pages, 0),
      items: crawl.items.size,
      ...counts,
      addonCatalogs,
      guideDays: [...guideDays].sort(),
      manifestChanges: notes,
      truncated: crawl.truncated,
      warnings: crawl.warnings,
    };
    // The marker is written last and outside the bounds: without it the folder is not ours to replace.
    const entries = (await readdir(staging)).sort();
    const marker = JSON.stringify(
      {
        generator: MARKER_GENERATOR,
        markerVersion: MARKER_VERSION,
        // Every file this export wrote: the next one deletes these and nothing else.
        written: crawl.writer.written().sort(),
        // The root entries, as markers of version 2 listed them (for an older Marquee reading it).
        entries,
        exportedAt,
        addon: { id: manifest.id, version: manifest.version, name: manifest.name },
        files: crawl.writer.files + 1,
        catalogs,
        guideDays: summary.guideDays,
        manifestChanges: notes,
        truncated: crawl.truncated,
        warnings: crawl.warnings.length,
      },
      null,
      2,
    );
    await writeFile(join(staging, MARKER_FILE), marker, { flag: 'wx', mode: FILE_MODE });
    options.signal?.throwIfAborted();
    const left = await swapIn(staging, target, previous);
    if (left) {
      summary.warnings.push({
        path: left.folder,
        message:
          `${left.files.length} file(s) appeared in ${target} while it was exported and were not deleted: ` +
          `they are in ${left.folder} (${left.files.slice(0, 10).join(', ')})`,
      });
    }
    return { ...summary, files: crawl.writer.files + 1, bytes: crawl.writer.bytes + Buffer.byteLength(marker) };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

function resolveOptions(options: ExportOptions) {
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new MarqueeError('INVALID_SETTINGS', `export option ${name} must be a positive integer, got ${value}`);
    }
    return value;
  };
  const days = options.guideDays ?? DEFAULTS.guideDays;
  const { from, to } = GUIDE_WINDOW_LIMITS;
  if (
    !Number.isInteger(days.from) ||
    !Number.isInteger(days.to) ||
    days.from < from ||
    days.from > 0 ||
    days.to < 0 ||
    days.to > to
  ) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `export option guideDays must be whole days with ${from} <= from <= 0 <= to <= ${to}, got from=${days.from} to=${days.to}`,
    );
  }
  if (options.publicUrl !== undefined && !/^https?:\/\/[^/]/.test(options.publicUrl)) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `export option publicUrl must be an http(s) URL, got ${options.publicUrl}`,
    );
  }
  return {
    maxPages: positive('maxPages', options.maxPages, DEFAULTS.maxPages),
    maxFiles: positive('maxFiles', options.maxFiles, DEFAULTS.maxFiles),
    maxBytes: positive('maxBytes', options.maxBytes, DEFAULTS.maxBytes),
    guideDays: days,
    now: options.now ?? Date.now,
  };
}
