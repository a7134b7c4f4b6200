import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import { limitBytes, limitsFor, SOURCE_LIMITS } from './limits.js';

async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

const MiB = 1024 * 1024;

describe('limitBytes', () => {
  it('lets exactly max bytes through and fails on one more, naming the source and the limit', async () => {
    expect((await collect(limitBytes(pieces(Buffer.alloc(10), 3), 10, 'f', 'bytes'))).length).toBe(10);
    const error = await collect(limitBytes(pieces(Buffer.alloc(11), 3), 10, 'f', 'bytes')).catch((e: unknown) => e);
    expect(isMarqueeError(error, 'SOURCE_TOO_LARGE')).toBe(true);
    expect((error as Error).message).toBe('f: more than 10 bytes');
    expect((error as { details?: unknown }).details).toEqual({ source: 'f', limit: 10 });
  });

  it('stops reading at the chunk that crosses the limit: the rest is never asked for', async () => {
    let asked = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        asked++;
        yield Buffer.alloc(100);
      }
    }
    await expect(collect(limitBytes(endless(), 1000, 'endless', 'bytes'))).rejects.toThrow('more than 1000 bytes');
    expect(asked).toBe(11);
  });
});

describe('limitsFor', () => {
  it("caps a source held in memory at its kind's limit, whatever the operator allows", () => {
    expect(limitsFor('playlist', { maxBytes: 512 * MiB })).toMatchObject({
      maxBytes: 64 * MiB,
      maxDecompressedBytes: 64 * MiB,
    });
    expect(limitsFor('api-list', {})).toMatchObject({ maxBytes: 64 * MiB, maxDecompressedBytes: 64 * MiB });
    expect(limitsFor('api-answer', { maxBytes: 512 * MiB })).toMatchObject({ maxBytes: 4 * MiB });
  });

  it("keeps the operator's lower limit, for the inflated bytes too", () => {
    expect(limitsFor('playlist', { maxBytes: MiB })).toMatchObject({ maxBytes: MiB, maxDecompressedBytes: MiB });
    expect(limitsFor('library', { maxBytes: 8 * MiB, maxDecompressedBytes: 2 * MiB })).toMatchObject({
      maxBytes: 8 * MiB,
      maxDecompressedBytes: 2 * MiB,
    });
  });

  it("gives a streamed guide the operator's limits, or the defaults", () => {
    expect(limitsFor('guide', {})).toMatchObject({
      maxBytes: SOURCE_LIMITS.guide.maxBytes,
      maxDecompressedBytes: SOURCE_LIMITS.guide.maxDecompressedBytes,
    });
    expect(limitsFor('guide', { maxBytes: 2048 * MiB })).toMatchObject({ maxBytes: 2048 * MiB });
  });

  it('keeps the other options', () => {
    expect(limitsFor('playlist', { timeoutMs: 5, allowFiles: false })).toMatchObject({
      timeoutMs: 5,
      allowFiles: false,
    });
  });
});
