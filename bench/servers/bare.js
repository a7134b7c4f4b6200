/**
 * The practical limit of Node on this machine: a bare node:http server that answers each path
 * with bytes computed once at start (identity, gzip and brotli), with the headers an add-on
 * answer needs (content type, CORS, cache, vary) and nothing else: no routing beyond one Map
 * lookup, no handler, no serialization.
 *
 * Usage: node bench/servers/bare.js BODIES.json   (a JSON object: path → body text)
 * Prints `listening http://127.0.0.1:PORT` when ready.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const bodies = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const answers = new Map();
for (const [path, text] of Object.entries(bodies)) {
  const identity = Buffer.from(text);
  // Brotli at the quality Marquee uses, so the bytes on the wire are comparable.
  const br = brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  const gzip = gzipSync(identity, { level: 6 });
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
    'cache-control': 'max-age=300',
    vary: 'Accept-Encoding',
  };
  answers.set(path, { identity, gzip, br, headers });
}

const server = createServer((req, res) => {
  const answer = answers.get(req.url);
  if (!answer) {
    res.writeHead(404, { 'content-length': '0' });
    res.end();
    return;
  }
  const accept = req.headers['accept-encoding'] ?? '';
  const encoding = accept.includes('br') ? 'br' : accept.includes('gzip') ? 'gzip' : 'identity';
  const body = answer[encoding];
  res.writeHead(200, {
    ...answer.headers,
    'content-length': body.byteLength,
    ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
  });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
