/**
 * The relay's part of `marquee status`: the sessions a running `serve` published beside the
 * database (relay/status-file.ts), one line each (channel, viewers, the upstream redacted, bytes,
 * since when), or that no serve is running.
 */
import type { RelayStatus } from '../../relay/index.js';
import { formatTime } from '../../store/index.js';
import { count } from '../plural.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** `status --json`'s `relay`: `{ running: false }` when no serve publishes one. */
export function relayJson(status: RelayStatus | undefined) {
  if (status === undefined) return { running: false };
  return {
    running: true,
    updatedAt: iso(status.updatedAt),
    limits: status.limits,
    sessions: status.sessions.map((s) => ({ ...s, since: iso(s.since) })),
  };
}

/** Bytes for people: 1.2 GB, 340 MB, 12 kB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function relayLines(status: RelayStatus | undefined): string[] {
  if (status === undefined) return ['relay: serve is not running (no relay sessions)'];
  const sessions = status.sessions;
  const viewers = sessions.reduce((n, s) => n + s.viewers, 0);
  const lines = [
    `relay: ${count(sessions.length, 'channel')} relayed, ${count(viewers, 'viewer')} (limits: ${status.limits.maxUpstreams} upstreams, ${status.limits.maxViewers} viewers)`,
  ];
  for (const s of sessions) {
    const state = s.state === 'live' ? '' : ` [${s.state}]`;
    lines.push(
      `       ${s.channel}${state}: ${count(s.viewers, 'viewer')}, upstream ${s.upstream ?? '(opening)'}${s.kind ? ` (${s.kind}${s.codecs ? ` ${s.codecs}` : ''})` : ''}, ${formatBytes(s.bytesIn)} in, ${formatBytes(s.bytesOut)} out, since ${formatTime(s.since)}${s.failovers > 0 ? `, ${count(s.failovers, 'failover')}` : ''}`,
    );
  }
  return lines;
}
