import type { Manifest } from '../protocol/index.js';
import { validateManifest } from '../protocol/index.js';
import { SPEC_ONLY } from './ask.js';
import { clientHiddenCatalogs, clientManifest } from './client-model.js';
import type { Findings } from './findings.js';
import { cacheFindings, corsFinding, timingFindings } from './http-rules.js';
import type { Requester } from './requester.js';
import type { ResolvedOptions } from './types.js';

/**
 * The manifest step: fetch it as the client does, check the HTTP answer, then how the client
 * reads it (client-model.ts: what it refuses, which catalogs lose their extras or are never
 * shown: errors) and every rule of `validateManifest` beyond that (warnings). Only a manifest
 * that cannot be fetched or read as JSON ends the run (`fatal`); any other finding is reported
 * and the add-on is crawled as the client reads it, so everything is reported at once.
 */

export type ManifestStep =
  | { readonly fatal: string }
  | { readonly fatal?: undefined; readonly manifest?: Manifest; readonly raw: Record<string, unknown> };

const REFUSED = 'the client refuses to install the add-on: it cannot read the manifest';
const EXTRAS_DROPPED = 'the client drops every extra of this catalog: no paging, genre filter or search';
const HIDDEN = 'the client shows this catalog neither on Board nor in Discover';

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
  if (cors) findings.add(cors);
  for (const f of [...cacheFindings(exchange, 'data'), ...timingFindings(exchange, options.slowMs)]) findings.add(f);

  const client = clientManifest(raw);
  const errors = [
    ...client.refused.map((issue) => ({ issue, effect: REFUSED })),
    ...client.extrasDropped.map((issue) => ({ issue, effect: EXTRAS_DROPPED })),
    ...clientHiddenCatalogs(raw).map((issue) => ({ issue, effect: HIDDEN })),
  ];
  const seen = new Set<string>();
  for (const { issue, effect } of errors) {
    seen.add(issue.path);
    findings.add({
      check: 'manifest',
      severity: 'error',
      rule: issue.rule,
      path,
      jsonPath: issue.path,
      message: issue.message,
      effect,
    });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    findings.add({
      check: 'crawl',
      severity: 'info',
      path,
      message: 'the manifest is not an object, so no resource was requested',
      effect: REFUSED,
    });
    return { raw: {} };
  }
  const record = raw as Record<string, unknown>;
  const hasConfigurePage = needsConfigurePage(record) ? await answersConfigure(requester) : false;
  const report = validateManifest(record, { hasConfigurePage });
  for (const issue of [...report.errors, ...report.warnings]) {
    if (seen.has(issue.path) || seen.has(`${issue.path}.isRequired`)) continue;
    findings.add({
      check: 'manifest',
      severity: 'warning',
      rule: 'spec.manifest',
      path,
      jsonPath: issue.path,
      message: issue.message,
      effect: SPEC_ONLY,
    });
  }
  if (client.refused.length > 0) {
    findings.add({
      check: 'crawl',
      severity: 'info',
      path,
      message: 'the client refuses this manifest; its resources were still crawled to report everything at once',
      effect: 'the real client requests nothing from this add-on until the manifest is fixed',
    });
  }
  return { manifest: crawlManifest(record, new Set(client.extrasDropped.map((i) => i.path))), raw: record };
}

/**
 * The manifest as the client reads it, for the crawl: entries it cannot read are left out,
 * catalogs whose extras it drops have none, missing names are empty.
 */
function crawlManifest(m: Record<string, unknown>, extrasDropped: ReadonlySet<string>): Manifest {
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
  const records = (v: unknown): Array<Record<string, unknown>> =>
    Array.isArray(v)
      ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x))
      : [];
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const catalogs = records(m.catalogs)
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => typeof c.type === 'string' && typeof c.id === 'string')
    .map(({ c, i }) => ({
      ...c,
      type: c.type as string,
      id: c.id as string,
      name: text(c.name),
      ...(Array.isArray(c.extra) && !extrasDropped.has(`$.catalogs[${i}].extra`) && !hasDroppedExtra(extrasDropped, i)
        ? { extra: c.extra as Manifest['catalogs'][number]['extra'] }
        : { extra: [] }),
    }));
  const resources = (Array.isArray(m.resources) ? m.resources : []).filter(
    (r): r is Manifest['resources'][number] =>
      typeof r === 'string' ||
      (typeof r === 'object' && r !== null && typeof (r as { name?: unknown }).name === 'string'),
  );
  return {
    ...m,
    id: text(m.id),
    name: text(m.name),
    description: text(m.description),
    version: text(m.version),
    types: strings(m.types),
    resources,
    ...(Array.isArray(m.idPrefixes) ? { idPrefixes: strings(m.idPrefixes) } : { idPrefixes: undefined }),
    catalogs,
    addonCatalogs: records(m.addonCatalogs)
      .filter((c) => typeof c.type === 'string' && typeof c.id === 'string')
      .map((c) => ({ ...c, type: c.type as string, id: c.id as string, name: text(c.name) })),
  } as Manifest;
}

function hasDroppedExtra(dropped: ReadonlySet<string>, catalog: number): boolean {
  const prefix = `$.catalogs[${catalog}].extra[`;
  for (const path of dropped) if (path.startsWith(prefix)) return true;
  return false;
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
