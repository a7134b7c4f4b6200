import { CHECKS, type CheckId, type CheckSummary, type Finding, type Severity } from './types.js';

/**
 * Collects findings per check. A crawl of someone else's add-on can produce thousands of the same
 * finding (one per broken item), so each check keeps at most `storeLimit` of them while counting
 * all; the report lists the first `listLimit` after sorting, errors first.
 */

export interface Findings {
  add(finding: Finding): void;
  /** Mark a check as run, so that it shows "pass" rather than "skip" when it found nothing. */
  ran(check: CheckId): void;
  /** True once any finding of this check and severity was added. */
  has(check: CheckId, severity: Severity): boolean;
  summaries(): CheckSummary[];
}

interface Bucket {
  ran: boolean;
  errors: number;
  warnings: number;
  infos: number;
  stored: Finding[];
  /** Stored findings by what makes two the same (rule and message, not the path). */
  groups: Map<string, { index: number; count: number; examples: string[] }>;
}

/** Two findings are one, counted, when they say the same thing about the same JSON path on other request paths. */
const groupKey = (f: Finding) => `${f.severity}\u0000${f.message}\u0000${f.effect}\u0000${f.jsonPath ?? ''}`;
const EXAMPLES = 3;

/** Up to EXAMPLES paths, as varied as they come: a new resource replaces a second of another. */
function addExample(examples: string[], path: string): void {
  if (examples.includes(path)) return;
  if (examples.length < EXAMPLES) {
    examples.push(path);
    return;
  }
  const resource = (p: string) => p.split('/')[1];
  if (examples.some((e) => resource(e) === resource(path))) return;
  const seen = new Set<string | undefined>();
  const repeated = examples.findIndex((e) => {
    const r = resource(e);
    if (seen.has(r)) return true;
    seen.add(r);
    return false;
  });
  if (repeated >= 0) examples[repeated] = path;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * A findings collector.
 *
 * @example const findings = createFindings(); findings.add({ check: 'cors', severity: 'error', path: '/manifest.json', message: '…', effect: '…' });
 */
export function createFindings(listLimit = 50, storeLimit = 500): Findings {
  const buckets = new Map<CheckId, Bucket>(
    CHECKS.map((c) => [c.id, { ran: false, errors: 0, warnings: 0, infos: 0, stored: [], groups: new Map() }]),
  );
  const bucket = (check: CheckId): Bucket => buckets.get(check)!;
  return {
    add(finding) {
      const b = bucket(finding.check);
      // A note alone ("not requested: routed elsewhere") does not make a check "pass".
      if (finding.severity !== 'info') b.ran = true;
      if (finding.severity === 'error') b.errors++;
      else if (finding.severity === 'warning') b.warnings++;
      else b.infos++;
      const key = groupKey(finding);
      const group = b.groups.get(key);
      if (group !== undefined) {
        group.count++;
        addExample(group.examples, finding.path);
        const first = b.stored[group.index]!;
        b.stored[group.index] = { ...first, count: group.count, examples: [...group.examples] };
        return;
      }
      if (b.stored.length < storeLimit) {
        b.groups.set(key, { index: b.stored.length, count: 1, examples: [finding.path] });
        b.stored.push(finding);
      }
    },
    ran(check) {
      bucket(check).ran = true;
    },
    has(check, severity) {
      const b = bucket(check);
      return severity === 'error' ? b.errors > 0 : severity === 'warning' ? b.warnings > 0 : b.infos > 0;
    },
    summaries() {
      return CHECKS.map(({ id, title }) => {
        const b = bucket(id);
        const sorted = [...b.stored].sort(compare);
        const total = b.errors + b.warnings + b.infos;
        const findings = sorted.slice(0, listLimit);
        const status = b.errors > 0 ? 'fail' : b.warnings > 0 ? 'warn' : b.ran ? 'pass' : 'skip';
        return {
          id,
          title,
          status,
          errors: b.errors,
          warnings: b.warnings,
          infos: b.infos,
          findings,
          omitted: total - findings.reduce((n, f) => n + (f.count ?? 1), 0),
        };
      });
    },
  };
}

/** Errors first; then by request path and JSON path, so the order does not depend on which request finished first. */
function compare(a: Finding, b: Finding): number {
  return (
    RANK[a.severity] - RANK[b.severity] ||
    cmp(a.path, b.path) ||
    cmp(a.jsonPath ?? '', b.jsonPath ?? '') ||
    cmp(a.message, b.message)
  );
}

// Numeric so that `$.metas[2]` sorts before `$.metas[10]` and skip=100 before skip=1000.
const collator = new Intl.Collator('en', { numeric: true });

function cmp(a: string, b: string): number {
  return collator.compare(a, b);
}
