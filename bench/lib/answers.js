/** One request outside the load runs: what a server answers, its size on the wire, and a summary of its content. */
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export const DAY_MS = 86_400_000;

/**
 * GET `url` (127.0.0.1 only) and read the whole answer, decoded.
 *
 * @example const { status, bytes, text } = await fetchAnswer('http://127.0.0.1:7000/manifest.json')
 */
export function fetchAnswer(url, compressed = false, timeoutMs = 30_000) {
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`refusing to fetch anything but 127.0.0.1: ${url}`);
  return new Promise((resolve, reject) => {
    const request = get(url, { headers: compressed ? { 'accept-encoding': 'gzip, br' } : {}, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'] ?? 'identity';
        const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
        resolve({
          status: res.statusCode,
          bytes: raw.byteLength,
          encoding,
          text: body.toString('utf8'),
          raw,
          headers: answerHeaders(res.headers),
        });
      });
      res.on('error', reject);
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`${url}: no answer in ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}

/** What node:http adds to every answer of its own (the date, the connection's state): not part of an answer to replay. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** An answer's own headers, as received (lower-case names), without the connection's. */
function answerHeaders(headers) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CONNECTION_HEADERS.has(name)));
}

/** `{ status, bytes, content }` where content says what the answer holds: `100 metas`, `100 channels, 4800 programmes`. */
export function summarize(answer) {
  let content = '';
  try {
    const body = JSON.parse(answer.text);
    if (Array.isArray(body.metasDetailed)) {
      const videos = body.metasDetailed.reduce((n, m) => n + (m.videos?.length ?? 0), 0);
      content = `${body.metasDetailed.length} channels, ${videos} programmes`;
    } else if (Array.isArray(body.metas)) content = `${body.metas.length} metas`;
    else if (body.meta) content = `1 meta, ${Object.keys(body.meta).length} fields`;
    else if (Array.isArray(body.streams)) content = `${body.streams.length} streams`;
    else content = Object.keys(body).join(', ');
  } catch {
    content = 'not JSON';
  }
  return { status: answer.status, bytes: answer.bytes, content };
}
