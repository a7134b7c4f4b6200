/** What the relay is given: the streams a token names, its limits, and where it reports. */
import type { UpstreamRequest } from './headers.js';

/** One stored stream, as the relay may open it. */
export interface RelayStream {
  /** The URL as stored (the session's key is made from it). */
  readonly url: string;
  /** What is fetched, with the playlist's headers. */
  readonly request: UpstreamRequest;
  /** The source it came from (`streams.origin`): its connection limit applies. */
  readonly pool?: string;
  /** Safe to show (status, logs): scheme, host and last path segment. */
  readonly label: string;
}

/** What a token names, looked up in the store. */
export interface RelayTarget {
  /** The session's key: one session (one upstream) per stream, however many viewers. */
  readonly key: string;
  readonly channel: { readonly id: string; readonly name: string };
  /** The named stream first, then the channel's other streams in health order (failover). */
  readonly streams: readonly RelayStream[];
  /** Hosted mode: the source set, whose own caps apply. */
  readonly set?: string;
}

/** The relay's limits (`relay.*` settings). */
export interface RelayLimits {
  /** An upstream is closed this long after its last viewer left. */
  readonly idleMs: number;
  /** An upstream with no bytes (no new segment) for this long has failed. */
  readonly stallMs: number;
  /** Upstream connections at once, in all. */
  readonly maxUpstreams: number;
  /** Viewers at once, in all. */
  readonly maxViewers: number;
  /** Segments of a live MPEG-TS run at least this long. */
  readonly segmentSeconds: number;
  /** Segments listed in a live playlist. */
  readonly windowSegments: number;
  /** Bytes a session's window holds at most (each track). */
  readonly bufferBytes: number;
}

export const DEFAULT_RELAY_LIMITS: RelayLimits = {
  idleMs: 10_000,
  stallMs: 6_000,
  maxUpstreams: 16,
  maxViewers: 256,
  segmentSeconds: 2,
  windowSegments: 6,
  bufferBytes: 48 * 1024 * 1024,
};

/** A session as `marquee status` lists it. */
export interface RelaySessionInfo {
  readonly channel: string;
  readonly channelId: string;
  readonly viewers: number;
  /** The stream being read, redacted (scheme, host, last path segment). */
  readonly upstream?: string;
  /** `ts`, `hls`, or absent while opening. */
  readonly kind?: string;
  /** What the stream carries (`h264+aac`), when read from an MPEG-TS. */
  readonly codecs?: string;
  readonly bytesIn: number;
  readonly bytesOut: number;
  /** Epoch ms. */
  readonly since: number;
  /** Failovers so far. */
  readonly failovers: number;
  readonly state: 'opening' | 'live' | 'ended';
  readonly set?: string;
}

/** Where the relay tells what happened (never a URL beyond a redacted label). */
export interface RelayLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}
