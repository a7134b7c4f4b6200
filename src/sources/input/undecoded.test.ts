/**
 * SourceStream.undecoded(): the bytes as read, which `inflateChunks` turns into exactly what the
 * stream itself yields, in whichever thread runs it; the caps still apply, a copy still gets the
 * bytes as they came (a copy of its own when the reader takes each chunk's memory), and a source
 * is read once, either way.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import { inflateChunks } from './bytes.js';
import { createCopyFile, openCopy, readFileChunks } from './copy.js';
import { openSource } from './open.js';
import type { SourceStream } from './types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-undecoded-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function read(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of stream) parts.push(chunk);
  return Buffer.concat(parts);
}

async function open(path: string, options: Parameters<typeof openSource>[1] = {}): Promise<SourceStream> {
  const stream = await openSource(path, { allowFiles: true, ...options });
  if (stream.notModified) throw new Error('unexpected');
  return stream;
}

/** `bytes` as chunks: one of `first` bytes (the magic split), then `size` at a time. */
async function* pieces(bytes: Buffer, first: number, size: number): AsyncGenerator<Buffer> {
  yield bytes.subarray(0, first);
  for (let i = first; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** A text of many 256 KiB reads, not compressible to nothing. */
function text(bytes: number): string {
  const parts: string[] = [];
  for (let i = 0, n = 0; n < bytes; i++) {
    const line = `<programme start="${i}" channel="c${i % 97}"><title>Show ${i * 7919}</title></programme>\n`;
    parts.push(line);
    n += line.length;
  }
  return parts.join('');
}

describe('a source as read, inflated elsewhere', () => {
  it('hands over plain and gzip bytes as they are, and inflating them gives what the stream gives', async () => {
    const body = text(1_500_000);
    const plain = join(dir, 'guide.xml');
    const gz = join(dir, 'guide.xml.gz');
    const twice = join(dir, 'guide.xml.gz.gz');
    writeFileSync(plain, body);
    writeFileSync(gz, gzipSync(body));
    writeFileSync(twice, gzipSync(gzipSync(body)));
    for (const path of [plain, gz, twice]) {
      const raw = (await open(path)).undecoded!();
      expect(raw.inflate).toEqual({ label: path, maxDecompressedBytes: 1024 * 1024 * 1024, layers: 2 });
      const bytes = await read(raw.chunks);
      expect(bytes.equals(readFileSync(path))).toBe(true);
      const inflated = await read(inflateChunks(pieces(bytes, 1, 65_536), raw.inflate));
      expect(inflated.toString()).toBe(body);
      expect(inflated.equals(await read(await open(path)))).toBe(true);
    }
  });

  it('says a file owns its chunks, and gives a copy being written a copy of its own', async () => {
    const body = text(1_200_000);
    const path = join(dir, 'guide.xml');
    writeFileSync(path, body);
    const copy = createCopyFile(join(dir, 'guide.copy'));
    const raw = (await open(path, { copyTo: copy })).undecoded!();
    expect(raw.ownChunks).toBe(true);
    let whole = 0;
    for await (const chunk of raw.chunks) {
      if (chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength) whole++;
      // What a reader that takes the chunk's memory does: the copy must not see it change.
      chunk.fill(0x21);
    }
    expect(whole).toBeGreaterThan(3);
    await copy.finish();
    expect(readFileSync(copy.path, 'utf8')).toBe(body);
  });

  it('keeps the size cap on the bytes it hands over', async () => {
    const raw = openCopy([Buffer.alloc(600, 0x20), Buffer.alloc(600, 0x20)], 'guide.xml', {
      maxDecompressedBytes: 1000,
    }).undecoded!();
    const error = await read(raw.chunks).catch((e: unknown) => e);
    expect(isMarqueeError(error) && error.code).toBe('SOURCE_TOO_LARGE');
    expect((error as Error).message).toBe('guide.xml: more than 1000 bytes');
  });

  it('keeps the decompressed cap when inflated from what it hands over', async () => {
    const path = join(dir, 'bomb.xml.gz');
    writeFileSync(path, gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20)));
    const raw = (await open(path, { maxDecompressedBytes: 1024 * 1024 })).undecoded!();
    const error = await read(inflateChunks(raw.chunks, raw.inflate)).catch((e: unknown) => e);
    expect(isMarqueeError(error) && error.code).toBe('SOURCE_TOO_LARGE');
    expect((error as Error).message).toBe(`${path}: more than 1048576 bytes once decompressed`);
  });

  it('is read once: as it is read or as it is stored, not both', async () => {
    const path = join(dir, 'guide.xml');
    writeFileSync(path, '<tv/>');
    const stream = await open(path);
    const raw = stream.undecoded!();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/can be read only once/);
    expect((await read(raw.chunks)).toString()).toBe('<tv/>');
    const other = await open(path);
    await read(other);
    expect(() => other.undecoded!()).toThrow(/can be read only once/);
  });

  it('hands over a stored copy too, without claiming its chunks', async () => {
    const body = text(300_000);
    const path = join(dir, 'copy.gz');
    writeFileSync(path, gzipSync(body));
    const raw = openCopy(readFileChunks(path, 4096), 'guide.xml').undecoded!();
    expect(raw.ownChunks).toBe(false);
    expect(raw.inflate.label).toBe('guide.xml');
    expect((await read(inflateChunks(raw.chunks, raw.inflate))).toString()).toBe(body);
  });
});
