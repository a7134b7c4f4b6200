import { describe, expect, it } from 'vitest';
import { pmtPacket, tsStream, VIDEO_PID } from '../../test/helpers/ts-stream.js';
import { pesPayload, pesPts, startsDecoding } from './pes.js';
import { parsePmt, patProgram, SectionReader } from './psi.js';
import { type SegmentSink, TsSegmenter } from './segmenter.js';
import { PACKET, payloadOffset, pidOf, randomAccess, unitStarts } from './ts-packet.js';

interface Cut {
  discontinuity: boolean;
  bytes: Buffer;
  seconds?: number;
}

function collect(): { sink: SegmentSink; segments: Cut[]; codecs: string[] } {
  const segments: Cut[] = [];
  const codecs: string[] = [];
  let parts: Buffer[] = [];
  const sink: SegmentSink = {
    open: ({ discontinuity }) => {
      parts = [];
      segments.push({ discontinuity, bytes: Buffer.alloc(0) });
    },
    write: (bytes) => {
      parts.push(Buffer.from(bytes));
      segments.at(-1)!.bytes = Buffer.concat(parts);
    },
    close: (seconds) => {
      segments.at(-1)!.seconds = seconds;
    },
    program: (streams) => codecs.push(streams.map((s) => s.codec).join('+')),
  };
  return { sink, segments, codecs };
}

/** The first video PES of a segment: its PTS and whether it is a keyframe. */
function firstVideo(bytes: Buffer): { pts?: number; key: boolean } | undefined {
  for (let o = 0; o + PACKET <= bytes.length; o += PACKET) {
    if (pidOf(bytes, o) !== VIDEO_PID || !unitStarts(bytes, o)) continue;
    const payload = payloadOffset(bytes, o);
    const es = pesPayload(bytes, payload, o + PACKET);
    return { pts: pesPts(bytes, payload, o + PACKET), key: startsDecoding(bytes, es, o + PACKET, 'h264') };
  }
  return undefined;
}

function feed(segmenter: TsSegmenter, stream: Buffer, chunk: number): void {
  for (let at = 0; at < stream.length; at += chunk) segmenter.push(stream.subarray(at, at + chunk));
}

describe('TS packets and tables', () => {
  it('reads the PAT, the PMT and a PES header', () => {
    const stream = tsStream({ frames: 1 });
    const pat = new SectionReader().push(stream, 0)!;
    expect(patProgram(pat)).toBe(0x1000);
    const pmt = parsePmt(new SectionReader().push(stream, PACKET)!)!;
    expect(pmt.pcrPid).toBe(VIDEO_PID);
    expect(pmt.streams.map((s) => [s.pid, s.codec, s.kind])).toEqual([
      [0x100, 'h264', 'video'],
      [0x101, 'aac', 'audio'],
    ]);
    expect(randomAccess(stream, 2 * PACKET)).toBe(true);
    expect(firstVideo(stream)).toEqual({ pts: 900_000, key: true });
  });

  it('names AC-3 audio, which browsers do not play', () => {
    const pmt = pmtPacket(0x81);
    expect(parsePmt(new SectionReader().push(pmt, 0)!)!.streams[1]!.codec).toBe('ac3');
  });
});

describe('TsSegmenter', () => {
  it('cuts at keyframes of about 2 s, each segment starting with PAT, PMT and a keyframe', () => {
    const { sink, segments, codecs } = collect();
    const segmenter = new TsSegmenter(sink);
    // 10 s at 25 fps, a keyframe a second; chunks of odd sizes, as sockets give them.
    feed(segmenter, tsStream({ frames: 250 }), 1_000);
    segmenter.end();
    expect(codecs).toEqual(['h264+aac']);
    expect(segments).toHaveLength(5);
    for (const [i, s] of segments.entries()) {
      expect(s.bytes.length % PACKET).toBe(0);
      expect(pidOf(s.bytes, 0)).toBe(0);
      expect(pidOf(s.bytes, PACKET)).toBe(0x1000);
      expect(firstVideo(s.bytes)).toEqual({ pts: 900_000 + i * 180_000, key: true });
      expect(s.seconds).toBeCloseTo(2, 1);
      expect(s.discontinuity).toBe(false);
    }
  });

  it('finds keyframes in the access unit when the stream never sets the random-access indicator', () => {
    const { sink, segments } = collect();
    const segmenter = new TsSegmenter(sink);
    feed(segmenter, tsStream({ frames: 150, rai: false, gop: 50 }), 4_096);
    segmenter.end();
    expect(segments.map((s) => Math.round(s.seconds!))).toEqual([2, 2, 2]);
    for (const s of segments) expect(firstVideo(s.bytes)?.key).toBe(true);
  });

  it('drops what comes before the first keyframe', () => {
    const { sink, segments } = collect();
    const segmenter = new TsSegmenter(sink);
    const stream = tsStream({ frames: 80 });
    // Join mid-stream, mid-packet: 10 frames and a half packet in.
    feed(segmenter, stream.subarray(31 * PACKET + 90), 2_000);
    segmenter.end();
    expect(firstVideo(segments[0]!.bytes)).toEqual({ pts: 900_000 + 25 * 3600, key: true });
  });

  it('marks the segment after a clock jump as discontinuous', () => {
    const { sink, segments } = collect();
    const segmenter = new TsSegmenter(sink);
    feed(segmenter, tsStream({ frames: 200, jumpAt: 110, jumpTicks: 90_000 * 3600 }), 7_000);
    segmenter.end();
    const marked = segments.filter((s) => s.discontinuity);
    expect(marked).toHaveLength(1);
    // The segment that broke ended at the jump: frames 100-109.
    const broken = segments[segments.indexOf(marked[0]!) - 1]!;
    expect(broken.seconds).toBeCloseTo(0.4, 1);
    expect(firstVideo(marked[0]!.bytes)?.pts).toBe(900_000 + 125 * 3600 + 90_000 * 3600);
  });

  it('starts a discontinuous segment after restart (a new upstream)', () => {
    const { sink, segments } = collect();
    const segmenter = new TsSegmenter(sink);
    feed(segmenter, tsStream({ frames: 60 }), 3_000);
    segmenter.restart();
    feed(segmenter, tsStream({ frames: 60, startPts: 50_000 }), 3_000);
    segmenter.end();
    expect(segments.map((s) => s.discontinuity)).toEqual([false, false, true, false]);
    expect(firstVideo(segments[2]!.bytes)?.pts).toBe(50_000);
  });

  it('keeps in step through garbage between packets', () => {
    const { sink, segments } = collect();
    const segmenter = new TsSegmenter(sink);
    const stream = tsStream({ frames: 100 });
    const damaged = Buffer.concat([
      stream.subarray(0, 40 * PACKET),
      Buffer.from('garbage'),
      stream.subarray(40 * PACKET),
    ]);
    feed(segmenter, damaged, 5_000);
    segmenter.end();
    expect(segments).toHaveLength(2);
    for (const s of segments) expect(s.bytes.length % PACKET).toBe(0);
  });
});
