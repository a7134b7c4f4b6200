/** Channels as protocol objects: catalog previews, guide/detail metas, and their streams. */
import type { Meta, MetaPreview, Stream, Video } from '../protocol/index.js';
import type { ChannelRow, StreamRow } from '../store/index.js';
import { type HealthServing, offlineNote, orderByHealth } from './health-view.js';
import type { StreamRelay } from './stream-relay.js';

/**
 * A channel as a catalog item: the logo as a square poster, the group as its genre.
 * @example channelPreview({ id: 'mq-tv:arte', name: 'Arte', sort: 7 }).posterShape // 'square'
 */
export function channelPreview(channel: ChannelRow): MetaPreview {
  const preview: MetaPreview = {
    id: channel.id,
    type: 'tv',
    name: channel.name,
    posterShape: 'square',
    behaviorHints: { isLive: true },
  };
  // Logos are checked to be http(s) URLs or inline data:image URIs at import; the client drops items with a relative poster.
  if (channel.logo !== undefined) {
    preview.poster = channel.logo;
    preview.logo = channel.logo;
  }
  if (channel.group !== undefined) preview.genres = [channel.group];
  return preview;
}

/**
 * A channel with its programmes: a guide row or the detail page. No `defaultVideoId`: playing a
 * channel plays its live streams, never a programme.
 * @example channelMeta(channel, videos).behaviorHints // { isLive: true, hasScheduledVideos: true }
 */
export function channelMeta(channel: ChannelRow, videos: Video[]): Meta {
  const meta: Meta = {
    ...channelPreview(channel),
    behaviorHints: { isLive: true, hasScheduledVideos: true },
    videos,
  };
  if (channel.number !== undefined) meta.description = `Channel ${channel.number}`;
  return meta;
}

/**
 * The JSON of `channelMeta(channel, videos)` up to and including `"videos":` (the members in
 * another order), written directly: the live-TV import stores one per channel (guide-json.ts
 * CHANNEL_HEAD), and building the objects first made the 50,000-entry benchmark import's peak
 * memory 15 MB larger. guide-json.test.ts holds the two equal; change them together.
 * @example channelHeadJson({ id: 'mq-tv:a', name: 'A', sort: 1 }) // '{"id":"mq-tv:a",…,"videos":'
 */
export function channelHeadJson(channel: ChannelRow): string {
  const q = JSON.stringify;
  let json = `{"id":${q(channel.id)},"type":"tv","name":${q(channel.name)},"posterShape":"square"`;
  json += ',"behaviorHints":{"isLive":true,"hasScheduledVideos":true}';
  if (channel.logo !== undefined) json += `,"poster":${q(channel.logo)},"logo":${q(channel.logo)}`;
  if (channel.group !== undefined) json += `,"genres":[${q(channel.group)}]`;
  if (channel.number !== undefined) json += `,"description":${q(`Channel ${channel.number}`)}`;
  return `${json},"videos":`;
}

const HTTP = /^https?:\/\//i;

/**
 * The playable entries of a channel, in the order and with the marks stream health gives them
 * (health-view.ts; as the playlist has them when never checked). Headers a player must send
 * become proxy headers, which the client applies only to streams marked notWebReady (it plays
 * those through its streaming server). With a relay, the streams it carries come first, as its
 * links (and, with keepDirect, as they are after all of them).
 * @example channelStreams(channel, [{ url: 'https://x/1.m3u8' }], 'Marquee')[0].url
 */
export function channelStreams(
  channel: ChannelRow,
  rows: readonly StreamRow[],
  addonName: string,
  health: HealthServing = {},
  now = Date.now(),
  relay?: { readonly relay: StreamRelay; readonly origin: string },
): Stream[] {
  const served = orderByHealth(rows, health);
  const direct: Stream[] = [];
  const relayed: Stream[] = [];
  for (const [i, { row, offlineSince }] of served.entries()) {
    const label = row.name !== undefined && row.name !== '' ? row.name : channel.name;
    const numbered = served.length > 1 ? `${label} (${i + 1}/${served.length})` : label;
    const description = offlineSince === undefined ? numbered : `${numbered}\n${offlineNote(offlineSince, now)}`;
    // A channel several sources carry: each stream under its source, so another can be picked.
    const name = row.source ?? addonName;
    const link = relay?.relay.link(channel, row, relay.origin);
    // Relayed: the relay sends the headers upstream, so the player needs none (no proxyHeaders, no notWebReady).
    if (link !== undefined) relayed.push({ name, description, url: link });
    if (link !== undefined && !relay?.relay.keepDirect) continue;
    const stream: Stream = {
      name,
      description: link === undefined ? description : `${description}\ndirect`,
      url: row.url,
    };
    const hints = playbackHints(row.url, row.userAgent, row.referrer);
    if (hints !== undefined) stream.behaviorHints = hints;
    direct.push(stream);
  }
  return relayed.length === 0 ? direct : [...relayed, ...direct];
}

/**
 * What a player needs told about a URL: headers it must send become proxy headers, which the
 * client applies only to streams marked notWebReady (it plays those through its streaming
 * server); rtmp://, udp://, rtsp:// are notWebReady too (a browser cannot open them).
 */
export function playbackHints(url: string, userAgent?: string, referrer?: string): Stream['behaviorHints'] | undefined {
  const headers: Record<string, string> = {};
  if (userAgent !== undefined) headers['User-Agent'] = userAgent;
  if (referrer !== undefined) headers.Referer = referrer;
  if (Object.keys(headers).length > 0) return { notWebReady: true, proxyHeaders: { request: headers } };
  if (!HTTP.test(url)) return { notWebReady: true };
  return undefined;
}
