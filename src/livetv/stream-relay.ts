/**
 * How a stream answer gets relay links without knowing the relay: the caller (serve, hosted mode)
 * injects this, made by src/relay, and the live-TV part lists what it returns first. The relay
 * decides which streams it carries (`relay.enabled`) and how a link names a stream (a signed token,
 * never the upstream URL).
 */
import type { ChannelRow, StreamRow } from '../store/index.js';

export interface StreamRelay {
  /**
   * The relay link of a stored stream on `origin` (the add-on's base URL as the request reached
   * it), or undefined when the stream is served direct.
   */
  link(channel: ChannelRow, stream: StreamRow, origin: string): string | undefined;
  /** Also list the direct URLs, after the relayed ones (`relay.keepDirect`), for apps that play them. */
  readonly keepDirect?: boolean;
  /**
   * Links are the same whatever address a request came by (a `publicUrl` is set): answers with
   * them are cached as any. Otherwise they are not kept, so one address's links never reach another.
   */
  readonly fixedOrigin?: boolean;
}
