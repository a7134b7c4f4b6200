/**
 * Live MPEG-TS cut into HLS segments without transcoding. A segment starts at a keyframe of the
 * program's video (the random-access indicator, or the access unit itself for a stream that never
 * sets it: pes.ts), or at an audio PES for a stream without video, once it has run `targetSeconds`;
 * each starts with the latest PAT and PMT, so a player can start at any of them. Where the timeline
 * breaks (a PTS jump, the PCR's discontinuity indicator, a new upstream: `restart`), the segment
 * ends, bytes are dropped until the next keyframe, and the next segment is marked discontinuous.
 *
 * Bytes are passed on as slices of the chunks given (no copy per packet); only a partial packet at
 * a chunk's end is copied, to be joined with the next chunk.
 */
import { pesPayload, pesPts, startsDecoding } from './pes.js';
import { type ElementaryStream, parsePmt, patProgram, SectionReader } from './psi.js';
import {
  CLOCK_HZ,
  clockDiff,
  discontinuityFlag,
  PACKET,
  payloadOffset,
  pidOf,
  randomAccess,
  SYNC,
  syncOffset,
  unitStarts,
} from './ts-packet.js';

/** Where the segmenter's output goes. */
export interface SegmentSink {
  /** A segment starts; its bytes follow (PAT and PMT first). */
  open(start: { readonly discontinuity: boolean }): void;
  write(bytes: Buffer): void;
  /** The segment that was open ends, `seconds` long. */
  close(seconds: number): void;
  /** The program's streams changed (or were first read). */
  program?(streams: readonly ElementaryStream[]): void;
}

export interface SegmenterOptions {
  /** Segments run at least this long, ending at the first keyframe after it. Default 2. */
  readonly targetSeconds?: number;
  /** A segment with no keyframe for this long ends at the next PES start anyway. Default 10. */
  readonly maxSeconds?: number;
  /** A segment ends at the next PES start once it holds this many bytes. Default 16 MiB. */
  readonly maxBytes?: number;
  /** Milliseconds now (for streams without timestamps); default performance.now. */
  readonly clock?: () => number;
}

/** A jump of the clock by more than this (or backwards by more than BACKWARDS) breaks the timeline. */
const FORWARD_JUMP = 5 * CLOCK_HZ;
const BACKWARDS = CLOCK_HZ / 2;
const EMPTY = Buffer.alloc(0);

export class TsSegmenter {
  readonly #sink: SegmentSink;
  readonly #target: number;
  readonly #maxTicks: number;
  readonly #maxBytes: number;
  readonly #clock: () => number;
  #carry: Buffer | undefined;
  #pat = new SectionReader();
  #pmt = new SectionReader();
  #pmtPid = -1;
  #patPackets: Buffer[] = [];
  #pmtPackets: Buffer[] = [];
  #gathering = new Map<number, Buffer[]>();
  #timing: ElementaryStream | undefined;
  #pcrPid = -1;
  #program = '';
  /** The timing PID has set the random-access indicator at least once: trust it alone. */
  #raiSeen = false;
  #open = false;
  #discontinuity = false;
  #startPts: number | undefined;
  #maxPts: number | undefined;
  #lastPts: number | undefined;
  #frameTicks = 3_600;
  #startWall = 0;
  #bytes = 0;
  /** The chunk being cut, and where its bytes not yet passed on start. */
  #buf: Buffer = EMPTY;
  #from = 0;

  constructor(sink: SegmentSink, options: SegmenterOptions = {}) {
    this.#sink = sink;
    this.#target = Math.round((options.targetSeconds ?? 2) * CLOCK_HZ - CLOCK_HZ / 20);
    this.#maxTicks = (options.maxSeconds ?? 10) * CLOCK_HZ;
    this.#maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.#clock = options.clock ?? (() => performance.now());
  }

  /** Cut and pass on the bytes of `chunk` (any size, any alignment). */
  push(chunk: Buffer): void {
    const b = this.#carry ? Buffer.concat([this.#carry, chunk]) : chunk;
    this.#carry = undefined;
    let o = b[0] === SYNC ? 0 : syncOffset(b);
    if (o === -1) {
      // No packet boundary yet: keep the tail, where one may start.
      this.#carry = Buffer.from(b.subarray(Math.max(0, b.length - 3 * PACKET)));
      return;
    }
    this.#buf = b;
    this.#from = o;
    while (o + PACKET <= b.length) {
      if (b[o] !== SYNC) {
        // Sync lost (a damaged packet): what was before it is kept, the next boundary is looked for.
        this.#flushTo(o);
        const next = syncOffset(b, o + 1);
        o = next === -1 ? b.length : next;
        this.#from = o;
        continue;
      }
      this.#packet(b, o);
      o += PACKET;
    }
    this.#flushTo(o);
    this.#buf = EMPTY;
    if (o < b.length) this.#carry = Buffer.from(b.subarray(o));
  }

  /** The upstream changed or reconnected: what comes next is a new timeline (and maybe a new program). */
  restart(): void {
    this.#endSegment();
    this.#carry = undefined;
    this.#discontinuity = true;
    this.#lastPts = undefined;
    this.#raiSeen = false;
    this.#timing = undefined;
    this.#pmtPid = -1;
    this.#pcrPid = -1;
    this.#program = '';
    this.#pat = new SectionReader();
    this.#pmt = new SectionReader();
    this.#patPackets = [];
    this.#pmtPackets = [];
    this.#gathering.clear();
  }

  /** The upstream ended: the open segment is finished as it is. */
  end(): void {
    this.#endSegment();
    this.#carry = undefined;
  }

  /** Passes on the bytes of the current chunk up to `o` (to the open segment, if any). */
  #flushTo(o: number): void {
    if (this.#open && o > this.#from) {
      this.#bytes += o - this.#from;
      this.#sink.write(this.#buf.subarray(this.#from, o));
    }
    this.#from = o;
  }

  #startSegment(): void {
    this.#open = true;
    this.#bytes = 0;
    this.#startWall = this.#clock();
    this.#sink.open({ discontinuity: this.#discontinuity });
    this.#discontinuity = false;
    const psi = [...this.#patPackets, ...this.#pmtPackets];
    if (psi.length > 0) {
      const head = Buffer.concat(psi);
      this.#bytes += head.length;
      this.#sink.write(head);
    }
  }

  #endSegment(): void {
    if (!this.#open) return;
    this.#open = false;
    const ticks =
      this.#startPts !== undefined && this.#maxPts !== undefined
        ? clockDiff(this.#maxPts, this.#startPts) + this.#frameTicks
        : ((this.#clock() - this.#startWall) / 1000) * CLOCK_HZ;
    this.#sink.close(Math.max(ticks, 1) / CLOCK_HZ);
    this.#startPts = undefined;
    this.#maxPts = undefined;
  }

  /** One packet: part of the open segment, the start of a new one, or dropped (no segment open). */
  #packet(b: Buffer, o: number): void {
    const pid = pidOf(b, o);
    if (pid === 0 || pid === this.#pmtPid) {
      this.#psi(b, o, pid);
      this.#keep(o);
      return;
    }
    if (pid === this.#pcrPid && discontinuityFlag(b, o) && this.#open) {
      // The program clock starts again: the timeline breaks here.
      this.#break(o);
      this.#lastPts = undefined;
    }
    const timing = this.#timing;
    if (timing === undefined || pid !== timing.pid || !unitStarts(b, o)) {
      this.#keep(o);
      return;
    }

    const rai = randomAccess(b, o);
    if (rai) this.#raiSeen = true;
    const payload = payloadOffset(b, o);
    const end = o + PACKET;
    const pts = payload === -1 ? undefined : pesPts(b, payload, end);
    let key = timing.kind === 'audio' || rai;
    if (!key && !this.#raiSeen && payload !== -1) {
      const es = pesPayload(b, payload, end);
      key = es !== -1 && startsDecoding(b, es, end, timing.codec);
    }
    if (pts !== undefined && this.#lastPts !== undefined) {
      const step = clockDiff(pts, this.#lastPts);
      if (step > FORWARD_JUMP || step < -BACKWARDS) this.#break(o);
      else if (step > 0 && step < CLOCK_HZ) this.#frameTicks = step;
    }
    if (pts !== undefined) this.#lastPts = pts;

    if (!this.#open) {
      if (key) this.#startAt(o, pts);
      else this.#keep(o);
      return;
    }
    const elapsed =
      pts !== undefined && this.#startPts !== undefined
        ? clockDiff(pts, this.#startPts)
        : ((this.#clock() - this.#startWall) / 1000) * CLOCK_HZ;
    const due = key ? elapsed >= this.#target : elapsed >= this.#maxTicks || this.#bytes >= this.#maxBytes;
    if (due) {
      this.#flushTo(o);
      this.#endSegment();
      this.#startAt(o, pts);
      return;
    }
    if (pts !== undefined && (this.#maxPts === undefined || clockDiff(pts, this.#maxPts) > 0)) this.#maxPts = pts;
  }

  /** The packet at `o` stays with the open segment, or is dropped when none is open. */
  #keep(o: number): void {
    if (!this.#open) this.#from = o + PACKET;
  }

  /** A segment starts with the packet at `o`. */
  #startAt(o: number, pts: number | undefined): void {
    this.#from = o;
    this.#startPts = pts;
    this.#maxPts = pts;
    this.#startSegment();
  }

  /** The timeline breaks before the packet at `o`: the open segment ends, the next one is discontinuous. */
  #break(o: number): void {
    this.#flushTo(o);
    this.#endSegment();
    this.#discontinuity = true;
  }

  #psi(b: Buffer, o: number, pid: number): void {
    // The packets of the section being read, kept to start each segment with.
    if (unitStarts(b, o)) this.#gathering.set(pid, []);
    const packets = this.#gathering.get(pid);
    if (packets !== undefined && packets.length < 8) packets.push(Buffer.from(b.subarray(o, o + PACKET)));
    if (pid === 0) {
      const section = this.#pat.push(b, o);
      if (section === undefined) return;
      this.#patPackets = packets ?? [];
      const pmtPid = patProgram(section);
      if (pmtPid !== undefined && pmtPid !== this.#pmtPid) {
        this.#pmtPid = pmtPid;
        this.#gathering.delete(pmtPid);
      }
      return;
    }
    const section = this.#pmt.push(b, o);
    if (section === undefined) return;
    const map = parsePmt(section);
    if (map === undefined) return;
    this.#pmtPackets = packets ?? [];
    const program = map.streams.map((s) => `${s.pid}:${s.type}`).join(',');
    if (program === this.#program) return;
    if (this.#program !== '' && this.#open) {
      // Other streams from here on: a new timeline for the player.
      this.#break(o);
      this.#lastPts = undefined;
    }
    this.#program = program;
    this.#pcrPid = map.pcrPid;
    this.#timing = map.streams.find((s) => s.kind === 'video') ?? map.streams.find((s) => s.kind === 'audio');
    this.#raiSeen = false;
    this.#sink.program?.(map.streams);
  }
}
