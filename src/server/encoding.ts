/**
 * Content negotiation, with no compression of its own: which encoding a client accepts. Node's
 * compression (zlib, in threads) is in compress.ts; other runtimes' in web-platform.ts.
 */

export type Encoding = 'br' | 'gzip' | 'identity';

/** The encodings that compress. */
export type Compressed = Exclude<Encoding, 'identity'>;

/** Bodies smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

/** What an Accept-Encoding value accepts: `BR | GZIP` bits. */
const BR = 1;
const GZIP = 2;

/** Accept-Encoding values seen, and what they accept: clients send the same few on every request. */
const negotiated = new Map<string, number>();
const MAX_NEGOTIATED = 64;

function accepted(accept: string): number {
  if (accept.length > 256) return parseAcceptEncoding(accept);
  let bits = negotiated.get(accept);
  if (bits === undefined) {
    bits = parseAcceptEncoding(accept);
    // Bounded: a client may send anything there. Clearing costs one parse per value seen again.
    if (negotiated.size >= MAX_NEGOTIATED) negotiated.clear();
    negotiated.set(accept, bits);
  }
  return bits;
}

/** Pick the encoding from Accept-Encoding: brotli, then gzip, honouring `q=0`. */
export function negotiateEncoding(accept: string | undefined): Encoding {
  if (!accept) return 'identity';
  const bits = accepted(accept);
  return bits & BR ? 'br' : bits & GZIP ? 'gzip' : 'identity';
}

/** gzip when Accept-Encoding allows it (a runtime that compresses to gzip only). */
export function negotiateGzip(accept: string | undefined): Encoding {
  return accept && accepted(accept) & GZIP ? 'gzip' : 'identity';
}

function parseAcceptEncoding(accept: string): number {
  let bits = 0;
  for (const part of accept.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) <= 0) continue;
    if (name === 'br') bits |= BR;
    else if (name === 'gzip' || name === 'x-gzip' || name === '*') bits |= GZIP;
  }
  return bits;
}
