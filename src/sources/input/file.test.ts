import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { MarqueeError } from '../../errors.js';
import { openSource, readSourceText } from './open.js';

const dir = mkdtempSync(join(tmpdir(), 'marquee-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function failure(promise: Promise<unknown>): Promise<MarqueeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarqueeError);
  return error as MarqueeError;
}

const trusted = { allowPrivateAddresses: true };

describe('reading files', () => {
  it('reads a UTF-8 file without its BOM, with size and an etag', async () => {
    const path = file('list.m3u', '\uFEFF#EXTM3U\nÄrger,ü\n');
    const result = await readSourceText(path, trusted);
    if (result.notModified) throw new Error('expected content');
    expect(result.text).toBe('#EXTM3U\nÄrger,ü\n');
    expect(result.metadata).toMatchObject({ location: path, byteLength: 21 });
    expect(result.metadata.etag).toMatch(/^W\/"/);
  });

  it('reads a file:// URL and a UTF-16 file with its BOM', async () => {
    const path = file(
      'utf16.m3u',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('#EXTM3U\nÉté\n', 'utf16le')]),
    );
    const result = await readSourceText(pathToFileURL(path).href, trusted);
    expect(!result.notModified && result.text).toBe('#EXTM3U\nÉté\n');
  });

  it('decompresses gzip found by its magic bytes, whatever the name says', async () => {
    const xml = '<tv>' + '<programme/>'.repeat(1000) + '</tv>';
    const path = file('guide.xml', gzipSync(xml)); // a gzip file named .xml
    const result = await readSourceText(path, trusted);
    expect(!result.notModified && result.text).toBe(xml);
    const plain = file('plain.xml.gz', xml); // and plain text named .gz
    const again = await readSourceText(plain, trusted);
    expect(!again.notModified && again.text).toBe(xml);
  });

  it('opens two gzip layers, and streams chunks without reading everything first', async () => {
    const payload = Buffer.alloc(3 * 1024 * 1024, 'a');
    const path = file('double.gz', gzipSync(gzipSync(payload)));
    const source = await openSource(path, trusted);
    if (source.notModified) throw new Error('expected content');
    let total = 0;
    let chunks = 0;
    for await (const chunk of source) {
      total += chunk.length;
      chunks++;
    }
    expect(total).toBe(payload.length);
    expect(chunks).toBeGreaterThan(1);
  });

  it('bounds a gzip bomb by its decompressed size', async () => {
    const bomb = file('bomb.gz', gzipSync(Buffer.alloc(50 * 1024 * 1024))); // ~50 KB on disk
    const error = await failure(readSourceText(bomb, { ...trusted, maxBytes: 1024 * 1024 }));
    expect(error.code).toBe('SOURCE_TOO_LARGE');
    expect(error.message).toBe(`${bomb}: more than ${1024 * 1024} bytes once decompressed`);
  });

  it('reports broken gzip as unreadable, naming the file', async () => {
    const broken = file('broken.gz', gzipSync('hello world, this will be cut').subarray(0, 15));
    const error = await failure(readSourceText(broken, trusted));
    expect(error.code).toBe('SOURCE_UNREADABLE');
    expect(error.message).toMatch(new RegExp(`^${broken}: broken gzip data`));
  });

  it('refuses a file over maxBytes before reading it', async () => {
    const big = file('big.m3u', 'x'.repeat(2048));
    const error = await failure(readSourceText(big, { ...trusted, maxBytes: 1024 }));
    expect(error.code).toBe('SOURCE_TOO_LARGE');
    expect(error.message).toBe(`${big}: 2048 bytes, more than the limit of 1024`);
  });

  it('names a missing file and a directory clearly', async () => {
    const missing = join(dir, 'nope', 'list.m3u');
    const error = await failure(readSourceText(missing, trusted));
    expect(error.code).toBe('SOURCE_UNREADABLE');
    expect(error.message).toBe(`${missing}: file not found`);
    const isDir = await failure(readSourceText(dir, trusted));
    expect(isDir.message).toBe(`${dir}: is a directory, not a file`);
  });

  it('answers notModified when the file has not changed since the previous read', async () => {
    const path = file('stable.m3u', '#EXTM3U\n');
    const first = await openSource(path, trusted);
    if (first.notModified) throw new Error('expected content');
    first.close();
    const second = await openSource(path, { ...trusted, previous: { etag: first.metadata.etag } });
    expect(second.notModified).toBe(true);
    writeFileSync(path, '#EXTM3U\n#EXTINF:-1,A\nhttp://a\n');
    const third = await openSource(path, { ...trusted, previous: { etag: first.metadata.etag } });
    expect(third.notModified).toBe(false);
    if (!third.notModified) third.close();
  });

  it('refuses local files for untrusted locations', async () => {
    const path = file('secret.txt', 'secret');
    const error = await failure(readSourceText(path));
    expect(error.code).toBe('SOURCE_FORBIDDEN');
    expect(error.message).toBe(`${path}: local files may not be read from this source`);
    const allowed = await readSourceText(path, { allowFiles: true });
    expect(!allowed.notModified && allowed.text).toBe('secret');
  });

  it('lets a stream be read only once, and closing early is clean', async () => {
    const path = file('once.txt', Buffer.alloc(1024 * 1024, 'b'));
    const source = await openSource(path, trusted);
    if (source.notModified) throw new Error('expected content');
    for await (const _chunk of source) break;
    expect(() => source[Symbol.asyncIterator]()).toThrow(/can be read only once/);
  });
});
