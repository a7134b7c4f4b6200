/**
 * The lines an import says about its bad sources, for people: "kept" only for a source whose last
 * good data is kept (and served), "failed, never imported" for one that contributes nothing; and
 * many sources failing alike (a playlist naming a hundred guides on one offline host) as one line
 * with a count and the first of them. Each source is still judged on its own: `--json` and
 * `marquee status` list every one.
 */
import type { SourceOutcome } from '../store/index.js';

/** A source as an import reports it (live TV and library alike). */
export interface JudgedSource {
  /** `playlist`, `guide`, `xtream`; absent for library files. */
  readonly kind?: string;
  readonly location: string;
  readonly outcome: SourceOutcome;
  readonly reason?: string;
  readonly message?: string;
  readonly keptSince?: number;
}

export interface SourceLine {
  /** The line as printed under the import's summary (two spaces in, then `kept:` or `failed, never imported:`). */
  readonly line: string;
  /** Since when the (first) source has been bad, for `serve`'s log level. */
  readonly keptSince: number;
}

/** From this many sources failing alike, one line says them all. */
export const GROUP_FROM = 3;

const KEPT = 'kept';
const NONE = 'failed, never imported';

/**
 * @example sourceLines([{ kind: 'guide', location: 'https://x/g.xml', outcome: 'none', reason: 'failed: HTTP 404' }])
 * // [{ line: '  failed, never imported: guide https://x/g.xml: HTTP 404', keptSince: … }]
 */
export function sourceLines(sources: readonly JudgedSource[], now: number = Date.now()): SourceLine[] {
  const bad = sources.filter((s) => s.outcome === 'kept' || s.outcome === 'none');
  const groups = new Map<string, JudgedSource[]>();
  for (const s of bad) {
    const key = `${s.outcome}\u0000${kindOf(s)}\u0000${s.reason ?? ''}`;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  const lines: SourceLine[] = [];
  for (const group of groups.values()) {
    const keptSince = Math.min(...group.map((s) => s.keptSince ?? now));
    if (group.length >= GROUP_FROM) {
      lines.push({ line: groupLine(group), keptSince });
      continue;
    }
    for (const s of group) lines.push({ line: singleLine(s), keptSince: s.keptSince ?? now });
  }
  return lines;
}

const kindOf = (s: JudgedSource) => s.kind ?? 'library';

const PLURAL: Record<string, string> = {
  playlist: 'playlists',
  guide: 'guides',
  xtream: 'Xtream accounts',
  library: 'library files',
};

/** "failed: HTTP 404" reads as "HTTP 404" after "guide URL:". */
const why = (reason: string | undefined) => (reason ?? 'failed').replace(/^failed: /, '');

function singleLine(s: JudgedSource): string {
  if (s.outcome === 'kept') return `  ${KEPT}: ${s.message ?? `${kindOf(s)} ${s.location} ${s.reason ?? 'failed'}`}`;
  return `  ${NONE}: ${kindOf(s)} ${s.location}: ${why(s.reason)}`;
}

function groupLine(group: readonly JudgedSource[]): string {
  const first = group[0]!;
  const kinds = `${group.length.toLocaleString('en-US')} ${PLURAL[kindOf(first)] ?? `${kindOf(first)} sources`}`;
  const example = `first: ${first.location}; --json and marquee status list each`;
  if (first.outcome === 'kept') {
    return `  ${KEPT}: ${kinds} ${first.reason ?? 'failed'}, each keeping its last good data (${example})`;
  }
  return `  ${NONE}: ${kinds}: ${why(first.reason)} (${example})`;
}
