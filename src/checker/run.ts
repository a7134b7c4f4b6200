import { MarqueeError } from '../errors.js';
import type { Catalog } from '../protocol/index.js';
import { readAddress } from './address.js';
import type { Context } from './ask.js';
import { checkFeed, type ItemRef } from './catalogs.js';
import { checkConfigurePage, requiresConfiguration } from './configure.js';
import { checkGenres, checkSearch } from './filters.js';
import { createFindings, type Findings } from './findings.js';
import { checkGuide } from './guide.js';
import { checkItems, pickSample } from './items.js';
import { checkManifest } from './manifest.js';
import { checkAddonCatalogs, checkNotFound } from './probes.js';
import { checkProbeIds } from './probes-ids.js';
import { createRequester } from './requester.js';
import {
  CHECKS,
  type CheckId,
  type CheckOptions,
  type CheckReport,
  DEFAULT_OPTIONS,
  type RequestStats,
  type ResolvedOptions,
} from './types.js';

/**
 * `runCheck`: crawl an add-on the way the client does and collect findings. The order follows a
 * user: the manifest, every catalog (feed, paging, genres, search, guide days) in parallel, a 404
 * probe, then a sample of the items those catalogs showed.
 */

const EMPTY_STATS: RequestStats = {
  count: 0,
  failed: 0,
  timeMs: { p50: 0, max: 0 },
  bytes: { p50: 0, max: 0, total: 0 },
};

/**
 * Check the add-on behind a manifest URL. Never throws for anything the add-on does; throws
 * INVALID_SETTINGS for options out of range.
 *
 * @example const report = await runCheck('http://127.0.0.1:7000/manifest.json', { maxRequests: 100 }); process.exitCode = reportExitCode(report);
 */
export async function runCheck(manifestUrl: string, options: CheckOptions = {}): Promise<CheckReport> {
  const resolved = resolveOptions(options);
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const findings = createFindings();
  const finish = (
    extra: { fatal?: string; addon?: CheckReport['addon']; url: string; complete: boolean },
    stats: RequestStats,
  ) =>
    buildReport(findings, resolved.only, {
      ...extra,
      startedAt,
      durationMs: Math.round(performance.now() - started),
      stats,
    });

  const read = readAddress(manifestUrl);
  if ('error' in read) return finish({ url: manifestUrl, fatal: read.error, complete: false }, EMPTY_STATS);
  const { address } = read;
  const requester = createRequester({ address, ...resolved });
  try {
    const step = await checkManifest(requester, findings, resolved);
    if (step.fatal !== undefined) {
      return finish({ url: address.manifestUrl, fatal: step.fatal, complete: false }, requester.stats());
    }
    const addon = identity(step.raw);
    findings.ran('crawl');
    if (requiresConfiguration(step.raw)) {
      // The client goes no further than the manifest and its configure page from this address.
      await checkConfigurePage(requester, findings);
      return finish(
        { url: address.manifestUrl, complete: requester.stopped() === undefined, ...(addon ? { addon } : {}) },
        requester.stats(),
      );
    }
    // Nothing to crawl when the manifest is not an object: the planned requests did not run.
    let cut = step.manifest === undefined;
    if (step.manifest) {
      const ctx: Context = {
        manifest: step.manifest,
        requester,
        findings,
        options: resolved,
        cut(path, message) {
          cut = true;
          findings.add({
            check: 'crawl',
            severity: 'info',
            rule: 'crawl.bound',
            path,
            message,
            effect: 'parts of the add-on were not checked',
          });
        },
      };
      await crawl(ctx);
    }
    const stopped = requester.stopped();
    if (stopped !== undefined) {
      findings.add({
        check: 'crawl',
        severity: 'info',
        rule: 'crawl.stopped',
        path: '/manifest.json',
        message: `the crawl stopped early: ${stopped}`,
        effect: 'parts of the add-on were not checked',
      });
    }
    return finish(
      { url: address.manifestUrl, complete: !cut && stopped === undefined, ...(addon ? { addon } : {}) },
      requester.stats(),
    );
  } finally {
    requester.close();
  }
}

async function crawl(ctx: Context): Promise<void> {
  const catalogs = uniqueCatalogs(ctx.manifest.catalogs);
  const [pools] = await Promise.all([
    Promise.all(catalogs.map((catalog) => checkCatalog(ctx, catalog))),
    checkNotFound(ctx),
    checkAddonCatalogs(ctx),
    checkProbeIds(ctx, ctx.options.ids),
  ]);
  if (ctx.requester.stopped() === undefined) await checkItems(ctx, pickSample(pools, ctx.options.sampleSize));
}

async function checkCatalog(ctx: Context, catalog: Catalog): Promise<ItemRef[]> {
  const items = await checkFeed(ctx, catalog);
  const [, , channels] = await Promise.all([
    checkGenres(ctx, catalog),
    checkSearch(ctx, catalog, items),
    checkGuide(ctx, catalog),
  ]);
  return [...items, ...channels];
}

/** The client merges catalogs with the same type and id; the manifest check reports the duplicate. */
function uniqueCatalogs(catalogs: readonly Catalog[]): Catalog[] {
  const seen = new Set<string>();
  return catalogs.filter((c) => {
    const key = `${c.type}\u0000${c.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function identity(raw: Record<string, unknown>): CheckReport['addon'] | undefined {
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : '');
  if (raw.id === undefined && raw.name === undefined) return undefined;
  return { id: text(raw.id), name: text(raw.name), version: text(raw.version) };
}

function buildReport(
  findings: Findings,
  only: readonly CheckId[],
  run: {
    url: string;
    fatal?: string;
    addon?: CheckReport['addon'];
    complete: boolean;
    startedAt: string;
    durationMs: number;
    stats: RequestStats;
  },
): CheckReport {
  const checks = findings.summaries().filter((c) => only.length === 0 || only.includes(c.id));
  const totals = checks.reduce(
    (t, c) => ({ errors: t.errors + c.errors, warnings: t.warnings + c.warnings, infos: t.infos + c.infos }),
    { errors: 0, warnings: 0, infos: 0 },
  );
  return {
    url: run.url,
    ok: run.fatal === undefined && totals.errors === 0,
    ...(run.fatal === undefined ? {} : { fatal: run.fatal }),
    ...(run.addon ? { addon: run.addon } : {}),
    complete: run.complete,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    totals,
    checks,
    requests: run.stats,
  };
}

/**
 * The CLI's exit code for a report: 0 clean or warnings only, 1 errors, 2 the check could not run.
 *
 * @example process.exitCode = reportExitCode(await runCheck(url));
 */
export function reportExitCode(report: CheckReport): 0 | 1 | 2 {
  if (report.fatal !== undefined) return 2;
  return report.ok ? 0 : 1;
}

const POSITIVE_INTEGERS = [
  'maxRequests',
  'concurrency',
  'timeoutMs',
  'maxDurationMs',
  'maxPages',
  'maxGenres',
  'maxBodyBytes',
  'slowMs',
] as const;

function resolveOptions(options: CheckOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    ...DEFAULT_OPTIONS,
    now: Date.now,
    fetch: (url, init) => fetch(url, init),
    ...definedOnly(options),
  };
  for (const id of resolved.only) {
    if (!CHECKS.some((c) => c.id === id)) {
      throw new MarqueeError(
        'INVALID_SETTINGS',
        `check option only: ${JSON.stringify(String(id).slice(0, 40))} is not a check (${CHECKS.map((c) => c.id).join(', ')})`,
      );
    }
  }
  for (const name of POSITIVE_INTEGERS) {
    const value = resolved[name];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new MarqueeError(
        'INVALID_SETTINGS',
        `check option ${name} must be a whole number of 1 or more, got ${value}`,
      );
    }
  }
  if (!Number.isSafeInteger(resolved.sampleSize) || resolved.sampleSize < 0) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `check option sampleSize must be a whole number of 0 or more, got ${resolved.sampleSize}`,
    );
  }
  if (!(resolved.rateLimit > 0) || !Number.isFinite(resolved.rateLimit)) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `check option rateLimit must be a positive number of requests per second, got ${resolved.rateLimit}`,
    );
  }
  return resolved;
}

/** Options given as undefined keep their default (a CLI passes every flag, set or not). */
function definedOnly(options: CheckOptions): Partial<CheckOptions> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<CheckOptions>;
}
