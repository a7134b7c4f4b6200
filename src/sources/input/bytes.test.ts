import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { maybeGunzip } from './bytes.js';

async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

describe('maybeGunzip', () => {
  it('finds the magic bytes when the first chunk holds only one of them', async () => {
    const text = 'split magic '.repeat(100);
    const out = await collect(maybeGunzip(pieces(gzipSync(text), 1), 1 << 20, 'x.gz'));
    expect(out.toString()).toBe(text);
  });

  it('passes through plain data, a one-byte source and an empty source unchanged', async () => {
    expect((await collect(maybeGunzip(pieces(Buffer.from('\x1fplain'), 1), 100, 'p'))).toString()).toBe('\x1fplain');
    expect((await collect(maybeGunzip(pieces(Buffer.from([0x1f]), 1), 100, 'p'))).length).toBe(1);
    expect((await collect(maybeGunzip(pieces(Buffer.alloc(0), 1), 100, 'p'))).length).toBe(0);
  });
});
