import { MarqueeError } from '../errors.js';
import { CHECKS, type CheckId, type CheckReport, type Finding } from './types.js';

/**
 * `--only`: the report of a run narrowed to some checks (the crawl itself is the same: a check
 * needs the requests that lead to its own). Totals and `ok` are of the checks kept.
 * @example selectChecks(report, ['stream', 'meta'])
 */
export function selectChecks(report: CheckReport, only: readonly string[]): CheckReport {
  assertCheckIds(only);
  const kept = new Set(only as CheckId[]);
  const checks = report.checks.filter((c) => kept.has(c.id));
  const totals = {
    errors: checks.reduce((n, c) => n + c.errors, 0),
    warnings: checks.reduce((n, c) => n + c.warnings, 0),
    infos: checks.reduce((n, c) => n + c.infos, 0),
  };
  return { ...report, checks, totals, ok: report.fatal === undefined && totals.errors === 0 };
}

/** Throws INVALID_SETTINGS naming the ids in `only` that are no check's, and every check's id. */
export function assertCheckIds(only: readonly string[]): void {
  const known = new Set<string>(CHECKS.map((c) => c.id));
  const unknown = only.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `--only: unknown check ${unknown.map((u) => `"${u}"`).join(', ')}; the checks are ${[...known].join(', ')}`,
    );
  }
}

/** GitHub Actions' escaping of a workflow command's message and of its properties. */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/**
 * The report as GitHub Actions annotations (`--format github`): one `::error`, `::warning` or
 * `::notice` line per finding, then a summary line, so a CI job shows them on its run.
 * @example process.stdout.write(formatGithub(report))
 */
export function formatGithub(report: CheckReport): string {
  const lines: string[] = [];
  if (report.fatal !== undefined) {
    lines.push(
      `::error title=${escapeProperty('marquee check')}::${escapeData(`cannot check ${report.url}: ${report.fatal}`)}`,
    );
    return `${lines.join('\n')}\n`;
  }
  for (const check of report.checks) {
    for (const f of check.findings) lines.push(annotation(check.title, f));
  }
  const { errors, warnings, infos } = report.totals;
  lines.push(
    `marquee check ${report.url}: ${errors} errors, ${warnings} warnings, ${infos} notes${report.complete ? '' : ' (crawl cut short)'}`,
  );
  return `${lines.join('\n')}\n`;
}

function annotation(title: string, f: Finding): string {
  const where = f.jsonPath === undefined ? f.path : `${f.path} ${f.jsonPath}`;
  const times =
    f.count !== undefined && f.count > 1 ? ` (${f.count} times, e.g. ${(f.examples ?? []).join(', ')})` : '';
  return `::${COMMAND[f.severity]} title=${escapeProperty(`marquee check: ${title}`)}::${escapeData(`${where}: ${f.message}${times} → ${f.effect}`)}`;
}
