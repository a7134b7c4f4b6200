/**
 * A channel's rows as an import writes them: the channel row (in CHANNEL_SELECT's order, with its
 * guide-page head rendered from the row as stored) and its streams' rows, every text clipped to
 * LIMITS; its catch-up streams as stored, bounded; and a guide channel's names as stored.
 */
import { cleanName } from '../../sources/clean.js';
import type { GuideChannel } from '../../sources/records.js';
import type { Statement } from '../connection.js';
import { DAY } from './guide-days.js';
import { channelFromRaw, clip, LIMITS, normalizeName, recordJson } from './rows.js';
import type { CatchupStream, ChannelHead, ChannelInput } from './types.js';

/**
 * Writes `channel` as row `rid` (with its guide key id and catch-up JSON) and its streams; returns
 * how many streams it wrote. Throws on a stream without url.
 * @example imp.streams += writeChannelRows(sql, channel, rid, keyId, catchup, head)
 */
export function writeChannelRows(
  sql: { readonly channel: Statement; readonly stream: Statement },
  channel: ChannelInput,
  rid: number,
  keyId: number | null,
  catchup: string | null,
  head: ChannelHead | undefined,
): number {
  const { id, name } = channel;
  const shownName = cleanName(clip(name, LIMITS.name));
  // In CHANNEL_SELECT's order: what reads will give back, and what the head is rendered from.
  const stored = [
    id,
    shownName,
    channel.logo ? clip(channel.logo, LIMITS.url) : null,
    channel.group ? clip(channel.group, LIMITS.name) : null,
    Number.isFinite(channel.number) ? channel.number : null,
    channel.sort,
    keyId === null ? null : clip(channel.guideKey!, LIMITS.key),
    recordJson(channel.catchup),
    channel.source ? clip(channel.source, LIMITS.url) : null,
  ] as const;
  sql.channel.run(
    ...stored,
    rid,
    normalizeName(shownName),
    keyId,
    head === undefined ? null : head.render(channelFromRaw(stored)),
    head === undefined ? null : head.format,
    catchup,
  );
  channel.streams.forEach((s, ord) => {
    if (typeof s.url !== 'string' || s.url === '') throw new Error(`channel "${id}" stream ${ord} has no url`);
    sql.stream.run(
      rid,
      ord,
      clip(s.url, LIMITS.url),
      s.name ? clip(s.name, LIMITS.name) : null,
      s.userAgent ? clip(s.userAgent, LIMITS.url) : null,
      s.referrer ? clip(s.referrer, LIMITS.url) : null,
      recordJson(s.kodiProps),
      s.source ? clip(s.source, LIMITS.name) : null,
      s.origin ? clip(s.origin, LIMITS.key) : null,
      Number.isSafeInteger(s.line) ? s.line! : null,
    );
  });
  return channel.streams.length;
}

/** A channel's catch-up streams as stored (bounded), and the longest window among them. */
export function catchupJson(streams: readonly CatchupStream[] | undefined): { json: string | null; archiveMs: number } {
  if (streams === undefined || streams.length === 0) return { json: null, archiveMs: 0 };
  let archiveMs = 0;
  const kept = streams.slice(0, LIMITS.items).map((s) => {
    if (typeof s.url !== 'string' || s.url === '') throw new Error('a catch-up stream has no url');
    if (!Number.isFinite(s.archiveMs) || s.archiveMs < 0 || s.archiveMs > 366 * DAY) {
      throw new Error('a catch-up stream needs archiveMs from 0 to 366 days');
    }
    archiveMs = Math.max(archiveMs, s.archiveMs);
    const attributes = JSON.parse(recordJson(s.attributes) ?? '{}') as Record<string, string>;
    return {
      url: clip(s.url, LIMITS.url),
      attributes,
      archiveMs: s.archiveMs,
      ...(s.userAgent ? { userAgent: clip(s.userAgent, LIMITS.url) } : {}),
      ...(s.referrer ? { referrer: clip(s.referrer, LIMITS.url) } : {}),
      ...(s.source ? { source: clip(s.source, LIMITS.name) } : {}),
    };
  });
  return { json: JSON.stringify(kept), archiveMs };
}

/** A guide channel's display names as stored: at most LIMITS.items, each clipped and cleaned. */
export function guideNamesJson(channel: GuideChannel): string {
  const names = channel.displayNames
    .slice(0, LIMITS.items)
    .map((n) =>
      n.lang === undefined
        ? { text: cleanName(clip(n.text, LIMITS.name)) }
        : { text: cleanName(clip(n.text, LIMITS.name)), lang: clip(n.lang, LIMITS.item) },
    );
  return JSON.stringify(names);
}
