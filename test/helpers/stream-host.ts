/**
 * A stream host on 127.0.0.1 for health tests: routes that answer as real stream servers do (a TS
 * stream that never ends, HLS playlists, 404s, 403s, an HTML "buy a plan" page answered with 200,
 * a stream that hangs), each request's headers kept, and the connections open at once counted at
 * the server (the most it ever had, for the per-host limit).
 */
import { tsPackets } from '../fixtures/media.js';
import { type LiveHost, type Route, startLiveHost } from './live-host.js';
import { freePort } from './ports.js';

/** Its routes, every request's path and headers, and its connections (open now, the most ever at once). */
export type StreamHost = LiveHost;

/**
 * A TS stream that never ends: PAT/PMT and packets, 20 a write, every 20 ms, until the client goes.
 * @example host.routes.set('/live.ts', liveTs())
 */
export function liveTs(delayMs = 0): Route {
  return (_req, res) => {
    const start = () => {
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      let n = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(tsPackets(20, n));
        n += 20;
      }, 20);
      res.on('close', () => clearInterval(timer));
    };
    if (delayMs > 0) setTimeout(start, delayMs);
    else start();
  };
}

/** A fixed answer. */
export function answer(
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
  delayMs = 0,
): Route {
  return (_req, res) => {
    const send = () => {
      if (!res.destroyed) res.writeHead(status, headers).end(body);
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  };
}

/** Headers, then nothing: a stream that hangs. */
export const hangs: Route = (_req, res) => {
  res.writeHead(200, { 'content-type': 'video/mp2t' });
  res.flushHeaders();
};

/** A media playlist of live segments. */
export function mediaPlaylist(segments = 3): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:6', '#EXT-X-MEDIA-SEQUENCE:1200'];
  for (let i = 0; i < segments; i++) lines.push('#EXTINF:6.000,', `seg${1200 + i}.ts`);
  return `${lines.join('\n')}\n`;
}

/** A master playlist of `variants` (URIs, relative or absolute). */
export function masterPlaylist(variants: readonly string[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
  for (const [i, uri] of variants.entries()) {
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${(variants.length - i) * 1_000_000}`, uri);
  }
  return `${lines.join('\n')}\n`;
}

/** Starts a host on 127.0.0.1, port 0. Unknown paths answer 404. The relay's live host, as it is. */
export function startStreamHost(): Promise<StreamHost> {
  return startLiveHost();
}

/** A port on 127.0.0.1 where nothing listens (connections are refused). */
export const refusingPort: () => Promise<number> = freePort;
