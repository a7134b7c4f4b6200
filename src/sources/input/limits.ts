/**
 * The size limits of sources, in one place. A source is read through `openSource`, which applies
 * its limits while the bytes arrive: `limitBytes` on the bytes as read (file or network), and again
 * on the bytes gzip inflates to, so nothing past a limit is parsed or held, and the file or socket
 * is closed at once. What differs between readers is only which limits they open with:
 * `limitsFor(kind, options)` gives them.
 *
 * A guide is streamed into the store (flat memory): it may be as large as the operator allows
 * (`sources.maxMegabytes`). Sources held whole or turned into records in memory (a playlist, a
 * library file, an Xtream list or answer) have a cap of their kind as well, which the operator's
 * setting can lower but not raise: past it, memory would grow with what a source sends.
 */
import { MarqueeError } from '../../errors.js';
import type { SourceOptions } from './types.js';

const MiB = 1024 * 1024;

/** The kinds of source a reader opens, each with its own caps. */
export type SourceKind = 'guide' | 'playlist' | 'library' | 'api-list' | 'api-answer';

interface KindLimits {
  /** Bytes read (file or network, before decompression). */
  readonly maxBytes: number;
  /** Bytes after decompression. */
  readonly maxDecompressedBytes: number;
  /** True when the source is held in memory (as text or records): its caps cannot be raised. */
  readonly held: boolean;
}

/**
 * The caps of each kind. `playlist` and `library` are read whole as text; `api-list` is a list
 * answer of an Xtream panel (`get_live_streams`, `get_vod_streams`), streamed element by element
 * into records that are kept; `api-answer` is a small answer read whole (an account, one title).
 */
export const SOURCE_LIMITS: Readonly<Record<SourceKind, KindLimits>> = {
  guide: { maxBytes: 512 * MiB, maxDecompressedBytes: 1024 * MiB, held: false },
  playlist: { maxBytes: 64 * MiB, maxDecompressedBytes: 64 * MiB, held: true },
  library: { maxBytes: 64 * MiB, maxDecompressedBytes: 64 * MiB, held: true },
  'api-list': { maxBytes: 64 * MiB, maxDecompressedBytes: 64 * MiB, held: true },
  'api-answer': { maxBytes: 4 * MiB, maxDecompressedBytes: 4 * MiB, held: true },
};

/**
 * `options` with the size limits of a source of `kind`: the operator's `maxBytes` where it is
 * lower (or, for a guide, whatever it is), the kind's cap otherwise; the inflated bytes of a
 * source held in memory are capped alike.
 * @example await readSourceText(url, limitsFor('playlist', { maxBytes: 512 << 20 })) // read at most 64 MiB
 */
export function limitsFor(kind: SourceKind, options: SourceOptions = {}): SourceOptions {
  const caps = SOURCE_LIMITS[kind];
  if (!caps.held) {
    return {
      ...options,
      maxBytes: options.maxBytes ?? caps.maxBytes,
      maxDecompressedBytes: options.maxDecompressedBytes ?? caps.maxDecompressedBytes,
    };
  }
  const maxBytes = Math.min(options.maxBytes ?? caps.maxBytes, caps.maxBytes);
  return {
    ...options,
    maxBytes,
    maxDecompressedBytes: Math.min(options.maxDecompressedBytes ?? maxBytes, caps.maxDecompressedBytes, maxBytes),
  };
}

/**
 * The error of a source past a limit, naming the source and the limit: `what` says which bytes
 * (`bytes`, or `bytes once decompressed`).
 * @example tooLarge('https://x/list.m3u', 1024, 'bytes').message // 'https://x/list.m3u: more than 1024 bytes'
 */
export function tooLarge(label: string, max: number, what: string): MarqueeError {
  return new MarqueeError('SOURCE_TOO_LARGE', `${label}: more than ${max} ${what}`, {
    details: { source: label, limit: max },
  });
}

/**
 * Pass chunks through, failing with SOURCE_TOO_LARGE as soon as more than `max` bytes went by:
 * the chunk that crosses the limit is never handed on.
 * @example for await (const chunk of limitBytes(file, 1024, 'list.m3u', 'bytes')) use(chunk)
 */
export async function* limitBytes(
  chunks: AsyncIterable<Buffer>,
  max: number,
  label: string,
  what: string,
): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > max) throw tooLarge(label, max, what);
    yield chunk;
  }
}
