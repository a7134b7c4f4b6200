/**
 * The `health.*` settings turned into what a pass and the served add-on take, and a pass told in
 * lines for people. Stream URLs are never printed whole: IPTV URLs carry accounts in their paths
 * (`/live/USER/PASS/1.ts`), so a stream is named by its channel, its host and its last path segment.
 */
import { MarqueeError } from '../errors.js';
import { HEALTH_DEFAULTS, type HealthPassOptions, type HealthPassResult, type HealthServing } from '../livetv/index.js';
import type { OfflineFinding } from '../sources/health/index.js';
import { redactStreamUrl } from '../sources/input/index.js';
import { parseXtreamAccount } from '../sources/xtream/index.js';
import { type HealthChangeRow, type Store, sourceKey } from '../store/index.js';
import { count } from './plural.js';
import type { Settings } from './settings.js';

/** Changed streams `--json` lists at most (`marquee health` and `status`; the count is always whole). */
export const MAX_LISTED_CHANGES = 10_000;

/**
 * What the served add-on makes of stored health (`failuresBeforeDead`, `hideDead`, `hideDeadChannels`).
 * @example createLiveTvPart(store, { health: healthServing(settings) })
 */
export function healthServing(settings: Settings): HealthServing {
  const h = settings.health;
  return {
    ...(h?.failuresBeforeDead !== undefined ? { failuresBeforeDead: h.failuresBeforeDead } : {}),
    ...(h?.hideDead !== undefined ? { hideDead: h.hideDead } : {}),
    ...(h?.hideDeadChannels !== undefined ? { hideDeadChannels: h.hideDeadChannels } : {}),
  };
}

/**
 * The options of a pass from the settings. `health.sources` names playlists and Xtream accounts as
 * they are configured; each must be one this store imported or the settings name, else the
 * settings are wrong (INVALID_SETTINGS, without the source's secrets).
 * @example await runHealthPass(store, healthPassOptions(settings, store))
 */
export function healthPassOptions(settings: Settings, store: Store): HealthPassOptions {
  const h = settings.health ?? {};
  return {
    ...(h.sources ? { sources: sourceKeys(h.sources, settings, store) } : {}),
    concurrency: h.concurrency ?? HEALTH_DEFAULTS.concurrency,
    perHost: h.perHost ?? HEALTH_DEFAULTS.perHost,
    timeoutSeconds: h.timeoutSeconds ?? HEALTH_DEFAULTS.timeoutSeconds,
    maxRequests: h.maxRequests ?? HEALTH_DEFAULTS.maxRequests,
    ...(settings.sources?.allowPrivate !== undefined ? { allowPrivate: settings.sources.allowPrivate } : {}),
  };
}

/** The keys of the sources `health.sources` names. */
function sourceKeys(listed: readonly string[], settings: Settings, store: Store): string[] {
  const known = new Set(store.sourceStates('livetv').map((s) => s.key));
  for (const p of settings.livetv?.playlists ?? []) known.add(sourceKey('playlist', typeof p === 'string' ? p : p.url));
  const accounts = (settings.xtream ?? []).map((x) => (typeof x === 'string' ? { url: x } : x));
  for (const a of accounts) known.add(accountKey(a.url, a) ?? '');
  return listed.map((entry) => {
    const configured = accounts.find((a) => a.url.trim() === entry.trim());
    const candidates = [
      sourceKey('playlist', entry),
      accountKey(entry, {}),
      configured ? accountKey(configured.url, configured) : undefined,
    ];
    const key = candidates.find((k) => k !== undefined && known.has(k));
    if (key === undefined) {
      throw new MarqueeError(
        'INVALID_SETTINGS',
        `health.sources: ${redactStreamUrl(entry)} is none of the playlists or Xtream accounts configured or imported`,
      );
    }
    return key;
  });
}

/** The key of the Xtream account at `url` (its live channels are a playlist source), if it is one. */
function accountKey(url: string, credentials: { username?: string; password?: string }): string | undefined {
  try {
    return sourceKey('playlist', parseXtreamAccount(url, credentials).location);
  } catch {
    return undefined;
  }
}

/**
 * Why a pass was not recorded, for people: `this machine looks offline: nothing recorded (300 of
 * 300 checks reached no server, on 30 hosts: 300 no such host)`.
 */
export function offlineLine(offline: OfflineFinding): string {
  const causes = offline.causes.map((c) => `${c.checks.toLocaleString('en-US')} ${c.cause}`).join(', ');
  return `this machine looks offline: nothing recorded (${offline.unreachable.toLocaleString('en-US')} of ${count(offline.verdicts, 'check')} reached no server, on ${count(offline.hosts, 'host')}: ${causes}); every stream keeps the health of the last pass`;
}

/** A pass in lines for people: what it checked, found and skipped, and the first streams that changed. */
export function describeHealthPass(result: HealthPassResult, changed: readonly HealthChangeRow[]): string[] {
  const c = result.counts;
  const checked = c.ok + c.dead + c.blocked + c.notMedia + c.timeout;
  const seconds = Math.round((result.finishedAt - result.startedAt) / 100) / 10;
  const lines = [
    `checked ${count(checked, 'stream')} of ${result.streams.toLocaleString('en-US')} in ${seconds} s (${count(result.requests, 'request')}): ${stateCounts(c)}`,
  ];
  const s = result.skipped;
  const skipped = [
    s.unsupported > 0 ? `${count(s.unsupported, 'stream')} not http(s) (rtmp, udp, …)` : '',
    s.private > 0 ? `${count(s.private, 'stream')} on private addresses (sources.allowPrivate allows them)` : '',
    s.rateLimited > 0 ? `${count(s.rateLimited, 'stream')} on hosts that answered 429` : '',
    s.notStarted > 0 ? `${count(s.notStarted, 'stream')} left for the next pass (health.maxRequests spent)` : '',
  ].filter((x) => x !== '');
  if (skipped.length > 0) lines.push(`not checked: ${skipped.join('; ')}`);
  if (result.offline) return [...lines, offlineLine(result.offline)];
  lines.push(`${count(result.changes.length, 'stream')} changed state`);
  for (const change of changed.slice(0, 20)) lines.push(`  ${changeLine(change)}`);
  if (result.changes.length > 20) lines.push(`  … (every one in \`marquee status --json\`)`);
  return lines;
}

/** `ok 9,100, dead 400, …` in the order of the states. */
export function stateCounts(c: {
  ok: number;
  dead: number;
  blocked: number;
  notMedia: number;
  timeout: number;
  unchecked?: number;
}): string {
  const parts = [
    `${c.ok.toLocaleString('en-US')} ok`,
    `${c.dead.toLocaleString('en-US')} dead`,
    `${c.blocked.toLocaleString('en-US')} blocked`,
    `${c.notMedia.toLocaleString('en-US')} not media`,
    `${c.timeout.toLocaleString('en-US')} timeout`,
  ];
  if (c.unchecked !== undefined) parts.push(`${c.unchecked.toLocaleString('en-US')} unchecked`);
  return parts.join(', ');
}

/** `Arte (mq-tv:arte.fr): ok → dead (HTTP 404) http://tv.example/…/arte.m3u8` */
export function changeLine(change: HealthChangeRow): string {
  const detail = change.detail ? ` (${change.detail})` : '';
  return `${change.channelName} (${change.channelId}): ${change.from ?? 'unchecked'} → ${change.to}${detail} ${redactStreamUrl(change.url)}`;
}

/** A change as `--json` prints it: the URL shown without its path's middle (accounts live there). */
export function changeJson(change: HealthChangeRow) {
  return {
    channel: change.channelId,
    channelName: change.channelName,
    ...(change.streamName !== undefined ? { stream: change.streamName } : {}),
    url: redactStreamUrl(change.url),
    // Two streams of a channel on one host read alike once redacted (`…/backup.ts`): where each came from tells them apart.
    ...(change.source !== undefined ? { source: change.source } : {}),
    ...(change.line !== undefined ? { line: change.line } : {}),
    from: change.from ?? 'unchecked',
    to: change.to,
    ...(change.detail !== undefined ? { detail: change.detail } : {}),
    at: new Date(change.at).toISOString(),
  };
}
