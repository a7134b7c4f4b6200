/**
 * Is it the streams, or this machine? On a machine without internet every check fails, the same
 * way (`no such host`, or the connection refused), and two such passes marked all 2,315 streams of
 * a user's playlists dead and hid 2,246 of their 2,250 channels (issue 46). A pass that looks like
 * that says so and records nothing: the streams keep what they had.
 *
 * The rule, over the checks that gave a verdict (skipped streams aside):
 * - no check succeeded (a single `ok` and the machine is online);
 * - at least 90% of them reached no server at all (the name did not resolve or the lookup failed,
 *   the connection was refused, the network or host was unreachable, no connection in time);
 *   the few others, with an answer of some kind, are what a LAN host or a captive portal gives;
 * - and those failures are spread over at least 3 host names: the streams of one or two hosts
 *   that are gone (three streams on one dead host) look the same from a machine that is online,
 *   and are findings to record.
 *
 * A pass whose streams are all on one or two hosts therefore cannot tell an offline machine from
 * hosts that are gone; `health.failuresBeforeDead` (2) keeps one such pass from retiring them.
 */
import type { StreamCheck } from './pass.js';
import type { NetworkFailure } from './probe.js';

/** Share of the verdicts that must have reached no server. */
export const OFFLINE_SHARE = 0.9;
/** Host names the failures must span. */
export const OFFLINE_MIN_HOSTS = 3;

/** Why a pass looks like an offline machine's. */
export interface OfflineFinding {
  /** Checks that gave a verdict. */
  readonly verdicts: number;
  /** Of them, those that reached no server. */
  readonly unreachable: number;
  /** Host names they were on. */
  readonly hosts: number;
  /** How they failed, most common first: `no such host`, `connection refused`… */
  readonly causes: readonly { readonly cause: string; readonly checks: number }[];
}

const CAUSES: Readonly<Record<NetworkFailure, string>> = {
  'no-such-host': 'no such host',
  'lookup-failed': 'name lookup failed',
  refused: 'connection refused',
  unreachable: 'network unreachable',
  'no-connection': 'no connection in time',
};

/**
 * The finding when `checks` look like a pass run on a machine that is offline, else undefined.
 * @example if (looksOffline(report.checks)) { nothing is recorded }
 */
export function looksOffline(checks: readonly StreamCheck[]): OfflineFinding | undefined {
  let verdicts = 0;
  let unreachable = 0;
  const hosts = new Set<string>();
  const causes = new Map<string, number>();
  for (const check of checks) {
    if (!('state' in check.outcome)) continue;
    verdicts++;
    if (check.outcome.state === 'ok') return undefined;
    if (check.unreachable === undefined) continue;
    unreachable++;
    hosts.add(hostName(check.target.url));
    const cause = CAUSES[check.unreachable];
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
  }
  if (verdicts === 0 || unreachable < verdicts * OFFLINE_SHARE || hosts.size < OFFLINE_MIN_HOSTS) return undefined;
  return {
    verdicts,
    unreachable,
    hosts: hosts.size,
    causes: [...causes].map(([cause, n]) => ({ cause, checks: n })).sort((a, b) => b.checks - a.checks),
  };
}

function hostName(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return url;
  }
}
