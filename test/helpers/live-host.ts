/**
 * Upstream hosts for the relay's tests, answering as IPTV providers do: a live MPEG-TS served at
 * real-time pace (by its PCR, looping at its end, as a provider's loop channel does), a live HLS
 * channel whose media playlist slides over a clip's segments (its segments may be on another
 * host), routes that refuse a request without the right User-Agent and Referer, every request
 * and every connection counted. The browser tests listen on the machine's non-loopback address
 * (`lanAddress()`): Chromium treats loopback as secure, so only another address shows what a
 * page served over https may not load.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { PACKET, pcrOf, pidOf } from '../../src/relay/ts-packet.js';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface LiveHost {
  readonly url: string;
  readonly routes: Map<string, Route>;
  /** Every request: its path and headers. */
  readonly requests: { path: string; headers: IncomingMessage['headers'] }[];
  /** Connections open now, the most ever open at once, and how many were made in all. */
  readonly connections: { open: number; max: number; total: number };
  /** Ends every connection now (a provider dropping its streams), without closing the host. */
  dropAll(): void;
  close(): Promise<void>;
}

/** An IPv4 address of this machine that is not loopback, or undefined when it has none. */
export function lanAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return undefined;
}

/** Starts a host on `address` (default 127.0.0.1), port 0; unknown paths answer 404. */
export async function startLiveHost(address = '127.0.0.1'): Promise<LiveHost> {
  const routes = new Map<string, Route>();
  const requests: LiveHost['requests'] = [];
  const connections = { open: 0, max: 0, total: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ path, headers: req.headers });
    const route = routes.get(path);
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    connections.open++;
    connections.total++;
    connections.max = Math.max(connections.max, connections.open);
    socket.on('close', () => {
      sockets.delete(socket);
      connections.open--;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    routes,
    requests,
    connections,
    dropAll() {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Byte offsets of a transport stream with the PCR time (s, from its first) at each. */
function pcrTimeline(clip: Buffer): { offset: number; seconds: number }[] {
  const marks: { offset: number; seconds: number }[] = [];
  let first: number | undefined;
  for (let o = 0; o + PACKET <= clip.length; o += PACKET) {
    const pcr = pidOf(clip, o) === 0x1fff ? undefined : pcrOf(clip, o);
    if (pcr === undefined) continue;
    first ??= pcr;
    marks.push({ offset: o, seconds: (pcr - first) / 90_000 });
  }
  return marks;
}

/**
 * A live MPEG-TS from `clip`, at the pace its PCR sets (half a second ahead, as a real server's
 * buffer), starting over at its end. `check` may refuse a request (answering it itself).
 * @example host.routes.set('/live.ts', liveTs(clip))
 */
export function liveTs(clip: Buffer, check?: (req: IncomingMessage, res: ServerResponse) => boolean): Route {
  const marks = pcrTimeline(clip);
  const total = marks.at(-1)?.seconds ?? 1;
  return (req, res) => {
    if (check && !check(req, res)) return;
    res.writeHead(200, { 'content-type': 'video/mp2t' });
    let started = performance.now();
    let sent = 0;
    let mark = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      const due = (performance.now() - started) / 1000 + 0.5;
      while (mark < marks.length && marks[mark]!.seconds <= due) mark++;
      const upTo = mark >= marks.length ? clip.length : marks[mark]!.offset;
      if (upTo > sent) {
        res.write(clip.subarray(sent, upTo));
        sent = upTo;
      }
      if (sent >= clip.length && due > total) {
        // The clip again, its clock starting over: the loop a provider's channel makes.
        started = performance.now();
        sent = 0;
        mark = 0;
      }
    }, 40);
    res.on('close', () => clearInterval(timer));
  };
}

/**
 * A live HLS channel over a clip cut into segments of `segmentSeconds`: its media playlist lists a
 * window of `window` segments that slides with the clock (EXT-X-DISCONTINUITY where the clip
 * starts over); segment URIs are `segmentBase` + name (another host, when given).
 */
export function liveHls(
  segments: readonly { name: string; duration: number }[],
  options: { segmentBase?: string; window?: number; check?: (req: IncomingMessage, res: ServerResponse) => boolean },
): Route {
  const started = performance.now();
  const window = options.window ?? 4;
  const duration = segments.reduce((max, s) => Math.max(max, s.duration), 0);
  return (req, res) => {
    if (options.check && !options.check(req, res)) return;
    const now = Math.floor((performance.now() - started) / 1000 / duration) + window;
    const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${Math.ceil(duration)}`];
    lines.push(`#EXT-X-MEDIA-SEQUENCE:${now - window}`);
    for (let seq = now - window; seq < now; seq++) {
      const segment = segments[seq % segments.length]!;
      if (seq % segments.length === 0 && seq > 0) lines.push('#EXT-X-DISCONTINUITY');
      lines.push(`#EXTINF:${segment.duration.toFixed(3)},`, `${options.segmentBase ?? ''}${segment.name}`);
    }
    res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(`${lines.join('\n')}\n`);
  };
}

/** A file answered as it is. */
export function file(body: Buffer, contentType: string): Route {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': String(body.length) }).end(body);
  };
}

/** A check refusing (403) a request without this User-Agent and Referer, as a provider's anti-leech rule. */
export function needsHeaders(userAgent: string, referer: string) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.headers['user-agent'] === userAgent && req.headers.referer === referer) return true;
    res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden: not a known player');
    return false;
  };
}
