/**
 * What a relay token names, looked up in a store: the channel, the stream whose URL has the
 * token's digest, and the channel's other streams in health order (for failover). Only stored
 * streams are relayed: a token names nothing else, and a stream gone from the store (a re-import
 * dropped it) is not found.
 */
import { type HealthServing, orderByHealth } from '../livetv/index.js';
import { redactStreamUrl } from '../sources/input/index.js';
import type { Store, StreamRow } from '../store/index.js';
import { upstreamRequest } from './headers.js';
import type { RelayTokenPayload } from './token.js';
import type { RelayStream, RelayTarget } from './types.js';

const HTTP = /^https?:\/\//i;

export interface LookupOptions {
  /** Stream health as served: the order backups are tried in. */
  readonly health?: HealthServing;
  /** A User-Agent for the streams of a source that names none in its playlist (an Xtream account's `userAgent`). */
  readonly userAgentOf?: (origin: string) => string | undefined;
}

/**
 * The target a token names in `store`, or undefined.
 * @example const resolve = (payload, digest) => lookUp(store, payload, digest)
 */
export function lookUp(
  store: Store,
  payload: RelayTokenPayload,
  digest: (url: string) => string,
  options: LookupOptions = {},
): RelayTarget | undefined {
  const channel = store.getChannel(payload.channel);
  if (channel === undefined) return undefined;
  const rows = store.getStreams(channel.id).filter((r) => HTTP.test(r.url));
  const named = rows.find((r) => digest(r.url) === payload.stream);
  if (named === undefined) return undefined;
  // Offline streams stay among the backups (last): a check hours ago may be wrong now.
  const ordered = orderByHealth(rows, { ...options.health, hideDead: false }).map((s) => s.row);
  const streams = [named, ...ordered.filter((r) => r !== named)].map((row) => relayStream(row, options));
  return {
    key: `${payload.set ?? ''}\u0000${channel.id}\u0000${payload.stream}`,
    channel: { id: channel.id, name: channel.name },
    streams,
    ...(payload.set !== undefined ? { set: payload.set } : {}),
  };
}

function relayStream(row: StreamRow, options: LookupOptions): RelayStream {
  const request = upstreamRequest(row);
  const fallback =
    row.origin !== undefined && request.userAgent === undefined ? options.userAgentOf?.(row.origin) : undefined;
  return {
    url: row.url,
    request: fallback !== undefined ? { ...request, userAgent: fallback } : request,
    ...(row.origin !== undefined ? { pool: row.origin } : {}),
    label: redactStreamUrl(request.url),
  };
}
