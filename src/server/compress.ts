import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export type Encoding = 'br' | 'gzip' | 'identity';

/** Bodies smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

/** Accept-Encoding values seen, and what they chose: clients send the same few on every request. */
const negotiated = new Map<string, Encoding>();
const MAX_NEGOTIATED = 64;

/** Pick the encoding from Accept-Encoding: brotli, then gzip, honouring `q=0`. */
export function negotiateEncoding(accept: string | undefined): Encoding {
  if (!accept) return 'identity';
  if (accept.length > 256) return parseAcceptEncoding(accept);
  let encoding = negotiated.get(accept);
  if (encoding === undefined) {
    encoding = parseAcceptEncoding(accept);
    // Bounded: a client may send anything there. Clearing costs one parse per value seen again.
    if (negotiated.size >= MAX_NEGOTIATED) negotiated.clear();
    negotiated.set(accept, encoding);
  }
  return encoding;
}

function parseAcceptEncoding(accept: string): Encoding {
  let br = false;
  let gzipOk = false;
  for (const part of accept.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) <= 0) continue;
    if (name === 'br') br = true;
    else if (name === 'gzip' || name === 'x-gzip' || name === '*') gzipOk = true;
  }
  return br ? 'br' : gzipOk ? 'gzip' : 'identity';
}

/**
 * Compress off the event loop. Brotli at quality 5: close to gzip's speed, ~15% smaller on
 * guide JSON; quality 11 would take tens of milliseconds on a 1 MB guide page.
 */
export function compress(body: Uint8Array, encoding: Exclude<Encoding, 'identity'>): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : gz(body, { level: 6 });
}
