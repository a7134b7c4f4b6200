/**
 * The lines an import says about its bad sources, for people: "kept" only for a source whose last
 * good data is kept (and served), "failed, never imported" for one that contributes nothing; and
 * many sources failing alike (a playlist naming a hundred guides on one offline host) as one line
 * with a count and the first of them. Alike is by cause: the same error on several hosts (thirty
 * guides on five hosts that do not resolve) is one line naming the hosts, not one per host, nor
 * one for a host's first attempt and another for its later ones (issue 46). Each source is still
 * judged on its own: `--json` and `marquee status` list every one.
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
    const key = `${s.outcome}\u0000${kindOf(s)}\u0000${causeOf(s)}`;
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
  const hosts = [...new Set(group.map(hostOf))];
  const several = hosts.length > 1 && !hosts.includes(undefined);
  const kinds = `${group.length.toLocaleString('en-US')} ${PLURAL[kindOf(first)] ?? `${kindOf(first)} sources`}${
    several ? ` on ${hosts.length.toLocaleString('en-US')} hosts` : ''
  }`;
  const named = several ? `${listed(hosts as string[])}; ` : '';
  const example = `${named}first: ${first.location}; --json and marquee status list each`;
  // One host: its first source's reason as it was; several: the cause they share, without a host.
  const reason = several
    ? causeOf(first)
        .replace(new RegExp(`^(failed: )?${HOST}`), '$1the host')
        .replaceAll(HOST, '')
        .replace(/\s+/g, ' ')
        .trim()
    : first.reason;
  if (first.outcome === 'kept') {
    return `  ${KEPT}: ${kinds} ${reason ?? 'failed'}, each keeping its last good data (${example})`;
  }
  return `  ${NONE}: ${kinds}: ${why(reason)} (${example})`;
}

/** The first hosts of a group by name, and how many more. */
function listed(hosts: readonly string[]): string {
  const shown = hosts.slice(0, 3).join(', ');
  return hosts.length > 3 ? `${shown} and ${(hosts.length - 3).toLocaleString('en-US')} more` : shown;
}

/** Stands for a host (or address) in a cause. */
const HOST = '\u0001';

/** The host of a source at a URL, lower-cased; undefined for a file. */
function hostOf(s: JudgedSource): string | undefined {
  try {
    const url = new URL(s.location);
    return /^https?:$/.test(url.protocol) ? url.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What went wrong with `s`, without where: its host, the addresses it resolved to and the count of
 * attempts taken out, so that one error on many hosts (or a host's first try and its retries) reads
 * as one cause.
 * @example causeOf({ location: 'http://a.example/g.xml', reason: 'failed: getaddrinfo ENOTFOUND a.example', … }) // 'failed: getaddrinfo ENOTFOUND \u0001'
 */
function causeOf(s: JudgedSource): string {
  let reason = (s.reason ?? '').replace(/ \(after \d+ attempts\)/g, '');
  const host = hostOf(s);
  if (host !== undefined) reason = reason.split(s.location).join(HOST).split(host).join(HOST);
  return reason
    .replace(/\[[0-9a-f:.]+\](?::\d+)?/gi, HOST)
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, HOST)
    .replace(new RegExp(`${HOST}(?::\\d+)?`, 'g'), HOST);
}
