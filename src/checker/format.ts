import type { CheckReport, CheckSummary, Finding, FindingPlace } from './types.js';

/**
 * The terminal form of a report: a header, one table row per check (pass/warn/fail/skip with
 * counts), then the first findings of every check that has any, each with the client behaviour
 * it breaks (grouped: one finding per rule and message, with its count and three example
 * places). `formatGithub` writes the same findings as GitHub Actions annotations. The CLI
 * prints one of them, or the report itself as JSON.
 */

export interface FormatOptions {
  /** ANSI colours (the CLI passes true for a TTY without NO_COLOR). */
  readonly color: boolean;
  /** Findings shown per check (default 3); the rest are counted. */
  readonly examples?: number;
}

type Paint = (code: string, text: string) => string;

const STATUS_COLOUR = { pass: '32', warn: '33', fail: '31', skip: '2' } as const;
const SEVERITY_MARK = { error: '✗', warning: '!', info: 'i' } as const;
const SEVERITY_COLOUR = { error: '31', warning: '33', info: '36' } as const;

/**
 * Render a report for a terminal.
 *
 * @example process.stdout.write(formatReport(report, { color: process.stdout.isTTY }));
 */
export function formatReport(report: CheckReport, options: FormatOptions): string {
  const paint: Paint = options.color ? (code, text) => `\u001b[${code}m${text}\u001b[0m` : (_, text) => text;
  const examples = options.examples ?? 3;
  const lines: string[] = [`marquee check ${clean(report.url)}`];
  if (report.fatal !== undefined) {
    lines.push('', paint('31', `✗ cannot check: ${clean(report.fatal)}`), '');
    return lines.join('\n');
  }
  if (report.addon) {
    const { name, version, id } = report.addon;
    lines.push(`${clean(name)} ${clean(version)} (${clean(id)})`);
  }
  const r = report.requests;
  lines.push(
    `${counted(r.count, 'request')} in ${(report.durationMs / 1000).toFixed(1)} s` +
      `${r.failed > 0 ? ` (${r.failed} without answer)` : ''}` +
      ` · time p50 ${r.timeMs.p50} ms, max ${r.timeMs.max} ms` +
      ` · size p50 ${bytes(r.bytes.p50)}, max ${bytes(r.bytes.max)}`,
    '',
  );
  lines.push(...table(report.checks, paint), '');
  for (const check of report.checks) {
    if (check.findings.length === 0) continue;
    lines.push(...details(check, examples, paint), '');
  }
  lines.push(summaryLine(report, paint), '');
  return lines.join('\n');
}

function table(checks: readonly CheckSummary[], paint: Paint): string[] {
  const width = Math.max(...checks.map((c) => c.title.length), 'CHECK'.length);
  const row = (title: string, result: string, e: string, w: string, n: string) =>
    `  ${title.padEnd(width)}  ${result}  ${e.padStart(6)}  ${w.padStart(8)}  ${n.padStart(5)}`;
  const out = [row('CHECK', 'RESULT', 'ERRORS', 'WARNINGS', 'NOTES')];
  for (const c of checks) {
    const result = paint(STATUS_COLOUR[c.status], c.status.toUpperCase().padEnd(6));
    out.push(row(c.title, result, String(c.errors), String(c.warnings), String(c.infos)));
  }
  return out;
}

function details(check: CheckSummary, examples: number, paint: Paint): string[] {
  const counts = [plural(check.errors, 'error'), plural(check.warnings, 'warning'), plural(check.infos, 'note')].filter(
    (x) => x !== '',
  );
  const out = [paint('1', `${check.title}: ${counts.join(', ')}`)];
  const shown = check.findings.slice(0, examples);
  for (const f of shown) out.push(...finding(f, paint));
  const more = check.findings.length - shown.length + (check.omitted > 0 ? check.omitted : 0);
  if (more > 0) out.push(paint('2', `    … ${more} more (--format json lists up to ${check.findings.length})`));
  return out;
}

function place(p: FindingPlace): string {
  return p.jsonPath === undefined ? clean(p.path) : `${clean(p.path)} ${clean(p.jsonPath)}`;
}

function finding(f: Finding, paint: Paint): string[] {
  const mark = paint(SEVERITY_COLOUR[f.severity], SEVERITY_MARK[f.severity]);
  const count = f.count ?? 1;
  const head =
    count > 1
      ? [`  ${mark} ${count} places, e.g.`, ...(f.examples ?? [f]).map((p) => `      ${place(p)}`)]
      : [`  ${mark} ${place(f)}`];
  return [...head, `      ${clean(f.message)}`, paint('2', `      → ${clean(f.effect)}`)];
}

function summaryLine(report: CheckReport, paint: Paint): string {
  const { errors, warnings, infos } = report.totals;
  const parts = [plural(errors, 'error') || '0 errors', plural(warnings, 'warning') || '0 warnings'];
  if (infos > 0) parts.push(plural(infos, 'note'));
  const incomplete = report.complete ? '' : ' (crawl cut short: see Crawl bounds)';
  const verdict = report.ok ? paint('32', 'OK') : paint('31', 'FAILED');
  return `${verdict}: ${parts.join(', ')}${incomplete}`;
}

function plural(n: number, word: string): string {
  return n === 0 ? '' : `${n} ${word}${n === 1 ? '' : 's'}`;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1048576).toFixed(1)} MB`;
}

/** Text from the checked add-on must not drive the terminal: control characters become U+FFFD. */
function clean(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
}

const GITHUB_COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/**
 * The report as GitHub Actions workflow commands: one annotation per grouped finding
 * (`::error title=…::…`), then a summary line. Data is escaped as GitHub requires (`%`, CR, LF;
 * also `:` and `,` in properties), so add-on text cannot inject a command.
 *
 * @example process.stdout.write(formatGithub(report));
 */
export function formatGithub(report: CheckReport): string {
  const lines: string[] = [];
  if (report.fatal !== undefined) {
    lines.push(`::error title=${property('marquee check')}::${data(`cannot check ${report.url}: ${report.fatal}`)}`);
    return `${lines.join('\n')}\n`;
  }
  for (const check of report.checks) {
    for (const f of check.findings) {
      const count = f.count ?? 1;
      const where = (f.examples ?? [f]).map((p) => (p.jsonPath === undefined ? p.path : `${p.path} ${p.jsonPath}`));
      const title = property(`marquee check: ${check.title}${f.rule ? ` (${f.rule})` : ''}`);
      const text = `${count > 1 ? `${count} places, e.g. ${where.join(', ')}` : where[0]}: ${f.message} → ${f.effect}`;
      lines.push(`::${GITHUB_COMMAND[f.severity]} title=${title}::${data(text)}`);
    }
  }
  const { errors, warnings, infos } = report.totals;
  lines.push(
    `marquee check ${clean(report.url)}: ${report.ok ? 'OK' : 'FAILED'}: ${counted(errors, 'error')}, ${counted(warnings, 'warning')}, ${counted(infos, 'note')}${report.complete ? '' : ' (crawl cut short)'}`,
  );
  return `${lines.join('\n')}\n`;
}

function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `0 errors`, `1 error`, `3 errors`. */
function counted(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
