/**
 * One relayed stream: one upstream reader, however many viewers, its tracks' live windows, and
 * failover. When the upstream ends, fails or stalls (relay.stallSeconds), the session records the
 * failure in stream health and moves to the channel's next stream in health order (wrapping round
 * to the one that failed, last): the playlists go on, after EXT-X-DISCONTINUITY, and viewers never
 * reconnect. A session that went round every stream without a segment ends its playlists. Every
 * upstream holds a slot of each limit it counts against while it is open.
 *
 * Longer than most files (about 380 lines): opening a stream, feeding its tracks, failing over and
 * ending share the session's private state (the current upstream and its generation, the slots,
 * the attempts since the last segment); what stands apart is elsewhere (viewers.ts, feed-ts.ts,
 * feed-hls.ts, upstream.ts).
 */
import { MarqueeError } from '../errors.js';
import type { LiveSource } from '../sources/input/index.js';
import { type HlsFeed, planTracks, startHlsFeed, type TrackPlan } from './feed-hls.js';
import { runTsFeed, trackSink } from './feed-ts.js';
import { fetchBytes, fetchPlaylist, openUpstream, reasonOf, serial, type UpstreamPolicy } from './fetch.js';
import { type MasterPlaylist, parseHls } from './hls-parse.js';
import { rewriteMaster, singleVariant } from './hls-write.js';
import { Resources } from './resources.js';
import { TsSegmenter } from './segmenter.js';
import { type Bucket, LimitRefusal, type SlotHolder, type Slots } from './slots.js';
import { Track } from './track.js';
import type { RelayLimits, RelayLog, RelaySessionInfo, RelayStream, RelayTarget } from './types.js';
import { sniff } from './upstream.js';
import { Viewers } from './viewers.js';

export interface SessionDeps {
  readonly policy: UpstreamPolicy;
  readonly limits: RelayLimits;
  readonly slots: Slots;
  /** The limits a stream of this target counts against. */
  readonly buckets: (stream: RelayStream, target: RelayTarget) => Promise<readonly Bucket[]>;
  /** An upstream failed: recorded in stream health. */
  readonly onFailure: (stream: RelayStream, state: 'dead' | 'timeout', detail: string, target: RelayTarget) => void;
  readonly onClose: (session: Session) => void;
  readonly log: RelayLog;
  readonly now: () => number;
}

const FETCH_TIMEOUT_MS = 20_000;
/** How long after closing an upstream connection another one of its source may open. */
const CLOSE_GRACE_MS = 100;

export class Session implements SlotHolder {
  readonly key: string;
  readonly target: RelayTarget;
  readonly since: number;
  readonly #deps: SessionDeps;
  tracks: Track[] = [];
  #plans: TrackPlan[] = [];
  #master: MasterPlaylist | undefined;
  #kind: 'ts' | 'hls' | undefined;
  #codecs: string | undefined;
  #current = -1;
  #generation = 0;
  #source: LiveSource | undefined;
  #hls: HlsFeed | undefined;
  #segmenter: TsSegmenter | undefined;
  readonly #resources = new Resources();
  readonly #queue = serial();
  /** Streams tried since the last segment came: past the stream count, the session ends. */
  #attempts = 0;
  #failovers = 0;
  #closed = false;
  #ended = false;
  #bandwidth = 0;
  bytesIn = 0;
  bytesOut = 0;
  readonly viewers = new Viewers();
  /** Why the session ended, when it did. */
  error: Error | undefined;

  constructor(target: RelayTarget, deps: SessionDeps) {
    this.key = target.key;
    this.target = target;
    this.#deps = deps;
    this.since = deps.now();
  }

  get channel(): string {
    return this.target.channel.name;
  }

  get ended(): boolean {
    return this.#ended || this.#closed;
  }

  get kind(): 'ts' | 'hls' | undefined {
    return this.#kind;
  }

  /** Nobody has watched since the last sweep (a session still starting is not idle: its first viewer is on the way). */
  idle(): boolean {
    return this.viewers.idle;
  }

  release(): Promise<void> {
    this.#deps.log.info('relay: closing an idle channel to make room for another', { channel: this.channel });
    const closed = this.#closing;
    this.close();
    return closed;
  }

  /**
   * Resolves once the upstream connection read now (if any) is closed, and a moment more: the
   * provider learns of the close a little after it (its own count lags), and a connection opened
   * at once in its place could be counted as a second.
   */
  get #closing(): Promise<void> {
    const closed = this.#source?.closed;
    if (closed === undefined) return Promise.resolve();
    return closed.then(() => new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS)));
  }

  /**
   * Opens the named stream (else the next that opens): throws the named stream's LimitRefusal
   * when no stream could get a connection, else why the named one could not be opened.
   */
  async start(): Promise<void> {
    let first: unknown;
    for (let i = 0; i < this.target.streams.length; i++) {
      try {
        await this.#open(i, false);
        return;
      } catch (error) {
        first ??= error;
        this.#report(i, error);
        if (this.#closed) break;
      }
    }
    this.#end(first instanceof Error ? first : new Error(String(first)));
    throw first;
  }

  /** Resolves true once the first track lists a segment; false when the session ended or `ms` passed. */
  async ready(ms: number): Promise<boolean> {
    const deadline = this.#deps.now() + ms;
    for (;;) {
      const track = this.tracks[0];
      if (track !== undefined && track.listed().length > 0) return true;
      if (this.ended) return false;
      const left = deadline - this.#deps.now();
      if (left <= 0) return false;
      await Promise.race([
        track ? track.changed() : new Promise((resolve) => setTimeout(resolve, 50)),
        new Promise((resolve) => setTimeout(resolve, Math.min(left, 1_000)).unref()),
      ]);
    }
  }

  /** The master playlist for viewer `viewer`: every URI the relay's, under the viewer's path. */
  master(viewer: string): string {
    const uri = (track: number) => `${viewer}/t${track}.m3u8`;
    if (this.#master) return rewriteMaster(this.#master, uri);
    return singleVariant(uri(0), this.#bandwidth > 0 ? this.#bandwidth : 4_000_000);
  }

  /** A key or init segment's bytes. */
  resource(kind: 'key' | 'map', id: number): Promise<Buffer> | undefined {
    return this.#resources.get(kind, id);
  }

  /** A viewer asked for something. */
  touch(viewer: string): void {
    this.viewers.touch(viewer, this.#deps.now());
  }

  /** Viewers gone quiet leave; an idle session closes relay.idleSeconds after its last viewer left. */
  sweep(now: number): void {
    if (this.viewers.sweep(now, Math.max(6_000, 3_000 * this.#targetSeconds()), this.#deps.limits.idleMs)) this.close();
  }

  info(): RelaySessionInfo {
    const stream = this.target.streams[this.#current];
    return {
      channel: this.channel,
      channelId: this.target.channel.id,
      viewers: this.viewers.count,
      ...(stream ? { upstream: stream.label } : {}),
      ...(this.#kind ? { kind: this.#kind } : {}),
      ...(this.#codecs ? { codecs: this.#codecs } : {}),
      bytesIn: this.bytesIn,
      bytesOut: this.bytesOut,
      since: this.since,
      failovers: this.#failovers,
      state: this.ended ? 'ended' : this.#kind === undefined ? 'opening' : 'live',
      ...(this.target.set !== undefined ? { set: this.target.set } : {}),
    };
  }

  /** Stops reading, gives the connection back and drops the buffered segments. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopUpstream();
    for (const track of this.tracks) track.clear();
    this.#deps.onClose(this);
  }

  #targetSeconds(): number {
    const listed = this.tracks[0]?.listed() ?? [];
    return Math.max(this.#deps.limits.segmentSeconds, ...listed.map((s) => s.duration));
  }

  #stopUpstream(): void {
    this.#generation++;
    this.#source?.close();
    this.#source = undefined;
    this.#hls?.stop();
    this.#hls = undefined;
    this.#deps.slots.give(this);
  }

  async #open(index: number, discontinuity: boolean): Promise<void> {
    const stream = this.target.streams[index]!;
    const deps = this.#deps;
    const stopped = () => new MarqueeError('SOURCE_UNREADABLE', 'the session closed while the stream opened');
    // A closed session opens nothing: a provider may count even a connection that is dropped at once.
    if (this.#closed) throw stopped();
    await deps.slots.take(await deps.buckets(stream, this.target), this);
    if (this.#closed) {
      deps.slots.give(this);
      throw stopped();
    }
    const generation = ++this.#generation;
    try {
      const source = await openUpstream(deps.policy, stream.request, stream.request.url, deps.limits.stallMs);
      const opened = await sniff(source);
      if (this.#closed || generation !== this.#generation) {
        if (opened.kind === 'ts') opened.source.close();
        throw stopped();
      }
      if (opened.kind === 'other') {
        throw new MarqueeError('SOURCE_INVALID', `neither MPEG-TS nor HLS (${opened.what}): the relay cannot cut it`, {
          details: { unsupported: true },
        });
      }
      this.#current = index;
      if (opened.kind === 'ts') this.#startTs(opened.source, discontinuity, generation);
      else this.#startHls(opened.text, opened.url, stream, discontinuity, generation);
    } catch (error) {
      if (generation === this.#generation) deps.slots.give(this);
      throw error;
    }
  }

  #startTs(source: LiveSource, discontinuity: boolean, generation: number): void {
    this.#kind = 'ts';
    this.#source = source;
    if (this.tracks.length === 0) {
      this.tracks = [this.#newTrack()];
      this.#plans = [{ kind: 'variant', bandwidth: 0 }];
    }
    if (this.#segmenter === undefined) {
      const sink = trackSink(() => this.tracks, {
        onSegment: (seconds, bytes) => {
          this.#attempts = 0;
          if (seconds > 0.5) this.#bandwidth = Math.round(((bytes * 8) / seconds) * 1.1);
        },
        onProgram: (streams) => {
          this.#codecs = streams
            .filter((s) => s.kind !== 'other')
            .map((s) => s.codec)
            .join('+');
        },
      });
      this.#segmenter = new TsSegmenter(sink, { targetSeconds: this.#deps.limits.segmentSeconds });
    } else if (discontinuity) this.#segmenter.restart();
    const segmenter = this.#segmenter;
    runTsFeed(source.body, segmenter, (n) => {
      this.bytesIn += n;
    }).then(
      () => this.#failed(generation, new MarqueeError('SOURCE_UNREADABLE', 'the stream ended'), 'dead'),
      (error: unknown) =>
        this.#failed(
          generation,
          error instanceof Error ? error : new Error(String(error)),
          (error as { code?: string } | null)?.code === 'SOURCE_TIMEOUT' ? 'timeout' : 'dead',
        ),
    );
  }

  #startHls(text: string, url: string, stream: RelayStream, discontinuity: boolean, generation: number): void {
    const playlist = parseHls(text, url);
    if (playlist === undefined || (playlist.kind === 'master' && playlist.variants.length === 0)) {
      throw new MarqueeError('SOURCE_INVALID', 'an HLS playlist with nothing to play');
    }
    this.#kind = 'hls';
    if (this.tracks.length === 0) {
      const planned = planTracks(playlist);
      this.#plans = planned.plans;
      this.#master = planned.master;
      this.tracks = planned.plans.map(() => this.#newTrack());
    }
    const deps = this.#deps;
    const queued = <T>(job: () => Promise<T>) => this.#queue(job);
    this.#hls = startHlsFeed({
      tracks: this.tracks,
      plans: this.#plans,
      first: { playlist, url },
      fetchPlaylist: (u) => queued(() => fetchPlaylist(deps.policy, stream.request, u, FETCH_TIMEOUT_MS)),
      fetchBytes: (u, o) =>
        queued(() =>
          fetchBytes(deps.policy, stream.request, u, {
            maxBytes: o.maxBytes,
            timeoutMs: FETCH_TIMEOUT_MS,
            ...(o.range ? { range: o.range } : {}),
          }),
        ).then((r) => r.bytes),
      resources: this.#resources,
      stallMs: deps.limits.stallMs,
      listed: deps.limits.windowSegments,
      discontinuity,
      onFail: (error, state) => this.#failed(generation, error, state),
      onBytes: (n) => {
        this.bytesIn += n;
      },
      onSegment: () => {
        this.#attempts = 0;
      },
      now: deps.now,
    });
  }

  #newTrack(): Track {
    const limits = this.#deps.limits;
    return new Track({ listed: limits.windowSegments, maxBytes: limits.bufferBytes });
  }

  /** The upstream of `generation` failed: record it, and move to the next stream. */
  #failed(generation: number, error: Error, state: 'dead' | 'timeout'): void {
    if (this.#closed || generation !== this.#generation) return;
    const stream = this.target.streams[this.#current]!;
    const detail = `relay: ${reasonOf(error)}`;
    this.#deps.onFailure(stream, state, detail, this.target);
    this.#deps.log.warn('relay: upstream failed, moving to the next stream', {
      channel: this.channel,
      upstream: stream.label,
      reason: reasonOf(error),
    });
    // The next connection opens once this one is closed: a provider never counts both.
    const closed = this.#closing;
    this.#stopUpstream();
    void closed.then(() => this.#failover(this.#current));
  }

  async #failover(from: number): Promise<void> {
    const count = this.target.streams.length;
    let last: unknown;
    // The next streams, then round to the one that failed (a stream that ended may open again).
    for (let step = 1; step <= count; step++) {
      if (this.#closed) return;
      if (++this.#attempts > count + 1) break;
      const index = (from + step) % count;
      if (index === from) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        if (this.#closed) return;
      }
      try {
        await this.#open(index, true);
        this.#failovers++;
        this.#deps.log.info('relay: playing on from another stream', {
          channel: this.channel,
          upstream: this.target.streams[index]!.label,
        });
        return;
      } catch (error) {
        last = error;
        this.#report(index, error);
      }
    }
    this.#end(last instanceof Error ? last : new Error('no stream of the channel could be opened'));
  }

  /**
   * A stream that could not be opened is recorded in stream health; a limit, a format the relay
   * cannot cut, or an open cut short because the session closed (a stop, an idle sweep) is not its failure.
   */
  #report(index: number, error: unknown): void {
    if (this.#closed) return;
    if (error instanceof LimitRefusal || (error as { details?: { unsupported?: boolean } }).details?.unsupported)
      return;
    const code = (error as { code?: string } | null)?.code;
    this.#deps.onFailure(
      this.target.streams[index]!,
      code === 'SOURCE_TIMEOUT' ? 'timeout' : 'dead',
      `relay: ${reasonOf(error)}`,
      this.target,
    );
  }

  #end(error: Error): void {
    if (this.#ended) return;
    this.#ended = true;
    this.error = error;
    this.#stopUpstream();
    this.#segmenter?.end();
    for (const track of this.tracks) track.end();
    this.#deps.log.warn('relay: no stream of the channel plays; its playlist ends', {
      channel: this.channel,
      reason: reasonOf(error),
    });
  }
}
