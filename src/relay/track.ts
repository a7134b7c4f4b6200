/**
 * One of a session's tracks (a variant or rendition of the relay's master playlist): a bounded
 * live window of segments with the relay's own sequence numbers. Segments are filled by the
 * session's upstream reader: cut from a live MPEG-TS as it arrives (the newest is open, and
 * continuous viewers read it as it grows), or fetched once from an HLS upstream when first asked.
 * The window keeps `keep` segments (the playlist lists the newest `listed` of them) and at most
 * `maxBytes`: older segments go, however many viewers there are, so memory never grows with them.
 */
import { type ListedSegment, mediaPlaylist } from './hls-write.js';

export interface Segment {
  readonly seq: number;
  readonly discontinuity: boolean;
  /** Seconds; set when the segment is complete. */
  duration: number;
  /** All its bytes are in. */
  complete: boolean;
  /** It could not be fetched: answered 404 (players skip it). */
  failed: boolean;
  /** Its bytes so far, in order (shared with other tracks' copies: never written into). */
  readonly chunks: Buffer[];
  bytes: number;
  /** `ts`, `aac`, `mp4`, `m4s`…: the extension of its relay URI. */
  readonly ext: string;
  readonly contentType: string;
  readonly keyTag?: string;
  readonly mapTag?: string;
  readonly dateTime?: string;
  /** An HLS segment not fetched yet: fetches it (once, whoever asks). */
  load?: () => Promise<void>;
}

export interface TrackOptions {
  /** Segments listed in the playlist. Default 6. */
  readonly listed?: number;
  /** Segments kept (listed and older), for players a little behind. Default listed + 4. */
  readonly keep?: number;
  /** Bytes the window holds at most. */
  readonly maxBytes: number;
  /** The first sequence number. Default: the clock in seconds, so a new session does not reuse an old one's. */
  readonly firstSeq?: number;
}

export type NewSegment = Omit<Segment, 'seq' | 'complete' | 'failed' | 'chunks' | 'bytes' | 'duration'> & {
  readonly duration?: number;
};

export class Track {
  readonly #segments: Segment[] = [];
  readonly #listed: number;
  readonly #keep: number;
  readonly #maxBytes: number;
  #nextSeq: number;
  #discontinuitySequence = 0;
  #ended = false;
  #bytes = 0;
  #playlist: string | undefined;
  #waiters: (() => void)[] = [];
  /** When a viewer last asked for this track (ms): tracks nobody watches are not fetched ahead. */
  askedAt = 0;

  constructor(options: TrackOptions) {
    this.#listed = options.listed ?? 6;
    this.#keep = Math.max(this.#listed, options.keep ?? this.#listed + 4);
    this.#maxBytes = options.maxBytes;
    this.#nextSeq = options.firstSeq ?? Math.floor(Date.now() / 1000);
  }

  get ended(): boolean {
    return this.#ended;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Starts a segment (complete at once when it is fetched later: `load`). */
  add(fields: NewSegment): Segment {
    const segment: Segment = {
      ...fields,
      seq: this.#nextSeq++,
      duration: fields.duration ?? 0,
      complete: fields.load !== undefined,
      failed: false,
      chunks: [],
      bytes: 0,
    };
    this.#segments.push(segment);
    this.#evict();
    this.#changed();
    return segment;
  }

  /** More bytes of a segment (the open one, or a fetched one). */
  write(segment: Segment, chunk: Buffer): void {
    segment.chunks.push(chunk);
    segment.bytes += chunk.length;
    if (this.#holds(segment)) this.#bytes += chunk.length;
    this.#evict();
    this.#wake();
  }

  /** The open segment is complete, `seconds` long. */
  close(segment: Segment, seconds: number): void {
    segment.duration = seconds;
    segment.complete = true;
    this.#changed();
  }

  /** A segment that was open or not fetched will have no (more) bytes. */
  fail(segment: Segment): void {
    segment.failed = true;
    segment.complete = true;
    const at = this.#segments.indexOf(segment);
    if (at !== -1 && segment.duration === 0) {
      // An open segment cut short has nothing worth listing.
      this.#segments.splice(at, 1);
      this.#bytes -= segment.bytes;
    }
    this.#changed();
  }

  /** No more segments: the playlist ends (EXT-X-ENDLIST). */
  end(): void {
    const open = this.#segments.at(-1);
    if (open && !open.complete) this.fail(open);
    this.#ended = true;
    this.#changed();
  }

  /** The segment `seq`, while it is kept. */
  find(seq: number): Segment | undefined {
    const first = this.#segments[0];
    if (first === undefined) return undefined;
    const s = this.#segments[seq - first.seq];
    return s?.seq === seq ? s : this.#segments.find((x) => x.seq === seq);
  }

  /** The segment after `seq`, if one has started. */
  after(seq: number): Segment | undefined {
    return this.#segments.find((s) => s.seq > seq);
  }

  /** The newest segment (the open one of a live MPEG-TS): where a joining continuous viewer starts. */
  newest(): Segment | undefined {
    return this.#segments.at(-1);
  }

  /** Complete segments listed in the playlist. */
  listed(): Segment[] {
    // A fetched segment that failed stays listed (asked again, it is fetched again).
    const complete = this.#segments.filter((s) => s.complete && s.duration > 0);
    return complete.slice(-this.#listed);
  }

  /** The media playlist, its URIs `uriOf(segment)`; written once per change. */
  playlist(uriOf: (segment: Segment) => string): string {
    if (this.#playlist !== undefined) return this.#playlist;
    const listed = this.listed();
    const first = listed[0];
    // Discontinuities before the first listed segment have left the window.
    let evicted = this.#discontinuitySequence;
    for (const s of this.#segments) {
      if (s === first) break;
      if (s.discontinuity) evicted++;
    }
    const entries: ListedSegment[] = listed.map((s) => ({
      seq: s.seq,
      duration: s.duration,
      discontinuity: s.discontinuity,
      uri: uriOf(s),
      ...(s.keyTag !== undefined ? { keyTag: s.keyTag } : {}),
      ...(s.mapTag !== undefined ? { mapTag: s.mapTag } : {}),
      ...(s.dateTime !== undefined ? { dateTime: s.dateTime } : {}),
    }));
    this.#playlist = mediaPlaylist(entries, { discontinuitySequence: evicted, ended: this.#ended });
    return this.#playlist;
  }

  /** Resolves at the next change (a segment started, grew, completed, or the track ended). */
  changed(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Drops every segment's bytes (the session is closing). */
  clear(): void {
    this.#segments.length = 0;
    this.#bytes = 0;
    this.#ended = true;
    this.#changed();
  }

  #holds(segment: Segment): boolean {
    return this.#segments.includes(segment);
  }

  #changed(): void {
    this.#playlist = undefined;
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    if (waiters.length === 0) return;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Older segments go past `keep`, or past `maxBytes` (the newest two always stay). */
  #evict(): void {
    const segments = this.#segments;
    while (segments.length > this.#keep + 1 || (this.#bytes > this.#maxBytes && segments.length > 2)) {
      const gone = segments.shift()!;
      this.#bytes -= gone.bytes;
      if (gone.discontinuity) this.#discontinuitySequence++;
      this.#playlist = undefined;
    }
  }
}
