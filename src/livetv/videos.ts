/**
 * Programmes as protocol videos, and the generated placeholder blocks. Guide pages turn thousands
 * of rows into videos per request, so this is plain object building: one ISO string per time,
 * no validation (the SDK validates answers in tests), optional fields only when set.
 */

import { MarqueeError } from '../errors.js';
import type { Video } from '../protocol/index.js';
import { isAbsoluteUrl } from '../protocol/index.js';
import type { ChannelRow, ProgrammeRow } from '../store/index.js';
import type { PlaceholderOptions } from './types.js';

const MINUTE = 60_000;
const HTTP = /^https?:\/\//i;

/** The video id of a programme: `{channelId}:epg:{startTime ISO}` (unique per channel and start). */
function videoId(channelId: string, startIso: string): string {
  return `${channelId}:epg:${startIso}`;
}

/**
 * One stored programme as a guide video. The sub-title joins the title (`Title — Sub`): the grid
 * shows only the title, and an episode's name is what tells two airings apart.
 * @example programmeVideo(channel, row).id // 'mq-tv:bbc1.uk:epg:2026-03-01T20:00:00.000Z'
 */
export function programmeVideo(channel: ChannelRow, p: ProgrammeRow): Video {
  const startTime = new Date(p.start).toISOString();
  const title = p.title === '' ? channel.name : p.title;
  const video: Video = {
    id: videoId(channel.id, startTime),
    title: p.subTitle !== undefined && p.subTitle !== title ? `${title} — ${p.subTitle}` : title,
    released: startTime,
    startTime,
    endTime: new Date(p.stop).toISOString(),
    runtime: `${Math.max(1, Math.round((p.stop - p.start) / MINUTE))} min`,
  };
  if (p.description !== undefined) video.overview = p.description;
  if (p.icon !== undefined && HTTP.test(p.icon) && isAbsoluteUrl(p.icon)) video.thumbnail = p.icon;
  const year = p.date === undefined ? undefined : /^\d{4}/.exec(p.date)?.[0];
  if (year !== undefined) video.releaseInfo = year;
  if (p.season !== undefined) video.season = p.season;
  if (p.episode !== undefined) video.episode = p.episode;
  if (p.categories.length > 0) video.genres = [...p.categories];
  if (p.actors.length > 0) video.cast = [...p.actors];
  if (p.directors.length > 0) video.directors = [...p.directors];
  if (p.ratings.length > 0 || p.starRating !== undefined) {
    video.ratings = p.ratings.map((r) =>
      r.system === undefined ? { value: r.value } : { system: r.system, value: r.value },
    );
    if (p.starRating !== undefined) video.ratings.push({ system: 'stars', value: p.starRating });
  }
  return video;
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
