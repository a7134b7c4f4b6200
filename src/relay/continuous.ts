/**
 * A continuous MPEG-TS viewer: the bytes of a track's segments in order, starting at the start of
 * the newest one (the last keyframe, with PAT and PMT), then as they arrive. The viewer pulls at
 * its own pace (the adapter pulls the next chunk once the socket took the last one); one that
 * falls more than `maxLag` segments behind, or whose segment left the window, is moved to the
 * newest segment's start: it skips ahead to the last keyframe, and never holds the others back or
 * makes the window grow.
 */
import type { Segment, Track } from './track.js';

export interface ContinuousOptions {
  /** Segments a viewer may fall behind the newest before it skips ahead. Default 2. */
  readonly maxLag?: number;
  /** Called each time the viewer skips ahead. */
  readonly onSkip?: () => void;
  /** Called with each chunk handed out. */
  readonly onBytes?: (bytes: number) => void;
}

/**
 * @example for await (const chunk of continuous(track)) socket.write(chunk)
 */
export async function* continuous(track: Track, options: ContinuousOptions = {}): AsyncGenerator<Buffer> {
  const maxLag = options.maxLag ?? 2;
  let segment: Segment | undefined;
  let index = 0;
  for (;;) {
    const newest = track.newest();
    if (segment === undefined) {
      if (newest === undefined) {
        if (track.ended) return;
        await track.changed();
        continue;
      }
      segment = newest;
      index = 0;
    } else if (track.find(segment.seq) !== segment || (newest !== undefined && newest.seq - segment.seq > maxLag)) {
      // Too far behind: back to the last keyframe.
      segment = newest;
      index = 0;
      options.onSkip?.();
      if (segment === undefined) continue;
    }
    if (segment.load !== undefined && segment.chunks.length === 0 && !segment.failed) await segment.load();
    if (index < segment.chunks.length) {
      const chunk = segment.chunks[index++]!;
      options.onBytes?.(chunk.length);
      yield chunk;
      continue;
    }
    if (segment.complete) {
      const next = track.after(segment.seq);
      if (next !== undefined) {
        segment = next;
        index = 0;
        continue;
      }
    }
    if (track.ended) return;
    await track.changed();
  }
}
