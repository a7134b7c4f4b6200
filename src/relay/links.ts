/**
 * Which streams the relay carries (`relay.enabled`) and their links. `auto` relays what a browser
 * cannot play as it is: an `http:` stream when the add-on is reached over https (a page served
 * over https may not load it), a stream that needs request headers (a browser cannot send them),
 * and anything that is not HLS or MP4 (a `<video>` element plays neither live MPEG-TS nor the
 * rest); `always` relays every http(s) stream. A link is on the add-on's own address and names the
 * stream by a signed token: `…/relay/{token}/index.m3u8`, which players take for HLS by its name.
 */
import type { StreamRelay } from '../livetv/index.js';
import type { ChannelRow, StreamRow } from '../store/index.js';
import { upstreamRequest } from './headers.js';
import type { RelayTokens } from './token.js';

export type RelayMode = 'auto' | 'always';

export interface RelayLinkOptions {
  readonly mode: RelayMode;
  readonly tokens: RelayTokens;
  /** `relay.keepDirect`: the direct URLs are listed too, after the relayed ones. */
  readonly keepDirect?: boolean;
  /** Hosted mode: the source set the links belong to. */
  readonly set?: string;
  /** The add-on's fixed public address (`publicUrl`), when it has one. */
  readonly publicUrl?: string;
}

const HTTP = /^https?:\/\//i;

/** The kind of media a URL names by its path: `hls`, `mp4`, or `other` (MPEG-TS, no extension…). */
export function mediaKind(url: string): 'hls' | 'mp4' | 'other' {
  let path: string;
  try {
    path = new URL(url.split('|')[0]!).pathname.toLowerCase();
  } catch {
    return 'other';
  }
  if (path.endsWith('.m3u8') || path.endsWith('.m3u')) return 'hls';
  if (path.endsWith('.mp4') || path.endsWith('.m4v')) return 'mp4';
  return 'other';
}

/**
 * Does `auto` relay this stream, for a request that came by `origin`?
 * @example needsRelay({ url: 'http://x/live.m3u8' }, 'https://tv.example') // true: mixed content
 */
export function needsRelay(stream: StreamRow, origin: string): boolean {
  const request = upstreamRequest(stream);
  if (origin.startsWith('https:') && request.url.toLowerCase().startsWith('http:')) return true;
  if (request.userAgent !== undefined || Object.keys(request.headers).length > 0) return true;
  return mediaKind(stream.url) === 'other';
}

/**
 * The StreamRelay the live-TV part lists links from.
 * @example createLiveTvPart(store, { relay: relayLinks({ mode: 'auto', tokens }) })
 */
export function relayLinks(options: RelayLinkOptions): StreamRelay {
  return {
    link(channel: ChannelRow, stream: StreamRow, origin: string) {
      if (!HTTP.test(stream.url)) return undefined;
      if (options.mode === 'auto' && !needsRelay(stream, origin)) return undefined;
      const token = options.tokens.sign(channel.id, stream.url, options.set);
      // An MP4 file is passed through as it is (seeking included); everything live is HLS.
      const tail = mediaKind(stream.url) === 'mp4' ? 'file.mp4' : 'index.m3u8';
      return `${origin.replace(/\/+$/, '')}/relay/${token}/${tail}`;
    },
    ...(options.keepDirect ? { keepDirect: true } : {}),
    ...(options.publicUrl !== undefined ? { fixedOrigin: true } : {}),
  };
}
