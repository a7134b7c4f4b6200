/**
 * A minimal HTTP/1.1 load driver on raw sockets: keep-alive connections, each with `pipelining`
 * GETs in flight, responses framed by Content-Length and their bodies skipped unparsed. autocannon
 * parses every response with a full HTTP parser and kept this bench's only driver core at 100%
 * while the limit server used a third of its own (bench/README.md, "Headroom"); this does the
 * least a client can, so the servers are what is measured. 127.0.0.1 only.
 */
import { connect } from 'node:net';

const CRLFCRLF = Buffer.from('\r\n\r\n');
/** One read of a connection lands in a buffer this size. */
const READ_BUFFER_BYTES = 256 * 1024;

/**
 * Load `url` for `durationS` seconds; requests/s, latency p50/p99 (ms), errors and non-2xx.
 *
 * @example await drive('http://127.0.0.1:7000/manifest.json', { connections: 20, pipelining: 8, durationS: 5 })
 */
export function drive(url, { connections = 20, pipelining = 1, durationS = 5, headers = {} } = {}) {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1') throw new Error(`refusing to load anything but 127.0.0.1: ${url}`);
  const request = Buffer.from(
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n',
  );
  const latencies = [];
  let requests = 0;
  let errors = 0;
  let non2xx = 0;
  let stopping = false;
  const started = performance.now();
  const sockets = [];

  const open = () =>
    new Promise((resolve) => {
      /** Bytes of the current body still to skip. */
      let skip = 0;
      /** The start of a head that the last read cut short (copied: the read buffer is reused). */
      let pending;
      /** Requests answered in this read: sent again together, in one write. */
      let due = 0;
      const sent = [];
      const answered = () => {
        const at = sent.shift();
        if (at !== undefined) latencies.push(performance.now() - at);
        requests++;
        due++;
      };
      /** Takes the first `to` bytes of `buf`: skips bodies, reads heads; false when the connection was dropped. */
      const consume = (buf, to) => {
        let i = 0;
        while (i < to) {
          if (skip > 0) {
            const n = Math.min(skip, to - i);
            skip -= n;
            i += n;
            if (skip === 0) answered();
            continue;
          }
          const end = buf.indexOf(CRLFCRLF, i);
          // Past `to` lies an earlier read's data: the head is not complete yet.
          if (end < 0 || end + 4 > to) {
            pending = Buffer.from(buf.subarray(i, to));
            return true;
          }
          const head = buf.toString('latin1', i, end);
          const status = Number(head.slice(9, 12));
          if (!(status >= 200 && status < 300)) non2xx++;
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          if (!length) {
            // Unframed (chunked or close-delimited): count it and drop the connection.
            errors++;
            socket.destroy();
            return false;
          }
          i = end + 4;
          skip = Number(length[1]);
          if (skip === 0) answered();
        }
        return true;
      };
      // Reads land in one buffer per connection, reused: allocating one per read (64 KiB each) cost
      // this driver about as much CPU as the servers it measures spent on large bodies.
      const socket = connect({
        host: '127.0.0.1',
        port: Number(target.port),
        onread: {
          buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
          callback: (nread, buf) => {
            if (pending !== undefined) {
              const joined = Buffer.concat([pending, buf.subarray(0, nread)]);
              pending = undefined;
              if (!consume(joined, joined.length)) return false;
            } else if (!consume(buf, nread)) return false;
            flush();
            return true;
          },
        },
      });
      socket.setNoDelay(true);
      sockets.push(socket);
      const flush = () => {
        if (stopping || due === 0) return;
        const now = performance.now();
        for (let i = 0; i < due; i++) sent.push(now);
        socket.write(due === 1 ? request : Buffer.concat(Array.from({ length: due }, () => request)));
        due = 0;
      };
      socket.on('connect', () => {
        due = pipelining;
        flush();
      });
      socket.on('error', () => {
        errors++;
      });
      socket.on('close', resolve);
    });

  const all = Array.from({ length: connections }, open);
  return new Promise((resolve) => {
    setTimeout(async () => {
      stopping = true;
      const duration = (performance.now() - started) / 1000;
      for (const s of sockets) s.destroy();
      await Promise.all(all);
      latencies.sort((a, b) => a - b);
      const at = (q) =>
        latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))];
      resolve({
        requestsPerSecond: requests / duration,
        p50: Math.round(at(0.5) * 100) / 100,
        p99: Math.round(at(0.99) * 100) / 100,
        errors,
        non2xx,
        duration,
      });
    }, durationS * 1000);
  });
}
