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
});
