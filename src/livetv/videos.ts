/**
 * Programmes as protocol videos (channel pages, and guide pages that the store cannot write
 * directly: a name search or several groups), and the generated placeholder blocks.
 */

import { MarqueeError } from '../errors.js';
import type { Video } from '../protocol/index.js';
import type { ChannelRow, ProgrammeRow } from '../store/index.js';
import type { PlaceholderOptions } from './types.js';

const MINUTE = 60_000;

/** A programme's `runtime` for a duration in ms: whole minutes, at least 1 (`45 min`). */
export function runtimeText(ms: number): string {
  return `${Math.max(1, Math.round(ms / MINUTE))} min`;
}

/** The video id of a programme: `{channelId}:epg:{startTime ISO}` (unique per channel and start). */
export function videoId(channelId: string, startIso: string): string {
  return `${channelId}:epg:${startIso}`;
}

/**
 * One stored programme as a guide video: the members that follow from the channel and the
 * times, then the programme's own fields (rendered at import, the same that guide pages splice
 * in); a programme with neither title nor sub-title shows the channel's name.
 * @example programmeVideo(channel, row).id // 'mq-tv:bbc1.uk:epg:2026-03-01T20:00:00.000Z'
 */
export function programmeVideo(channel: ChannelRow, p: ProgrammeRow): Video {
  const startTime = new Date(p.start).toISOString();
  return {
    id: videoId(channel.id, startTime),
    released: startTime,
    startTime,
    endTime: new Date(p.stop).toISOString(),
    runtime: runtimeText(p.stop - p.start),
    title: channel.name,
    ...p.video,
  };
}

/** Resolved placeholder settings. */
export interface Placeholders {
  readonly enabled: boolean;
  readonly blockMs: number;
}

/** Checks the operator's placeholder settings (15 min to 24 h blocks). */
export function resolvePlaceholders(options: PlaceholderOptions | undefined): Placeholders {
  const minutes = options?.blockMinutes ?? 60;
  if (!Number.isInteger(minutes) || minutes < 15 || minutes > 1440) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `placeholders.blockMinutes must be a whole number from 15 to 1440, got ${minutes}`,
    );
  }
  return { enabled: options?.enabled === true, blockMs: minutes * MINUTE };
}

/**
 * Placeholder blocks overlapping [from, to]: aligned to multiples of the block length since the
 * epoch, so every request (guide day, meta) generates the same ids for the same block.
 * @example placeholderVideos(channel, Date.parse('2026-03-01T00:00Z'), Date.parse('2026-03-01T23:59:59.999Z'), p).length // 24 with 60-min blocks
 */
export function placeholderVideos(channel: ChannelRow, from: number, to: number, p: Placeholders): Video[] {
  const videos: Video[] = [];
  for (let start = Math.floor(from / p.blockMs) * p.blockMs; start < to; start += p.blockMs) {
    if (start + p.blockMs <= from) continue;
    const startTime = new Date(start).toISOString();
    videos.push({
      id: videoId(channel.id, startTime),
      title: channel.name,
      released: startTime,
      startTime,
      endTime: new Date(start + p.blockMs).toISOString(),
      runtime: `${p.blockMs / MINUTE} min`,
    });
  }
  return videos;
}
