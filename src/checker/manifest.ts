import * as v from 'valibot';
import { type Manifest, ManifestSchema, validateManifest } from '../protocol/index.js';
import { calibrate, MANIFEST_LENIENCY, valueAt } from './calibration.js';
import type { Findings } from './findings.js';
import { cacheFindings, corsFinding, timingFindings } from './http-rules.js';
import type { Requester } from './requester.js';
import type { ResolvedOptions } from './types.js';

/**
 * The manifest step: fetch it as the client does, check the HTTP answer, then every rule of
 * `validateManifest`. A manifest that cannot be fetched or read as JSON ends the run (`fatal`);
 * one with rule errors is still crawled when its shape parses, so everything is reported at once.
 */

export type ManifestStep =
  | { readonly fatal: string }
  | { readonly fatal?: undefined; readonly manifest?: Manifest; readonly raw: Record<string, unknown> };

const REFUSED = 'the client cannot read the manifest and refuses to install the add-on';
const ACCEPTED = 'the client accepts it as it is';

/**
 * Fetch and validate the manifest.
 *
 * @example const step = await checkManifest(requester, findings, options); if (step.fatal) return …;
 */
export async function checkManifest(
  requester: Requester,
  findings: Findings,
  options: ResolvedOptions,
): Promise<ManifestStep> {
  const path = '/manifest.json';
  const exchange = await requester.get(path);
  if (exchange.outcome === 'skipped') return { fatal: `the manifest was not fetched: ${exchange.reason}` };
  if (exchange.outcome !== 'response') return { fatal: `the manifest cannot be fetched: ${exchange.reason}` };
  if (exchange.status !== 200) return { fatal: `the manifest answers HTTP ${exchange.status} instead of 200` };
  let raw: unknown;
  try {
    raw = JSON.parse(exchange.text ?? '');
  } catch {
    return { fatal: `the manifest is not JSON (it starts with ${JSON.stringify((exchange.text ?? '').slice(0, 40))})` };
  }

  findings.ran('manifest');
  for (const check of ['cors', 'cache', 'http'] as const) findings.ran(check);
  const cors = corsFinding(exchange);
  if (cors) findings.add({ ...cors, effect: 'Stremio Web (a browser page) cannot install the add-on' });
  for (const f of [...cacheFindings(exchange, 'data'), ...timingFindings(exchange, options.slowMs)]) findings.add(f);

  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    findings.add({
      check: 'manifest',
      severity: 'error',
      path,
      jsonPath: '$',
      message: 'the manifest must be a JSON object',
      effect: REFUSED,
    });
    return { raw: {} };
  }
  const record = raw as Record<string, unknown>;
  const hasConfigurePage = needsConfigurePage(record) ? await answersConfigure(requester) : false;
  const report = validateManifest(record, { hasConfigurePage });
  let lenientOnly = true;
  for (const issue of report.errors) {
    const calibrated = calibrate(MANIFEST_LENIENCY, issue.path, issue.message, () =>
      valueAt(record, issue.path ?? '$'),
    );
    if (calibrated === undefined) lenientOnly = false;
    findings.add({
      check: 'manifest',
      severity: calibrated?.severity ?? 'error',
      path,
      jsonPath: issue.path,
      message: issue.message,
      effect: calibrated?.effect ?? issue.effect ?? REFUSED,
    });
  }
  for (const issue of report.warnings) {
    findings.add({
      check: 'manifest',
      severity: 'warning',
      path,
      jsonPath: issue.path,
      message: issue.message,
      effect: issue.effect ?? ACCEPTED,
    });
  }
  if (report.manifest) return { manifest: report.manifest, raw: record };
  // What the client accepts (no description, unnamed catalogs): read as the client reads it.
  if (lenientOnly) {
    const read = v.safeParse(ManifestSchema, asClientReads(record));
    if (read.success) return { manifest: read.output, raw: record };
  }

  // Rule errors (bad semver, …) but a readable shape: crawl anyway so the author sees every problem in one run.
  const shape = v.safeParse(ManifestSchema, record);
  if (shape.success) {
    findings.add({
      check: 'crawl',
      severity: 'info',
      path,
      message: 'the manifest has errors; the resources were still crawled to report everything at once',
      effect: 'the real client may refuse this manifest, and then requests nothing',
    });
    return { manifest: shape.output, raw: record };
  }
  findings.add({
    check: 'crawl',
    severity: 'info',
    path,
    message: 'the manifest cannot be read as a manifest, so no resource was requested',
    effect: REFUSED,
  });
  return { raw: record };
}

/** The manifest with the defaults the client assumes where it is lenient (see calibration.ts). */
function asClientReads(m: Record<string, unknown>): Record<string, unknown> {
  const catalogs = Array.isArray(m.catalogs)
    ? m.catalogs.map((c) =>
        typeof c === 'object' && c !== null && !('name' in c)
          ? { ...c, name: String((c as { id?: unknown }).id ?? '') }
          : c,
      )
    : m.catalogs;
  return { ...m, description: typeof m.description === 'string' ? m.description : '', catalogs };
}

/** `configurable` or `configurationRequired` without config fields is fine only with an own /configure page. */
function needsConfigurePage(m: Record<string, unknown>): boolean {
  const hints = m.behaviorHints;
  if (typeof hints !== 'object' || hints === null) return false;
  const { configurable, configurationRequired } = hints as Record<string, unknown>;
  const fields = Array.isArray(m.config) ? m.config.length : 0;
  return (configurable === true || configurationRequired === true) && fields === 0;
}

async function answersConfigure(requester: Requester): Promise<boolean> {
  const exchange = await requester.get('/configure');
  return exchange.outcome === 'response' && exchange.status === 200;
}
