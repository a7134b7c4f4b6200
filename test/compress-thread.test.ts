/**
 * Compression in a thread of its own (src/server/compress.ts, from the build: a worker thread
 * cannot load the TypeScript sources). Its bodies are byte for byte what zlib gives in this thread
 * with the same settings, on real-world JSON; many bodies at once each get their own answer; a
 * thread that ends with bodies unanswered has them compressed in this thread; and it never holds
 * a process open once it has answered.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, corpusFile, excerpt } from './helpers/corpus.js';
import { ensureBuilt } from './helpers/serve-process.js';

type Compress = typeof import('../src/server/compress.js');

const ROOT = join(import.meta.dirname, '..');
const BUILT = join(ROOT, 'dist', 'server', 'compress.js');

let built: Compress;
const saved = process.env.MARQUEE_COMPRESS_THREAD;

beforeAll(async () => {
  ensureBuilt();
  delete process.env.MARQUEE_COMPRESS_THREAD;
  built = (await import(pathToFileURL(BUILT).href)) as Compress;
}, 120_000);
afterAll(async () => {
  await built?.stopCompressThread();
  if (saved === undefined) delete process.env.MARQUEE_COMPRESS_THREAD;
  else process.env.MARQUEE_COMPRESS_THREAD = saved;
});

/** What zlib gives in this thread with the settings Marquee uses. */
function expected(body: Uint8Array, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : gzipSync(body, { level: 6 });
}

/**
 * Real-world bodies, as Marquee would serve them: films of Wikipedia (the vendored excerpt, a page
 * of them and a 2 MB list), and with MARQUEE_CORPUS the official add-on's answers and the corpus's
 * 2010s films whole.
 */
function corpusBodies(): Buffer[] {
  const films = (JSON.parse(readFileSync(excerpt('library', 'marquee-movies.json'), 'utf8')) as { items: unknown[] })
    .items;
  const bodies = [
    Buffer.from(JSON.stringify({ metas: films.slice(0, 100) })),
    Buffer.from(JSON.stringify({ metas: Array.from({ length: 12 }, () => films).flat() })),
  ];
  if (corpusDir() !== undefined) {
    const addon = JSON.parse(readFileSync(corpusFile('addons', 'static-example.json'), 'utf8')) as unknown;
    const all = JSON.parse(readFileSync(corpusFile('library', 'wikipedia-movies-2010s.json'), 'utf8')) as unknown[];
    bodies.push(Buffer.from(JSON.stringify(addon)), Buffer.from(JSON.stringify({ metas: all })));
  }
  return bodies;
}

describe('the compression thread', () => {
  it('is used from the build, and not with MARQUEE_COMPRESS_THREAD=off', async () => {
    const body = Buffer.from(JSON.stringify({ metas: Array.from({ length: 100 }, (_, i) => ({ id: `tt${i}` })) }));
    expect(built.compressThreadUsed()).toBe(true);
    await built.compress(body, 'gzip');
    // A thread was running, and is ended.
    expect(await built.stopCompressThread()).toBe(1);
    process.env.MARQUEE_COMPRESS_THREAD = 'off';
    try {
      expect(built.compressThreadUsed()).toBe(false);
      const out = await built.compress(body, 'gzip');
      expect(out.equals(expected(body, 'gzip'))).toBe(true);
      expect(await built.stopCompressThread()).toBe(0);
    } finally {
      delete process.env.MARQUEE_COMPRESS_THREAD;
    }
  });

  it('gives the bytes zlib gives here, for real-world JSON in both encodings', async () => {
    for (const body of corpusBodies()) {
      for (const encoding of ['gzip', 'br'] as const) {
        const out = await built.compress(body, encoding);
        expect(Buffer.isBuffer(out)).toBe(true);
        expect(out.equals(expected(body, encoding)), `${encoding} of ${body.byteLength} bytes`).toBe(true);
      }
    }
  });

  it('compresses only the bytes of a view into a larger buffer', async () => {
    const whole = Buffer.from(JSON.stringify({ metas: Array.from({ length: 500 }, (_, i) => ({ id: `tt${i}` })) }));
    const view = whole.subarray(100, whole.byteLength - 100);
    const out = await built.compress(view, 'gzip');
    expect(gunzipSync(out).equals(view)).toBe(true);
    // The body handed over is copied, not taken: the caller's buffer is intact.
    expect(whole.byteLength).toBeGreaterThan(200);
    expect(view.byteLength).toBe(whole.byteLength - 200);
  });

  it('answers each of many bodies at once with its own, from up to one thread per core (four at most)', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) =>
      Buffer.from(
        JSON.stringify({ page: i, metas: Array.from({ length: 20 + i * 7 }, (_, j) => ({ id: `tt${i}-${j}` })) }),
      ),
    );
    const outs = await Promise.all(bodies.map((b, i) => built.compress(b, i % 2 ? 'br' : 'gzip')));
    outs.forEach((out, i) => {
      const back = i % 2 ? brotliDecompressSync(out) : gunzipSync(out);
      expect(back.equals(bodies[i]!), `body ${i}`).toBe(true);
    });
    // Forty at once kept every thread busy: as many as the machine has cores, up to four.
    expect(await built.stopCompressThread()).toBe(Math.min(4, availableParallelism()));
  });

  it('gives a small body the first thread that is free, before the large ones waiting', async () => {
    const threads = Math.min(4, availableParallelism());
    // Three large bodies per thread (each about 1.5 MB of guide-like JSON), then one small one.
    const large = Array.from({ length: threads * 3 }, (_, i) =>
      Buffer.from(
        JSON.stringify({
          metasDetailed: Array.from({ length: 30_000 }, (_, j) => ({
            id: `mq-tv:c${i}-${j}`,
            name: `Programme ${j * 7919}`,
          })),
        }),
      ),
    );
    expect(large[0]!.byteLength).toBeGreaterThan(256 * 1024);
    const order: string[] = [];
    const running = large.map((b, i) => built.compress(b, 'br').then(() => order.push(`large ${i}`)));
    const small = Buffer.from(JSON.stringify({ metas: [{ id: 'tt1', name: 'A small page' }], pad: 'x'.repeat(4_000) }));
    const out = await built.compress(small, 'gzip');
    order.push('small');
    expect(gunzipSync(out).equals(small)).toBe(true);
    await Promise.all(running);
    // At most the bodies the threads had when it came were answered before it.
    expect(order.indexOf('small'), order.join(', ')).toBeLessThanOrEqual(threads);
    await built.stopCompressThread();
  });

  it('compresses here what a thread ended with unanswered, and starts a new thread for the next body', async () => {
    const bodies = corpusBodies();
    const pending = bodies.flatMap((b) => [built.compress(b, 'br'), built.compress(b, 'gzip')]);
    expect(await built.stopCompressThread()).toBeGreaterThan(0);
    const outs = await Promise.all(pending);
    outs.forEach((out, i) => {
      const body = bodies[i >> 1]!;
      expect(out.equals(expected(body, i % 2 ? 'gzip' : 'br')), `body ${i}`).toBe(true);
    });
    expect(await built.stopCompressThread()).toBe(0);
    const again = await built.compress(bodies[0]!, 'gzip');
    expect(again.equals(expected(bodies[0]!, 'gzip'))).toBe(true);
    // One body at a time needs one thread.
    expect(await built.stopCompressThread()).toBe(1);
  });

  it('holds a process open while it compresses, and not after', () => {
    const script = `
      const { compress } = await import(${JSON.stringify(pathToFileURL(BUILT).href)});
      const body = Buffer.alloc(200_000, 'abcdefgh');
      const out = await compress(body, 'br');
      console.log(out.byteLength > 0 && out.byteLength < body.byteLength ? 'compressed' : 'wrong');
    `;
    const started = Date.now();
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(out.trim()).toBe('compressed');
    // It exited on its own, well before the timeout.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
