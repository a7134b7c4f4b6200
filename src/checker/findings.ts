import { CHECKS, type CheckId, type CheckSummary, type Finding, type FindingPlace, type Severity } from './types.js';

/**
 * Collects findings per check and groups them: the same rule with the same message on many
 * paths (one Cache-Control warning on every answer, one broken field on every item) is one
 * finding with a count and three example places. Each check keeps at most `storeLimit` groups
 * while counting every place; the report lists the first `listLimit` after sorting, errors first.
 */

export interface Findings {
  add(finding: Finding): void;
  /** Mark a check as run, so that it shows "pass" rather than "skip" when it found nothing. */
  ran(check: CheckId): void;
  /** True once any finding of this check and severity was added. */
  has(check: CheckId, severity: Severity): boolean;
  summaries(): CheckSummary[];
}

interface Group {
  readonly first: Finding;
  count: number;
  /** Kept to pick the three examples after sorting (bounded). */
  readonly places: FindingPlace[];
}

interface Bucket {
  ran: boolean;
  errors: number;
  warnings: number;
  infos: number;
  groups: Map<string, Group>;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const EXAMPLES = 3;
const PLACES_KEPT = 50;

/**
 * A findings collector.
 *
 * @example const findings = createFindings(); findings.add({ check: 'cors', severity: 'error', path: '/manifest.json', message: '…', effect: '…' });
 */
export function createFindings(listLimit = 50, storeLimit = 500): Findings {
  const buckets = new Map<CheckId, Bucket>(
    CHECKS.map((c) => [c.id, { ran: false, errors: 0, warnings: 0, infos: 0, groups: new Map() }]),
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
      const key = [finding.severity, finding.rule ?? '', finding.message, finding.effect].join('\u0000');
      const group = b.groups.get(key);
      const place = placeOf(finding);
      if (group) {
        group.count++;
        if (group.places.length < PLACES_KEPT) group.places.push(place);
      } else if (b.groups.size < storeLimit) b.groups.set(key, { first: finding, count: 1, places: [place] });
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
        const grouped = [...b.groups.values()].map(toFinding).sort(compare);
        const findings = grouped.slice(0, listLimit);
        const status = b.errors > 0 ? 'fail' : b.warnings > 0 ? 'warn' : b.ran ? 'pass' : 'skip';
        return {
          id,
          title,
          status,
          errors: b.errors,
          warnings: b.warnings,
          infos: b.infos,
          findings,
          omitted: b.errors + b.warnings + b.infos - findings.reduce((n, f) => n + (f.count ?? 1), 0),
        };
      });
    },
  };
}

function placeOf(f: Finding): FindingPlace {
  return f.jsonPath === undefined ? { path: f.path } : { path: f.path, jsonPath: f.jsonPath };
}

/** One finding per group; the first place in sorted order stands for it, so order does not depend on timing. */
function toFinding(group: Group): Finding {
  const { count: _c, examples: _e, jsonPath: _j, ...rest } = group.first;
  if (group.count === 1) return group.first;
  const places = [...group.places].sort(comparePlace);
  const [head] = places;
  return {
    ...rest,
    path: head!.path,
    ...(head!.jsonPath === undefined ? {} : { jsonPath: head!.jsonPath }),
    count: group.count,
    examples: places.slice(0, EXAMPLES),
  };
}

/** Errors first; then by request path and JSON path, so the order does not depend on which request finished first. */
function compare(a: Finding, b: Finding): number {
  return RANK[a.severity] - RANK[b.severity] || comparePlace(a, b) || cmp(a.message, b.message);
}

function comparePlace(a: FindingPlace, b: FindingPlace): number {
  return cmp(a.path, b.path) || cmp(a.jsonPath ?? '', b.jsonPath ?? '');
}

// Numeric so that `$.metas[2]` sorts before `$.metas[10]` and skip=100 before skip=1000.
const collator = new Intl.Collator('en', { numeric: true });

function cmp(a: string, b: string): number {
  return collator.compare(a, b);
}
