import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCopyFile, openCopy, readCopyText, readFileChunks } from './copy.js';
import { openSource, prefetchSource } from './open.js';

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

  it('tells once read whether it inflates gzip, from the source and from a copy', async () => {
    const plain = join(dir, 'guide.xml');
    const gz = join(dir, 'guide.xml.gz');
    writeFileSync(plain, '<tv/>');
    writeFileSync(gz, gzipSync('<tv/>'));
    for (const [path, inflated] of [
      [plain, false],
      [gz, true],
    ] as const) {
      const stream = await openSource(path, { allowFiles: true });
      if (stream.notModified) throw new Error('unexpected');
      expect(stream.inflated).toBe(false);
      expect((await read(stream)).toString()).toBe('<tv/>');
      expect(stream.inflated).toBe(inflated);
      const copy = openCopy(readFileChunks(path), path);
      await read(copy);
      expect(copy.inflated).toBe(inflated);
    }
  });

  it('bounds what a copy decompresses to', async () => {
    const bomb = gzipSync(Buffer.alloc(1024 * 1024));
    await expect(read(openCopy([bomb], 'bomb.xml', { maxDecompressedBytes: 1000 }))).rejects.toThrow(/bomb\.xml/);
  });

  it('takes a local file whole and reads the copy: a change after the copy does not reach the read', async () => {
    const source = join(dir, 'guide.xml');
    const before = `<tv>${'<programme/>'.repeat(1000)}</tv>`;
    writeFileSync(source, before);
    const copy = createCopyFile(join(dir, 'guide.copy'));
    await prefetchSource(source, { allowFiles: true, copyTo: copy });
    const copiedAt = statSync(source);
    writeFileSync(source, '<tv>replaced meanwhile, and of another size</tv>');
    const stream = await openSource(source, { allowFiles: true, copyTo: copy });
    if (stream.notModified) throw new Error('unexpected');
    expect((await read(stream)).toString()).toBe(before);
    // The validators describe what was read, so the next refresh sees the file as changed.
    expect(stream.metadata.byteLength).toBe(before.length);
    expect(stream.metadata.etag).toBe(`W/"${copiedAt.size.toString(16)}-${Math.floor(copiedAt.mtimeMs).toString(16)}"`);
    expect(await copy.finish()).toBe(before.length);
    expect(readFileSync(copy.path, 'utf8')).toBe(before);
  });

  it('takes no snapshot ahead of a file it would not read', async () => {
    const source = join(dir, 'guide.xml');
    writeFileSync(source, '<tv/>');
    const info = statSync(source);
    const unchanged = { etag: `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"` };
    const cases = [{ allowFiles: false }, { allowFiles: true, maxBytes: 2 }, { allowFiles: true, previous: unchanged }];
    for (const [i, options] of cases.entries()) {
      const copy = createCopyFile(join(dir, `skipped-${i}.copy`));
      await prefetchSource(source, { ...options, copyTo: copy });
      expect(existsSync(copy.path)).toBe(false);
    }
    // A missing file: nothing copied, and the read names the error.
    const copy = createCopyFile(join(dir, 'missing.copy'));
    await prefetchSource(join(dir, 'nowhere.xml'), { allowFiles: true, copyTo: copy });
    await expect(openSource(join(dir, 'nowhere.xml'), { allowFiles: true, copyTo: copy })).rejects.toThrow(
      /nowhere\.xml: file not found/,
    );
  });

  it('names the copy when the disk refuses it, and the source when the source is unreadable', async () => {
    const source = join(dir, 'guide.xml');
    writeFileSync(source, '<tv/>');
    // A copy path inside a missing folder: the copy's side fails, not the source's.
    const lost = createCopyFile(join(dir, 'gone', 'guide.copy'));
    await expect(openSource(source, { allowFiles: true, copyTo: lost })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/cannot write the copy of a source to .*gone.*guide\.copy/),
    });
    const unreadable = join(dir, 'locked.xml');
    writeFileSync(unreadable, '<tv/>');
    chmodSync(unreadable, 0);
    // root reads any file: the case only holds for other users.
    if (process.getuid?.() !== 0) {
      await expect(
        openSource(unreadable, { allowFiles: true, copyTo: createCopyFile(join(dir, 'locked.copy')) }),
      ).rejects.toMatchObject({
        code: 'SOURCE_UNREADABLE',
        message: expect.stringMatching(/locked\.xml: permission denied/),
      });
    }
    const copy = createCopyFile(join(dir, 'guide.copy'));
    await expect(copy.snapshot!(source)).resolves.toMatchObject({ path: copy.path, size: 5 });
    await expect(copy.snapshot!(join(dir, 'other.xml'))).rejects.toThrow(/is a snapshot of/);
    await expect(copy.write(Buffer.from('x'))).rejects.toThrow(/snapshot/);
  });

  it('writes a source it cannot take whole (a URL) chunk by chunk', async () => {
    const copy = createCopyFile(join(dir, 'chunks.copy'));
    await copy.write(Buffer.from('<tv>'));
    await copy.write(Buffer.from('</tv>'));
    await expect(copy.snapshot!(join(dir, 'x.xml'))).rejects.toThrow(/being written/);
    expect(await copy.finish()).toBe(9);
    expect(readFileSync(copy.path, 'utf8')).toBe('<tv></tv>');
  });
});
