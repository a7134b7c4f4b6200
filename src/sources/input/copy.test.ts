import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCopyFile, openCopy, readCopyText, readFileChunks } from './copy.js';
import { openSource } from './open.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-copy-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function read(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk);
  return Buffer.concat(parts);
}

describe('source copies', () => {
  it('copies a plain source as it is read, and reads back the same bytes', async () => {
    const text = `<tv>${'<programme/>'.repeat(50_000)}</tv>`;
    const source = join(dir, 'guide.xml');
    writeFileSync(source, text);
    const copy = createCopyFile(join(dir, 'guide.copy'));
    const stream = await openSource(source, { allowFiles: true, copyTo: copy });
    if (stream.notModified) throw new Error('unexpected');
    expect((await read(stream)).toString()).toBe(text);
    const size = await copy.finish();
    expect(size).toBe(statSync(copy.path).size);
    expect(readFileSync(copy.path, 'utf8')).toBe(text);
    expect((await read(openCopy(readFileChunks(copy.path, 4096), 'guide.xml'))).toString()).toBe(text);
  });

  it('keeps a gzip source as it came', async () => {
    const gz = gzipSync('#EXTM3U\n#EXTINF:-1,A\nhttp://x/a\n');
    const source = join(dir, 'list.m3u.gz');
    writeFileSync(source, gz);
    const copy = createCopyFile(join(dir, 'list.copy'));
    const stream = await openSource(source, { allowFiles: true, copyTo: copy });
    if (stream.notModified) throw new Error('unexpected');
    await read(stream);
    await copy.finish();
    expect(readFileSync(copy.path)).toEqual(gz);
    expect(await readCopyText(readFileChunks(copy.path), 'list.m3u.gz', 1024)).toBe(
      '#EXTM3U\n#EXTINF:-1,A\nhttp://x/a\n',
    );
  });

  it('takes a local file whole, then reads the copy: what is parsed is what was copied', async () => {
    const source = join(dir, 'guide.xml');
    writeFileSync(source, '<tv>first</tv>');
    const copy = createCopyFile(join(dir, 'guide.copy'));
    const stream = await openSource(source, { allowFiles: true, copyTo: copy });
    if (stream.notModified) throw new Error('unexpected');
    // The source changes after it was opened: the stream reads the copy, not the new text.
    writeFileSync(source, '<tv>second, longer</tv>');
    expect((await read(stream)).toString()).toBe('<tv>first</tv>');
    expect(await copy.finish()).toBe(14);
    expect(readFileSync(copy.path, 'utf8')).toBe('<tv>first</tv>');
    // The validators are the source's own (size and mtime), not the copy's.
    expect(stream.metadata.etag).toMatch(/^W\/"e-/);
  });

  it('copies a local file chunk by chunk for a sink that does not take files whole', async () => {
    const source = join(dir, 'guide.xml');
    writeFileSync(source, '<tv/>');
    const chunks: Buffer[] = [];
    const stream = await openSource(source, { allowFiles: true, copyTo: { write: (c) => void chunks.push(c) } });
    if (stream.notModified) throw new Error('unexpected');
    await read(stream);
    expect(Buffer.concat(chunks).toString()).toBe('<tv/>');
  });

  it('names a local file that cannot be copied, and a copy that cannot be written', async () => {
    const copy = createCopyFile(join(dir, 'missing-folder', 'guide.copy'));
    const source = join(dir, 'guide.xml');
    writeFileSync(source, '<tv/>');
    await expect(openSource(source, { allowFiles: true, copyTo: copy })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining('missing-folder'),
    });
    await expect(createCopyFile(join(dir, 'x.copy')).copyFile(join(dir, 'gone.xml'))).rejects.toMatchObject({
      code: 'SOURCE_UNREADABLE',
      message: expect.stringContaining('gone.xml: file not found'),
    });
  });

  it('refuses a write after a whole-file copy, and a whole-file copy after a write', async () => {
    const source = join(dir, 'guide.xml');
    writeFileSync(source, '<tv/>');
    const whole = createCopyFile(join(dir, 'a.copy'));
    await whole.copyFile(source);
    await expect(whole.write(Buffer.from('x'))).rejects.toThrow(/already holds a whole file/);
    const chunked = createCopyFile(join(dir, 'b.copy'));
    await chunked.write(Buffer.from('x'));
    await expect(chunked.copyFile(source)).rejects.toThrow(/after the copy began/);
    chunked.discard();
  });

  it('bounds what a copy decompresses to', async () => {
    const bomb = gzipSync(Buffer.alloc(1024 * 1024));
    await expect(read(openCopy([bomb], 'bomb.xml', { maxDecompressedBytes: 1000 }))).rejects.toThrow(/bomb\.xml/);
  });
});
