/**
 * What live-TV answers built from the store weigh, for the byte bound of an answer
 * (`addon.maxAnswerBytes`, addon/answer-bytes.ts): a channel preview, a channel meta's own
 * members, and a programme's video (its stored JSON fields, plus the members every video gets).
 * Guide pages written from raw entries measure themselves exactly (guide-json.ts); these are the
 * object paths: catalog pages, channel metas, and guide pages of a search or of several groups.
 * Quick estimates count three bytes per UTF-16 unit (UTF-8's most) and are upper bounds; the
 * exact sizes are asked only when a quick sum passes the bound.
 */
import type { ChannelRow, StoredProgramme } from '../store/index.js';
import type { CatchupStreams } from './catchup-streams.js';
import { channelPreview } from './metas.js';

/** The members a preview or meta has besides its strings (`{"id":…,"type":"tv",…}`), rounded up. */
const PREVIEW_MEMBERS = 160;
/** A meta's members besides its preview's (`behaviorHints`, `description`, `"videos":[]`). */
const META_MEMBERS = 140;
/** A video's members besides its channel's id and name and its stored fields (`released`, times, runtime). */
const VIDEO_MEMBERS = 180;

/** An upper estimate of a channel preview's JSON bytes. */
export function previewQuick(channel: ChannelRow): number {
  const strings =
    channel.id.length + channel.name.length + (channel.group?.length ?? 0) + 2 * (channel.logo?.length ?? 0);
  return PREVIEW_MEMBERS + 3 * strings;
}

/** A channel preview's JSON bytes. */
export function previewExact(channel: ChannelRow): number {
  return Buffer.byteLength(JSON.stringify(channelPreview(channel)));
}

/** An upper estimate of a channel meta's JSON bytes without its videos. */
export function metaHeadQuick(channel: ChannelRow): number {
  return previewQuick(channel) + META_MEMBERS;
}

/**
 * An upper estimate of what each of `channel`'s videos adds beside its stored fields: its id,
 * times, runtime and the channel's name, and the catch-up streams of one of its programmes at
 * `now` (a channel's programmes have the same streams but for their times).
 */
export function videoQuick(channel: ChannelRow, catchup: CatchupStreams | undefined, now: number): number {
  let each = VIDEO_MEMBERS + 3 * (channel.id.length + channel.name.length);
  if (catchup !== undefined && channel.catchupStreams !== undefined) {
    each += 3 * catchup.json(channel, now - 3_600_000, now, now).length + 64;
  }
  return each;
}

/**
 * The earliest `programmes` that fit in `room` bytes, each costing its stored fields and `each`,
 * and the bytes they take (quick estimates first, the exact UTF-8 of the fields only past them).
 */
export function programmesWithin(
  programmes: readonly StoredProgramme[],
  room: number,
  each: number,
): { readonly kept: readonly StoredProgramme[]; readonly bytes: number } {
  let quick = 0;
  for (const p of programmes) quick += 3 * p.video.length + each + 1;
  if (quick <= room) return { kept: programmes, bytes: quick };
  let bytes = 0;
  for (let i = 0; i < programmes.length; i++) {
    const next = bytes + Buffer.byteLength(programmes[i]!.video) + each + 1;
    if (next > room) return { kept: programmes.slice(0, i), bytes };
    bytes = next;
  }
  return { kept: programmes, bytes };
}
