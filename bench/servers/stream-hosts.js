#!/usr/bin/env node
/**
 * `node bench/servers/stream-hosts.js PLAN.json`: the stream hosts of the health benchmark, each
 * a server of its own on its own port of 127.0.0.1 (given by the system) (a host is a name and port to the checker, as
 * to browsers), answering as real stream servers do, per the plan: a live MPEG-TS stream that never
 * ends, an HLS master and its variant, a slow start, 404, 403, an HTML page with 200, headers then
 * nothing, nothing at all. Hosts marked `refused` refuse connections (their port is let go). Each host counts the
 * connections open at once. A control server answers `/stats`: this process's CPU time, requests,
 * and the most connections any host had open at once.
 *
 * Prints `ready <control URL>` once every host listens.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** 20 TS packets (PAT first): 3,760 bytes a write, as a live stream sends them. */
function packets(start) {
  const out = Buffer.alloc(20 * 188, 0);
  for (let i = 0; i < 20; i++) {
    const at = i * 188;
    out[at] = 0x47;
    out[at + 1] = (start + i) % 40 === 0 ? 0x40 : 0x01;
    out[at + 3] = 0x10 | ((start + i) & 0x0f);
  }
  return out;
}

function liveTs(res) {
  res.writeHead(200, { 'content-type': 'video/mp2t' });
  let n = 0;
  const send = () => {
    if (res.destroyed) return;
    res.write(packets(n));
    n += 20;
  };
  send();
  const timer = setInterval(send, 100);
  res.on('close', () => clearInterval(timer));
}

const MASTER = (i) =>
  `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720\n/v/${i}.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n/v/${i}.m3u8?lo\n`;
const MEDIA =
  '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:4812\n#EXTINF:6.0,\nseg4812.ts\n#EXTINF:6.0,\nseg4813.ts\n#EXTINF:6.0,\nseg4814.ts\n';
const HTML =
  '<!DOCTYPE html><html><head><title>Subscription expired</title></head><body><h1>Renew your plan</h1></body></html>';

const stats = { requests: 0, maxOpen: 0, maxOpenHost: '' };
const servers = [];

function answer(stream, path, res) {
  if (path.startsWith('/v/')) return res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(MEDIA);
  switch (stream.kind) {
    case 'ts':
      return liveTs(res);
    case 'slow':
      return setTimeout(() => liveTs(res), stream.delayMs);
    case 'master':
      return res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(MASTER(stream.index));
    case '404':
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    case '403':
      return res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden');
    case 'html':
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML);
    case 'hang':
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      return res.flushHeaders();
    default:
      return undefined; // silent: the connection stays open, nothing is sent
  }
}

const ports = [];
const closeAfter = [];
for (const [h, host] of plan.hosts.entries()) {
  const byPath = new Map(host.streams.map((s) => [s.path, s]));
  let open = 0;
  const server = createServer((req, res) => {
    stats.requests++;
    const path = req.url.split('?')[0];
    const stream = byPath.get(path.startsWith('/v/') ? path.replace('/v/', '/s/') : path);
    if (stream === undefined) return res.writeHead(404).end();
    answer(stream, path, res);
  });
  server.on('connection', (socket) => {
    open++;
    if (open > stats.maxOpen) {
      stats.maxOpen = open;
      stats.maxOpenHost = String(ports[h]);
    }
    socket.on('close', () => open--);
  });
  // Hanging answers must not be cut by the server's own timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 1000;
  // Every host on a port of its own, given by the system (so no two collide); a refusing host's
  // port is let go once every other host listens, so nothing answers there.
  servers.push(
    new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () => {
        ports[h] = server.address().port;
        if (host.refused) closeAfter.push(server);
        resolve();
      }),
    ),
  );
}

const control = createServer((req, res) => {
  if (req.url === '/ports')
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ports));
  const cpu = process.cpuUsage();
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ ...stats, cpuMs: (cpu.user + cpu.system) / 1000 }));
});
await Promise.all(servers);
await Promise.all(closeAfter.map((server) => new Promise((resolve) => server.close(resolve))));
control.listen(0, '127.0.0.1', () => console.log(`ready http://127.0.0.1:${control.address().port}`));
