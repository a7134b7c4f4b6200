/**
 * Following an HLS upstream for a session's tracks: each track's upstream media playlist is read
 * again every half target duration while a viewer watches that track (the first track always: it
 * tells whether the upstream lives), and its new segments are added to the track with the relay's
 * own numbers, each fetched once when first asked (the newest ahead of time). Keys and init
 * segments become relay ids. The upstream stalls when no new segment comes for
 * max(relay.stallSeconds, three target durations) or its playlist cannot be read for that long;
 * it ends with EXT-X-ENDLIST: either way the session fails over.
 */
import { MarqueeError } from '../errors.js';
import { FETCH_LIMITS } from './fetch.js';
import { type MasterPlaylist, type MediaPlaylist, type MediaSegment, parseHls } from './hls-parse.js';
import { withUri, writeAttributes } from './hls-write.js';
import type { FetchBytes, Resources } from './resources.js';
import type { Segment, Track } from './track.js';

/** What a relay track stands for, to find it again in another upstream's master playlist. */
export type TrackPlan =
  | { readonly kind: 'variant'; readonly bandwidth: number }
  | { readonly kind: 'rendition'; readonly type: string; readonly name?: string; readonly language?: string };

export interface HlsFeedOptions {
  readonly tracks: readonly Track[];
  readonly plans: readonly TrackPlan[];
  /** The upstream's first answer, already read. */
  readonly first: { readonly playlist: MasterPlaylist | MediaPlaylist; readonly url: string };
  readonly fetchPlaylist: (url: string) => Promise<{ text: string; url: string }>;
  readonly fetchBytes: FetchBytes;
  readonly resources: Resources;
  readonly stallMs: number;
  /** Segments a first read adds (the live edge). */
  readonly listed: number;
  /** The first segments continue another upstream's timeline (a failover). */
  readonly discontinuity: boolean;
  /** The upstream failed: `timeout` when it stalled. Called once. */
  readonly onFail: (error: Error, state: 'dead' | 'timeout') => void;
  readonly onBytes: (bytes: number) => void;
  /** A segment was added (the upstream is alive). */
  readonly onSegment?: () => void;
  readonly now?: () => number;
}

/**
 * The relay's tracks of an upstream's first playlist: its variants, then its renditions that have
 * a URI (a media playlist is one track); and the master playlist they come from.
 */
export function planTracks(playlist: MasterPlaylist | MediaPlaylist): { plans: TrackPlan[]; master?: MasterPlaylist } {
  if (playlist.kind === 'media') return { plans: [{ kind: 'variant', bandwidth: 0 }] };
  const plans: TrackPlan[] = playlist.variants.map((v) => ({ kind: 'variant', bandwidth: v.bandwidth }));
  for (const r of playlist.renditions) {
    if (r.uri === undefined) continue;
    const name = attr(r.attributes, 'NAME');
    const language = attr(r.attributes, 'LANGUAGE');
    plans.push({
      kind: 'rendition',
      type: r.type,
      ...(name !== undefined ? { name } : {}),
      ...(language !== undefined ? { language } : {}),
    });
  }
  return { plans, master: playlist };
}

/** A track nobody asked for in this long is not read again (the first track always is). */
const WATCHED_MS = 30_000;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ts: 'video/mp2t',
  aac: 'audio/aac',
  mp3: 'audio/mpeg',
  ac3: 'audio/ac3',
  ec3: 'audio/eac3',
  mp4: 'video/mp4',
  m4s: 'video/iso.segment',
  m4a: 'audio/mp4',
  m4v: 'video/mp4',
  vtt: 'text/vtt',
  webvtt: 'text/vtt',
};

/** The relay extension and content type of a segment, by its URI's. */
export function segmentType(uri: string): { ext: string; contentType: string } {
  let ext = 'ts';
  try {
    const found = /\.([A-Za-z0-9]{2,6})$/.exec(new URL(uri).pathname)?.[1]?.toLowerCase();
    if (found !== undefined && CONTENT_TYPES[found] !== undefined) ext = found;
  } catch {}
  return { ext, contentType: CONTENT_TYPES[ext]! };
}

/**
 * The upstream media playlist each track follows: a variant the nearest in bandwidth, a rendition
 * of the same type and language (else name, else the first of its type), else the nearest variant.
 */
export function mapTracks(plans: readonly TrackPlan[], first: MasterPlaylist | MediaPlaylist, url: string): string[] {
  if (first.kind === 'media') return plans.map(() => url);
  const variants = first.variants;
  const nearest = (bandwidth: number) =>
    variants.reduce((best, v) => (Math.abs(v.bandwidth - bandwidth) < Math.abs(best.bandwidth - bandwidth) ? v : best))
      .uri;
  return plans.map((plan) => {
    if (plan.kind === 'variant') return nearest(plan.bandwidth);
    const same = first.renditions.filter((r) => r.type === plan.type && r.uri !== undefined);
    const pick =
      same.find((r) => plan.language !== undefined && attr(r.attributes, 'LANGUAGE') === plan.language) ??
      same.find((r) => plan.name !== undefined && attr(r.attributes, 'NAME') === plan.name) ??
      same[0];
    return pick?.uri ?? nearest(Number.MAX_SAFE_INTEGER);
  });
}

function attr(list: readonly (readonly [string, string])[], name: string): string | undefined {
  return list.find(([n]) => n === name)?.[1].replace(/^"|"$/g, '');
}

/** A running HLS feed; `stop()` ends its reads. */
export interface HlsFeed {
  stop(): void;
}

export function startHlsFeed(options: HlsFeedOptions): HlsFeed {
  const now = options.now ?? Date.now;
  const urls = mapTracks(options.plans, options.first.playlist, options.first.url);
  let stopped = false;
  let failed = false;
  const timers = new Set<NodeJS.Timeout>();
  const fail = (error: Error, state: 'dead' | 'timeout') => {
    if (failed || stopped) return;
    failed = true;
    options.onFail(error, state);
  };

  options.tracks.forEach((track, index) => {
    const follower = {
      url: urls[index]!,
      lastSeq: -1,
      first: true,
      pending: options.discontinuity,
      lastNewAt: now(),
      lastReadAt: now(),
      target: 2,
    };
    const given = options.first.playlist.kind === 'media' && index === 0 ? options.first : undefined;

    const read = async (): Promise<void> => {
      const answer = given && follower.first ? given : await readMedia(follower.url);
      const media = answer.playlist as MediaPlaylist;
      follower.lastReadAt = now();
      if (media.targetDuration > 0) follower.target = media.targetDuration;
      const segments = media.segments;
      const newest = segments.at(-1)?.seq ?? -1;
      if (follower.lastSeq >= 0 && newest >= 0 && newest < follower.lastSeq - 3) {
        // The sequence went back: the upstream started over (a loop, a restart).
        follower.lastSeq = -1;
        follower.first = true;
        follower.pending = true;
      }
      const fresh = follower.first ? segments.slice(-options.listed) : segments.filter((s) => s.seq > follower.lastSeq);
      follower.first = false;
      for (const s of fresh) {
        addSegment(track, s, follower.pending);
        follower.pending = false;
        follower.lastSeq = s.seq;
      }
      if (fresh.length > 0) {
        follower.lastNewAt = now();
        options.onSegment?.();
        // The newest segment ahead of time, for a track someone watches.
        if (now() - track.askedAt < WATCHED_MS) void track.newest()?.load?.();
      }
      if (media.ended) fail(new MarqueeError('SOURCE_UNREADABLE', 'the stream ended (EXT-X-ENDLIST)'), 'dead');
    };

    const loop = async () => {
      if (stopped || failed) return;
      const watched = index === 0 || now() - track.askedAt < WATCHED_MS;
      if (watched) {
        try {
          await read();
        } catch (error) {
          if (now() - follower.lastReadAt > stallLimit()) fail(asError(error), 'dead');
        }
        if (now() - follower.lastNewAt > stallLimit()) {
          fail(
            new MarqueeError(
              'SOURCE_TIMEOUT',
              `no new segment for ${Math.round((now() - follower.lastNewAt) / 1000)} s (stalled)`,
            ),
            'timeout',
          );
        }
      }
      if (stopped || failed) return;
      const wait = Math.min(5_000, Math.max(500, (follower.target * 1000) / 2));
      const timer = setTimeout(() => {
        timers.delete(timer);
        void loop();
      }, wait);
      timers.add(timer);
    };
    const stallLimit = () => Math.max(options.stallMs, follower.target * 3_000);
    void loop();
  });

  async function readMedia(url: string): Promise<{ playlist: MediaPlaylist; url: string }> {
    const { text, url: answered } = await options.fetchPlaylist(url);
    const playlist = parseHls(text, answered);
    if (playlist === undefined || playlist.kind !== 'media') {
      throw new MarqueeError('SOURCE_INVALID', 'a variant playlist that is not a media playlist');
    }
    return { playlist, url: answered };
  }

  function addSegment(track: Track, s: MediaSegment, discontinuity: boolean): void {
    const { ext, contentType } = segmentType(s.uri);
    const keyTag = s.key ? keyLine(s.key) : undefined;
    const mapId = s.map ? options.resources.id('map', s.map.uri, options.fetchBytes, s.map.range) : undefined;
    let inflight: Promise<void> | undefined;
    const holder: { segment?: Segment } = {};
    const load = (): Promise<void> => {
      const segment = holder.segment!;
      if (segment.chunks.length > 0 || stopped) return Promise.resolve();
      inflight ??= options
        .fetchBytes(s.uri, { maxBytes: FETCH_LIMITS.segmentBytes, ...(s.range ? { range: s.range } : {}) })
        .then(
          (bytes) => {
            segment.failed = false;
            options.onBytes(bytes.length);
            track.write(segment, bytes);
          },
          () => {
            segment.failed = true;
          },
        )
        .finally(() => {
          inflight = undefined;
        });
      return inflight;
    };
    holder.segment = track.add({
      discontinuity: discontinuity || s.discontinuity,
      duration: s.duration > 0 ? s.duration : 0.001,
      ext,
      contentType,
      ...(keyTag !== undefined ? { keyTag } : {}),
      ...(mapId !== undefined ? { mapTag: `#EXT-X-MAP:URI="m${mapId}.mp4"` } : {}),
      ...(s.dateTime !== undefined ? { dateTime: s.dateTime } : {}),
      load,
    });
  }

  function keyLine(key: NonNullable<MediaSegment['key']>): string {
    if (key.uri === undefined) return `#EXT-X-KEY:${writeAttributes(key.attributes)}`;
    const id = options.resources.id('key', key.uri, options.fetchBytes);
    if (id === undefined) return `#EXT-X-KEY:${writeAttributes(key.attributes)}`;
    return `#EXT-X-KEY:${writeAttributes(withUri(key.attributes, `k${id}.key`))}`;
  }

  return {
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
