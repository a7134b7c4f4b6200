/** The contract of the source input layer: options in, a byte stream (or "not modified") out. */
import type { HostMemo } from './hosts.js';

/** Validators of a previous successful read, sent back as a conditional request. */
export interface SourceValidators {
  readonly etag?: string;
  readonly lastModified?: string;
}

export interface SourceOptions {
  /**
   * May the URL (and every redirect) reach loopback, private, link-local or other non-public
   * addresses? Default false: the safe choice for URLs that users supply through config.
   * Operators' own configured sources pass true.
   */
  readonly allowPrivateAddresses?: boolean;
  /**
   * May the location be a local file? Default: the value of `allowPrivateAddresses`, so a
   * user-supplied location can name neither the operator's network nor their disk.
   */
  readonly allowFiles?: boolean;
  /**
   * Overrides the address policy for resolved remote addresses (true = may connect), e.g. to
   * allow one LAN server without allowing every private range. Applied to every hop.
   */
  readonly allowAddress?: (address: string) => boolean;
  /**
   * URLs that may reach loopback, private and link-local addresses although the rest of the read
   * may not (`sources.allowPrivate: [URL]`). Each URL admits itself only: every hop of a redirect
   * is judged on its own, so a listed URL that redirects elsewhere is held to the policy above.
   */
  readonly privateUrls?: readonly string[];
  /** Maximum bytes read from the file or the network (before decompression). Default 512 MiB. */
  readonly maxBytes?: number;
  /** Maximum bytes after gzip decompression (defeats gzip bombs). Default 1 GiB. */
  readonly maxDecompressedBytes?: number;
  /** Time to establish a TCP connection, per attempt. Default 10 s. */
  readonly connectTimeoutMs?: number;
  /** Deadline for the whole read: every attempt, backoff, redirect and the body. Default 10 min. */
  readonly timeoutMs?: number;
  /** Redirects followed before giving up. Default 5. */
  readonly maxRedirects?: number;
  /** Extra attempts after a network error, 5xx or 429. Default 2. */
  readonly retries?: number;
  /** First backoff delay; doubles per attempt, with jitter. Default 500 ms. */
  readonly retryDelayMs?: number;
  /** Validators of the last good read: an unchanged source then answers `notModified`. */
  readonly previous?: SourceValidators;
  /** Sent as User-Agent. Default `Marquee/<version> (+Stremio add-on server)`. */
  readonly userAgent?: string;
  /**
   * More request headers, sent on every hop (a stream's own `Referer`). They cannot replace the
   * reader's own (`user-agent`, `accept-encoding`, conditional headers); names are lower-cased.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Awaited before each request is sent (every redirect hop and every attempt), with the URL it
   * goes to and the read's deadline: e.g. to wait for a connection slot to that host
   * (sources/health). The deadline runs on meanwhile.
   */
  readonly beforeRequest?: (url: URL, signal: AbortSignal) => void | Promise<void>;
  /** Cancels the read. */
  readonly signal?: AbortSignal;
  /**
   * What this import learned of the hosts it reached (`createHostMemo()`, one per import): a name
   * that did not resolve is not looked up again, a host that did not answer gets a short connect
   * timeout and no retries. Each source is still read, and judged, on its own.
   */
  readonly hosts?: HostMemo;
  /**
   * Receives the source's bytes as they come (before decompression, within `maxBytes`), e.g. to
   * keep a copy of its last good read (`createCopyFile`). Awaited: a slow sink slows the read.
   */
  readonly copyTo?: SourceCopySink;
}

/** Where `copyTo` sends a source's raw bytes. */
export interface SourceCopySink {
  write(chunk: Buffer): void | Promise<void>;
}

export interface SourceMetadata {
  /** The location as given, with credentials redacted: safe to log. */
  readonly location: string;
  /** The URL after redirects (redacted). */
  readonly finalUrl?: string;
  /** Raw size (file size or Content-Length) when known before reading. */
  readonly byteLength?: number;
  readonly etag?: string;
  readonly lastModified?: string;
  readonly contentType?: string;
  /** The answer's Content-Range, when it answered a range (206). */
  readonly contentRange?: string;
}

/** An open source: iterate its (decompressed) bytes once. */
export interface SourceStream extends AsyncIterable<Buffer> {
  readonly notModified: false;
  readonly metadata: SourceMetadata;
  /** True once reading found gzip data: the chunks are inflated here, each a new buffer. */
  readonly inflated: boolean;
  /** Stops reading and releases the file or socket; safe to call more than once. */
  close(): void;
  /**
   * The bytes as read, before gzip is detected and inflated, with what inflating them takes
   * (`inflateChunks`): for a reader that inflates them elsewhere, in a thread of its own
   * (sources/xmltv/thread.ts). Read either this or the stream itself, once. The caps, the
   * deadline and `copyTo` apply as when the stream is iterated; `close()` still releases it.
   */
  undecoded?(): UndecodedSource;
}

/** A source's bytes as read, and the limits of inflating them (SourceStream.undecoded). */
export interface UndecodedSource {
  readonly chunks: AsyncIterable<Buffer>;
  readonly inflate: InflateOptions;
  /**
   * True when a chunk that spans its whole ArrayBuffer is held by nothing once it is yielded (a
   * file read; `copyTo` then writes a copy of it): its memory may be transferred to another
   * thread instead of copied.
   */
  readonly ownChunks: boolean;
}

/** What `inflateChunks` needs: plain data and cloneable, so it can go to another thread. */
export interface InflateOptions {
  /** Named in errors (redacted). */
  readonly label: string;
  /** Bytes after decompression. */
  readonly maxDecompressedBytes: number;
  /** Nested gzip layers opened at most (a `.gz` file served with `Content-Encoding: gzip` has two). */
  readonly layers: number;
}

/** The source is unchanged since `previous`: keep serving what was imported from it. */
export interface SourceNotModified {
  readonly notModified: true;
  readonly metadata: SourceMetadata;
}

/** A small source read whole and decoded. */
export interface SourceText {
  readonly notModified: false;
  readonly text: string;
  readonly metadata: SourceMetadata;
}

/** Internal: what the file and HTTP openers hand to openSource before size caps and gzip. */
export interface RawSource {
  readonly notModified: false;
  readonly body: AsyncIterable<Buffer>;
  readonly metadata: SourceMetadata;
  /** Destroys the underlying file stream or socket, so a pending read ends at once. */
  readonly destroy: () => void;
  /** Resolves once the socket is closed (a remote read). */
  readonly closed?: Promise<void>;
  /** Each chunk of `body` is a buffer of its own that nothing else holds (UndecodedSource.ownChunks). */
  readonly ownChunks?: boolean;
  /** The URL answered, after redirects, unredacted: to resolve relative links in the body, never to show. */
  readonly url?: URL;
  /** The HTTP status of the answer. */
  readonly status?: number;
}
