/**
 * Opening one of a channel's streams and telling what it is from its first bytes (never from its
 * name alone: an Xtream URL without an extension may answer a TS stream or redirect to a
 * playlist): an HLS playlist (`#EXTM3U`, read whole, up to a cap), an MPEG transport stream
 * (packets in step), or something the relay cannot cut (said, with its content type).
 */
import type { Readable } from 'node:stream';
import { MarqueeError } from '../errors.js';
import { decodeText, type LiveSource } from '../sources/input/index.js';
import { FETCH_LIMITS } from './fetch.js';
import { PACKET, syncOffset } from './ts-packet.js';

export type Opened =
  | { readonly kind: 'ts'; readonly source: LiveSource }
  | { readonly kind: 'hls'; readonly text: string; readonly url: string }
  | { readonly kind: 'other'; readonly what: string };

/** Bytes looked at to find packets in step. */
const SNIFF_BYTES = 8 * PACKET;

/**
 * @example const opened = await sniff(await openUpstream(...)) // { kind: 'ts', source }
 */
export async function sniff(source: LiveSource): Promise<Opened> {
  const head: Buffer[] = [];
  let length = 0;
  try {
    for (;;) {
      const chunk = await nextChunk(source.body);
      if (chunk === null) break;
      head.push(chunk);
      length += chunk.length;
      const bytes = head.length === 1 ? chunk : Buffer.concat(head);
      const text = bytes
        .subarray(0, 16)
        .toString('latin1')
        .replace(/^\u00EF\u00BB\u00BF/, '')
        .trimStart();
      if (text.startsWith('#EXTM3U') || (text.length >= 7 && isPlaylistType(source) && text.startsWith('#'))) {
        return await readPlaylist(source, head, length);
      }
      if (bytes.length >= 3 * PACKET) {
        const at = syncOffset(bytes.subarray(0, Math.min(bytes.length, SNIFF_BYTES)));
        if (at !== -1 && at + 3 * PACKET <= bytes.length) {
          source.body.unshift(bytes);
          return { kind: 'ts', source };
        }
        if (bytes.length >= SNIFF_BYTES) break;
      }
    }
    source.close();
    return { kind: 'other', what: source.metadata.contentType ?? 'an unknown format' };
  } catch (error) {
    source.close();
    throw error;
  }
}

function isPlaylistType(source: LiveSource): boolean {
  return /mpegurl/i.test(source.metadata.contentType ?? '');
}

async function readPlaylist(source: LiveSource, head: Buffer[], length: number): Promise<Opened> {
  let total = length;
  try {
    for (;;) {
      const chunk = await nextChunk(source.body);
      if (chunk === null) break;
      total += chunk.length;
      if (total > FETCH_LIMITS.playlistBytes) {
        throw new MarqueeError('SOURCE_TOO_LARGE', `a playlist of more than ${FETCH_LIMITS.playlistBytes} bytes`);
      }
      head.push(chunk);
    }
  } finally {
    source.close();
  }
  return { kind: 'hls', text: decodeText(Buffer.concat(head)), url: source.url };
}

/** The next chunk of a readable (null at its end), its error thrown. */
function nextChunk(body: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunk = body.read() as Buffer | null;
    if (chunk !== null) return resolve(chunk);
    if (body.readableEnded || body.destroyed) {
      const error = body.errored;
      return error ? reject(error) : resolve(null);
    }
    const done = () => {
      body.off('readable', onReadable);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onEnd);
    };
    const onReadable = () => {
      const next = body.read() as Buffer | null;
      if (next === null) return;
      done();
      resolve(next);
    };
    const onEnd = () => {
      done();
      const error = body.errored;
      if (error) reject(error);
      else resolve(null);
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    body.on('readable', onReadable);
    body.once('end', onEnd);
    body.once('close', onEnd);
    body.once('error', onError);
  });
}
