/**
 * The practical limit of Node on this machine: a bare node:http server that replays, for each
 * path, an answer recorded once at start: the bytes and headers Marquee sent, plain and to
 * `Accept-Encoding: gzip, br` (whatever Marquee chose for it: brotli for a large page, the plain
 * bytes for a small one). No routing beyond one Map lookup, no handler, no serialization, no
 * cache logic: what is left is node:http itself.
 *
 * Usage: node bench/servers/bare.js BODIES.json
 *   BODIES.json: { path: { identity: { headers, body }, compressed: { headers, body } } }, each
 *   body base64 and each headers object an answer's own (node:http adds date and connection).
 * Prints `listening http://127.0.0.1:PORT` when ready.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

function recorded(variant) {
  return { headers: variant.headers, body: Buffer.from(variant.body, 'base64') };
}

const bodies = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const answers = new Map();
for (const [path, entry] of Object.entries(bodies)) {
  answers.set(path, { identity: recorded(entry.identity), compressed: recorded(entry.compressed) });
}
const server = createServer((req, res) => {
  const answer = answers.get(req.url);
  if (!answer) {
    res.writeHead(404, { 'content-length': '0' });
    res.end();
    return;
  }
  const accept = req.headers['accept-encoding'] ?? '';
  const variant = accept.includes('br') || accept.includes('gzip') ? answer.compressed : answer.identity;
  res.writeHead(200, variant.headers);
  res.end(variant.body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
