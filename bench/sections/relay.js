/**
 * The relay under a crowd (issue 44): one live MPEG-TS upstream of 8 Mb/s, served at real-time
 * pace by this process, relayed by `marquee serve` (core 1) to 200 HLS viewers driven from this
 * process (core 0), on 127.0.0.1. Then the same segments served as static files by nginx (core 1),
 * side by side in the same run.
 *
 * Two phases:
 * 1. Real time. Viewers join 20 a second and play as a player does (master, media playlist every
 *    second, each new segment once). Recorded: the time from a joining viewer's master request to
 *    the end of its first segment (p50, p99), the bytes delivered a second once all have joined,
 *    Marquee's peak RSS (VmHWM), its CPU and the driver's over that window, and CPU per viewer;
 *    and how many upstream connections the host saw.
 * 2. Saturation. Each viewer loops as fast as it can over the playlist and every segment it lists
 *    (no pacing), for a few seconds, against Marquee, then against nginx serving a snapshot of the
 *    same six segments as files: delivered throughput, and both processes' CPU.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuSeconds } from '../lib/load.js';
import { freePort, spawnPinned, startServer, stop } from '../lib/processes.js';

const MBPS = 8;
const READY = /manifest:\s+(http:\/\/127\.0\.0\.1:\d+)\/manifest\.json/;

/** An 8 Mb/s live-style TS clip (640x360 H.264 at a constant rate, AAC, muxed at 8 Mb/s), made once per data folder. */
function makeClip(dir, seconds) {
  const file = join(dir, `relay-${MBPS}mbps-${seconds}s.ts`);
  try {
    return readFileSync(file);
  } catch {}
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...[
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=640x360:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=48000',
      ],
      ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ...['-g', '25', '-keyint_min', '25', '-sc_threshold', '0'],
      ...[
        '-b:v',
        '7200k',
        '-minrate',
        '7200k',
        '-maxrate',
        '7200k',
        '-bufsize',
        '3600k',
        '-x264-params',
        'nal-hrd=cbr',
      ],
      ...['-c:a', 'aac', '-b:a', '128k', '-f', 'mpegts', '-muxrate', `${MBPS}M`, file],
    ],
    { stdio: 'pipe' },
  );
  return readFileSync(file);
}

/** Byte offsets of the clip with their PCR time (s): the pace a live server sends it at. */
function timeline(clip) {
  const marks = [];
  let first;
  for (let o = 0; o + 188 <= clip.length; o += 188) {
    if ((clip[o + 3] & 0x20) === 0 || clip[o + 4] < 7 || (clip[o + 5] & 0x10) === 0) continue;
    const pcr =
      clip[o + 6] * 2 ** 25 + clip[o + 7] * 2 ** 17 + clip[o + 8] * 2 ** 9 + clip[o + 9] * 2 + (clip[o + 10] >> 7);
    first ??= pcr;
    marks.push({ offset: o, seconds: (pcr - first) / 90_000 });
  }
  return marks;
}

/** The upstream: the clip at real-time pace, looping, counting connections. */
async function startUpstream(clip) {
  const marks = timeline(clip);
  const total = marks.at(-1).seconds;
  const stats = { connections: 0, bytes: 0 };
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp2t' });
    let started = performance.now();
    let sent = 0;
    let mark = 0;
    const timer = setInterval(() => {
      const due = (performance.now() - started) / 1000 + 0.5;
      while (mark < marks.length && marks[mark].seconds <= due) mark++;
      const upTo = mark >= marks.length ? clip.length : marks[mark].offset;
      if (upTo > sent) {
        res.write(clip.subarray(sent, upTo));
        stats.bytes += upTo - sent;
        sent = upTo;
      }
      if (sent >= clip.length && due > total) {
        started = performance.now();
        sent = 0;
        mark = 0;
      }
    }, 20);
    res.on('close', () => clearInterval(timer));
  });
  server.on('connection', () => stats.connections++);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/live/bench/s3cret/1.ts`,
    stats,
    close: () => server.close(),
  };
}

/** GET `url` on `agent`: status, body bytes (counted, optionally kept) and text for playlists. */
function get(url, agent, keep = false) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      let bytes = 0;
      const chunks = [];
      res.on('data', (chunk) => {
        bytes += chunk.length;
        if (keep) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes, body: keep ? Buffer.concat(chunks) : undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const uris = (text) => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const vmHwmMB = (pid) => {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return undefined;
  }
};

/** One viewer playing at real time from `index` until `until`: its first segment's time and its bytes. */
async function playViewer(index, until, counters) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const started = performance.now();
    const master = await get(index, agent, true);
    if (master.status !== 200) {
      counters.errors++;
      return undefined;
    }
    const media = new URL(uris(master.body.toString())[0], index).href;
    let last = -1;
    let first;
    while (performance.now() < until) {
      const playlist = await get(media, agent, true);
      if (playlist.status !== 200) counters.errors++;
      else {
        const list = uris(playlist.body.toString());
        // A player starts at the live edge: the newest segment first.
        const fresh = last === -1 ? list.slice(-1) : list.filter((u) => Number(/(\d+)\.ts$/.exec(u)?.[1]) > last);
        for (const uri of fresh) {
          const segment = await get(new URL(uri, media).href, agent);
          if (segment.status !== 200) counters.errors++;
          counters.bytes += segment.bytes;
          last = Number(/(\d+)\.ts$/.exec(uri)?.[1]);
          first ??= performance.now() - started;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    return first;
  } finally {
    agent.destroy();
  }
}

/** Viewers looping over a playlist and its segments as fast as they can, for `seconds`: bytes a second. */
async function saturate(media, viewers, seconds) {
  let bytes = 0;
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: viewers }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (performance.now() < until) {
          const playlist = await get(media, agent, true);
          if (playlist.status !== 200) {
            errors++;
            continue;
          }
          for (const uri of uris(playlist.body.toString())) {
            if (performance.now() >= until) break;
            const segment = await get(new URL(uri, media).href, agent);
            if (segment.status === 200) bytes += segment.bytes;
            else errors++;
          }
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  return { mbPerSecond: bytes / 1e6 / seconds, errors };
}

/** CPU shares of `pids` (one core = 1) and this process over `run()`. */
async function withCpu(pids, run) {
  const before = pids.map(cpuSeconds);
  const self = process.cpuUsage();
  const t0 = performance.now();
  const result = await run();
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(self);
  return {
    result,
    wall,
    cpu: pids.map((pid, i) => (cpuSeconds(pid) - before[i]) / wall),
    driverCpu: (used.user + used.system) / 1e6 / wall,
  };
}

async function startNginx(dir, root) {
  const port = await freePort();
  for (const sub of ['logs', 'tmp']) mkdirSync(join(dir, sub), { recursive: true });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'logs', 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${join(dir, 'tmp')};
  proxy_temp_path ${join(dir, 'tmp')};
  fastcgi_temp_path ${join(dir, 'tmp')};
  uwsgi_temp_path ${join(dir, 'tmp')};
  scgi_temp_path ${join(dir, 'tmp')};
  types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { add_header Access-Control-Allow-Origin *; add_header Cache-Control no-store; }
  }
}
`,
  );
  const child = spawnPinned('nginx', ['-p', dir, '-c', conf]);
  for (let i = 0; i < 100; i++) {
    try {
      const r = await get(`http://127.0.0.1:${port}/index.m3u8`, undefined);
      if (r.status === 200) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // The worker serves; the master only waits.
  const workers = execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  return { url: `http://127.0.0.1:${port}`, child, pid: workers[0] ?? child.pid };
}

/**
 * @example const relay = await runRelay({ root, dir, viewers: 200, log })
 */
export async function runRelay({ root, dir, viewers = 200, realtimeS = 24, saturateS = 6, log }) {
  const work = join(dir, 'relay');
  mkdirSync(work, { recursive: true });
  log(`relay: making the ${MBPS} Mb/s clip with ffmpeg (once per data folder)`);
  const clip = makeClip(dir, 20);
  const upstream = await startUpstream(clip);
  writeFileSync(join(work, 'tv.m3u'), `#EXTM3U\n#EXTINF:-1 tvg-id="bench",Bench\n${upstream.url}\n`);
  writeFileSync(
    join(work, 'marquee.json'),
    JSON.stringify({
      livetv: { playlists: ['tv.m3u'] },
      sources: { allowPrivate: true },
      relay: { maxViewers: viewers + 50, idleSeconds: 30 },
      security: { maxConnectionsPerAddress: 0 },
    }),
  );
  const { SERVE_NODE_OPTIONS } = await import(pathToFileURL(join(root, 'dist/cli/relaunch.js')).href);
  const db = join(work, 'relay.db');
  execFileSync(process.execPath, [join(root, 'bin/marquee.js'), 'import', '--db', db], { cwd: work, stdio: 'pipe' });
  const marquee = await startServer(
    process.execPath,
    [
      ...SERVE_NODE_OPTIONS,
      join(root, 'bin/marquee.js'),
      'serve',
      '--db',
      db,
      '--port',
      '0',
      '--quiet',
      '--refresh-hours',
      '0',
    ],
    READY,
    { cwd: work },
  );
  let nginx;
  try {
    const answer = await get(`${marquee.url}/stream/tv/mq-tv%3Abench.json`, undefined, true);
    const index = JSON.parse(answer.body.toString()).streams[0].url;
    // The first viewer opens the channel; the crowd joins a channel already playing.
    const opened = performance.now();
    const firstAgent = new Agent({ keepAlive: true });
    await get(index, firstAgent, true);
    const openMs = performance.now() - opened;
    firstAgent.destroy();
    await new Promise((resolve) => setTimeout(resolve, 4_000));

    log(`relay: ${viewers} viewers join 20 a second and play ${realtimeS} s at real time`);
    const counters = { bytes: 0, errors: 0 };
    const until = performance.now() + realtimeS * 1000;
    const joinS = viewers / 20;
    let steady;
    const players = [];
    const realtime = withCpu([marquee.child.pid], async () => {
      for (let i = 0; i < viewers; i++) {
        players.push(playViewer(index, until, counters));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The window once all have joined (and fetched their first segment).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const bytes0 = counters.bytes;
      steady = await withCpu([marquee.child.pid], async () => {
        await new Promise((resolve) => setTimeout(resolve, (realtimeS - joinS - 4) * 1000));
      });
      steady.mbPerSecond = (counters.bytes - bytes0) / 1e6 / steady.wall;
      return Promise.all(players);
    });
    const played = await realtime;
    const firsts = played.result.filter((t) => t !== undefined).sort((a, b) => a - b);
    const rssMB = vmHwmMB(marquee.child.pid);

    log('relay: saturation, Marquee');
    const media = new URL(uris((await get(index, undefined, true)).body.toString())[0], index).href;
    const mq = await withCpu([marquee.child.pid], () => saturate(media, viewers, saturateS));
    // The same segments as files: the six Marquee lists now.
    const files = join(work, 'static');
    mkdirSync(files, { recursive: true });
    const listed = uris((await get(media, undefined, true)).body.toString());
    const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:0'];
    for (const [i, uri] of listed.entries()) {
      const bytes = (await get(new URL(uri, media).href, undefined, true)).body;
      writeFileSync(join(files, `s${i}.ts`), bytes);
      lines.push('#EXTINF:2.000,', `s${i}.ts`);
    }
    writeFileSync(join(files, 'index.m3u8'), `${lines.join('\n')}\n`);
    log('relay: saturation, nginx');
    nginx = await startNginx(join(work, 'nginx'), files);
    const ng = await withCpu([nginx.pid], () => saturate(`${nginx.url}/index.m3u8`, viewers, saturateS));
    return {
      viewers,
      mbps: MBPS,
      openMs,
      upstreamConnections: upstream.stats.connections,
      firstSegmentMs: {
        p50: quantile(firsts, 0.5),
        p99: quantile(firsts, 0.99),
        max: firsts.at(-1),
        n: firsts.length,
      },
      realtime: {
        mbPerSecond: steady.mbPerSecond,
        demandMbPerSecond: (viewers * MBPS) / 8,
        marqueeCpu: steady.cpu[0],
        driverCpu: steady.driverCpu,
        cpuPerViewer: steady.cpu[0] / viewers,
        errors: counters.errors,
      },
      rssMB,
      saturation: {
        seconds: saturateS,
        marquee: {
          mbPerSecond: mq.result.mbPerSecond,
          errors: mq.result.errors,
          cpu: mq.cpu[0],
          driverCpu: mq.driverCpu,
        },
        nginx: {
          mbPerSecond: ng.result.mbPerSecond,
          errors: ng.result.errors,
          cpu: ng.cpu[0],
          driverCpu: ng.driverCpu,
        },
        ratio: mq.result.mbPerSecond / ng.result.mbPerSecond,
      },
    };
  } finally {
    await marquee.stop();
    if (nginx) await stop(nginx.child);
    upstream.close();
  }
}
