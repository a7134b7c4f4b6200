/**
 * A live MPEG-TS upstream into a session's tracks: the bytes go through `stream.pipeline` into the
 * segmenter (so an upstream error, a stall or a close ends both sides, and the socket is released),
 * and the segmenter's segments are written to every track (a session that started on an HLS
 * upstream with several variants and failed over to a TS stream serves it on each of them; the
 * bytes are shared, not copied).
 */
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ElementaryStream } from './psi.js';
import type { SegmentSink, TsSegmenter } from './segmenter.js';
import type { Segment, Track } from './track.js';

/** Writes the segmenter's output into `tracks()` (read at each segment start: the tracks may be set later). */
export function trackSink(
  tracks: () => readonly Track[],
  events: {
    onSegment?: (seconds: number, bytes: number) => void;
    onProgram?: (streams: readonly ElementaryStream[]) => void;
  },
): SegmentSink {
  let open: { track: Track; segment: Segment }[] = [];
  return {
    open({ discontinuity }) {
      open = tracks().map((track) => ({
        track,
        segment: track.add({ discontinuity, ext: 'ts', contentType: 'video/mp2t' }),
      }));
    },
    write(bytes) {
      for (const { track, segment } of open) track.write(segment, bytes);
    },
    close(seconds) {
      const bytes = open[0]?.segment.bytes ?? 0;
      for (const { track, segment } of open) track.close(segment, seconds);
      open = [];
      events.onSegment?.(seconds, bytes);
    },
    program(streams) {
      events.onProgram?.(streams);
    },
  };
}

/**
 * Feed `body` to `segmenter` until the upstream ends (resolves) or fails (rejects).
 * @example await runTsFeed(live.body, segmenter, (n) => (bytesIn += n))
 */
export function runTsFeed(body: Readable, segmenter: TsSegmenter, onBytes: (bytes: number) => void): Promise<void> {
  return pipeline(
    body,
    new Writable({
      // One chunk at a time: the segmenter keeps up with any upstream (it only slices).
      highWaterMark: 1,
      objectMode: true,
      write(chunk: Buffer, _encoding, done) {
        onBytes(chunk.length);
        try {
          segmenter.push(chunk);
          done();
        } catch (error) {
          done(error as Error);
        }
      },
    }),
  );
}
