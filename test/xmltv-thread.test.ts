/**
 * The XMLTV reader in its own thread (sources/xmltv/thread.ts, from the build: a worker thread
 * cannot load the TypeScript sources) yields what readXmltv yields in this thread: every channel,
 * programme and warning, in order, and the same error, on the fixtures, real guides (the vendored
 * excerpts, and the corpus's public guides with MARQUEE_CORPUS) and a generated guide of many chunks; it stops when its reader stops; and an
 * import through it stores exactly what the in-thread import stores.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { realWorldFiles } from './helpers/corpus.js';
import { BIN, ensureBuilt } from './helpers/serve-process.js';

type Reader = typeof import('../src/sources/xmltv/index.js');

const ROOT = join(import.meta.dirname, '..');
const fixtures = join(ROOT, 'test', 'fixtures', 'xmltv');
const twoCores = availableParallelism() > 1;

let built: Reader;
let dir: string;
const saved = process.env.MARQUEE_XMLTV_THREAD;

beforeAll(async () => {
  ensureBuilt();
  built = (await import(pathToFileURL(join(ROOT, 'dist', 'sources', 'xmltv', 'index.js')).href)) as Reader;
  dir = mkdtempSync(join(tmpdir(), 'marquee-thread-'));
}, 120_000);
afterAll(() => {
  if (saved === undefined) delete process.env.MARQUEE_XMLTV_THREAD;
  else process.env.MARQUEE_XMLTV_THREAD = saved;
  rmSync(dir, { recursive: true, force: true });
});

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Everything a read yields, flattened (the thread groups batches per chunk), then its error. */
async function collect(batches: AsyncIterable<{ channels: unknown[]; programmes: unknown[]; warnings: unknown[] }>) {
  const out = {
    channels: [] as unknown[],
    programmes: [] as unknown[],
    warnings: [] as unknown[],
    error: undefined as unknown,
  };
  try {
    for await (const b of batches) {
      out.channels.push(...b.channels);
      out.programmes.push(...b.programmes);
      out.warnings.push(...b.warnings);
    }
  } catch (error) {
    const e = error as { code?: string; message: string; details?: unknown };
    out.error = { code: e.code, message: e.message, details: e.details, marquee: e.constructor.name };
  }
  return out;
}

/** A guide of `channels` × `days` × 48 programmes, with the fields real guides carry. */
function generated(channels: number, days: number): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<tv>\n'];
  for (let c = 0; c < channels; c++)
    parts.push(`<channel id="c${c}.example"><display-name lang="en">Channel ${c}</display-name></channel>\n`);
  // Anchored to today (a day back), not a fixed date: the import keeps 48 hours before now, so a
  // fixed week slid out of the window as the calendar moved on and the day counts below fell short.
  const today = new Date();
  const base = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - 86_400_000;
  for (let c = 0; c < channels; c++) {
    for (let i = 0; i < days * 48; i++) {
      const start = base + i * 1_800_000;
      parts.push(
        `<programme start="${formatXmltvTime(start)}" stop="${formatXmltvTime(start + 1_800_000)}" channel="c${c}.example">` +
          `<title lang="en">Show ${i} &amp; more</title><sub-title>Part ${c}</sub-title>` +
          `<desc lang="en">${'A long description, with “quotes” — and dashes. '.repeat(1 + (i % 4))}</desc>` +
          `<category lang="en">News</category><category lang="fr">Actualités</category>` +
          `<episode-num system="xmltv_ns">${c}.${i}.</episode-num>${i % 7 === 0 ? '<new/>' : ''}` +
          `<rating system="VCHIP"><value>TV-G</value></rating></programme>\n`,
      );
    }
  }
  // A programme without a stop and one on an undeclared channel: warnings and the by-id path.
  parts.push(`<programme start="${formatXmltvTime(base)}" channel="c0.example"><title>No stop</title></programme>\n`);
  parts.push(
    `<programme start="${formatXmltvTime(base)}" stop="${formatXmltvTime(base + 60_000)}" channel="nobody"><title>x</title></programme>\n`,
  );
  parts.push('</tv>\n');
  return parts.join('');
}

describe.skipIf(!twoCores)('the XMLTV reader in a thread of its own', () => {
  it('is used from the build on two cores when asked, and never when turned off', () => {
    delete process.env.MARQUEE_XMLTV_THREAD;
    expect(built.xmltvThreadUsed(true)).toBe(true);
    expect(built.xmltvThreadUsed(false)).toBe(false);
    expect(built.xmltvThreadUsed()).toBe(availableParallelism() > 2);
    process.env.MARQUEE_XMLTV_THREAD = 'off';
    expect(built.xmltvThreadUsed(true)).toBe(false);
    process.env.MARQUEE_XMLTV_THREAD = 'on';
    expect(built.xmltvThreadUsed(false)).toBe(true);
    delete process.env.MARQUEE_XMLTV_THREAD;
  });

  const guides = [
    ...readdirSync(fixtures).map((name) => join(fixtures, name)),
    ...realWorldFiles('guides', (name) => name.endsWith('.xml')),
  ];
  it.each(guides.map((path) => [path.split('/').slice(-2).join('/'), path] as const))(
    'yields what readXmltv yields for %s',
    async (_name, path) => {
      const bytes = readFileSync(path);
      const options = { source: 'guide.xml', quote: !path.includes('bad') };
      const here = await collect(built.readXmltv(chunked(bytes, 4096), options));
      const threaded = await collect(built.readXmltvInThread(chunked(bytes, 4096), options, true));
      expect(threaded).toEqual(here);
    },
  );

  it('yields the same over a guide of many chunks, with warnings', async () => {
    const bytes = Buffer.from(generated(40, 3));
    expect(bytes.length).toBeGreaterThan(2_500_000);
    const here = await collect(built.readXmltv(chunked(bytes, 256 * 1024), { source: 'gen.xml' }));
    const threaded = await collect(built.readXmltvInThread(chunked(bytes, 256 * 1024), { source: 'gen.xml' }, true));
    expect(here.programmes.length).toBe(40 * 3 * 48 + 1);
    expect(here.warnings.length).toBeGreaterThan(0);
    expect(threaded).toEqual(here);
  });

  it('stops reading and ends its thread when the reader stops early', async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    const before = threads();
    let read = 0;
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        const bytes = Buffer.from(generated(40, 3));
        for (let i = 0; i < bytes.length; i += 65_536) {
          read++;
          yield bytes.subarray(i, i + 65_536);
        }
      } finally {
        closed = true;
      }
    }
    let during = 0;
    for await (const batch of built.readXmltvInThread(source(), { source: 'gen.xml' }, true)) {
      during = threads();
      if (batch.programmes.length > 0) break;
    }
    // A few chunks ahead, not the whole guide; the source closed, the thread gone.
    expect(read).toBeLessThan(12);
    expect(closed).toBe(true);
    expect(during).toBeGreaterThan(before);
    expect(threads()).toBeLessThanOrEqual(before);
  });

  it('asks a function whether to use a thread once the first chunk has come', async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    const before = threads();
    const bytes = Buffer.from(generated(5, 1));
    for (const wanted of [true, false]) {
      let asked = 0;
      let most = 0;
      const read = await collect(
        (async function* () {
          for await (const batch of built.readXmltvInThread(chunked(bytes, 8192), { source: 'g.xml' }, () => {
            asked++;
            return wanted;
          })) {
            most = Math.max(most, threads());
            yield batch;
          }
        })(),
      );
      expect(asked).toBe(1);
      expect(read.programmes.length).toBe(5 * 48 + 1);
      expect(most > before).toBe(wanted);
    }
  });

  describe('handed a source as read (it inflates there)', () => {
    const body = Buffer.from(generated(40, 3));
    const inflate = { label: 'gen.xml.gz', maxDecompressedBytes: 64 * 1024 * 1024, layers: 2 };
    const forms = [
      ['plain', body],
      ['gzip', gzipSync(body, { level: 1 })],
      ['gzip twice', gzipSync(gzipSync(body, { level: 1 }))],
    ] as const;

    it.each(forms)(
      'yields what readXmltv yields for the inflated bytes, %s, and counts them',
      async (_name, bytes) => {
        const here = await collect(built.readXmltv(chunked(body, 256 * 1024), { source: 'gen.xml.gz' }));
        // 7-byte gzip chunks: the thread takes many before an inflated chunk comes out, and must say so.
        for (const size of bytes === body ? [4096, 65_536] : [7, 65_536]) {
          for (const thread of [true, false]) {
            let counted = 0;
            const read = await collect(
              built.readXmltvInThread(chunked(bytes, size), { source: 'gen.xml.gz' }, thread, {
                inflate,
                onBytes: (n) => {
                  counted += n;
                },
              }),
            );
            expect(read).toEqual(here);
            expect(counted).toBe(body.length);
          }
        }
      },
      60_000,
    );

    it('transfers chunks it is told the source owns, and copies the others', async () => {
      const gz = gzipSync(body, { level: 1 });
      const own = () =>
        Array.from({ length: Math.ceil(gz.length / 65_536) }, (_, i) =>
          Uint8Array.from(gz.subarray(i * 65_536, (i + 1) * 65_536)),
        );
      for (const ownChunks of [true, false]) {
        const chunks = own();
        const read = await collect(
          built.readXmltvInThread(
            (async function* () {
              yield* chunks;
            })(),
            { source: 'gen.xml.gz' },
            true,
            { inflate, ownChunks },
          ),
        );
        expect(read.programmes.length).toBe(40 * 3 * 48 + 1);
        // A transferred buffer is detached here.
        expect(chunks.every((c) => c.byteLength === 0)).toBe(ownChunks);
        expect(chunks.some((c) => c.byteLength === 0)).toBe(ownChunks);
      }
    });

    it('reads in a spare thread started ahead, which ends with the read or when closed untaken', async () => {
      const threads = () => readdirSync('/proc/self/task').length;
      const settled = async (count: number) => {
        for (let i = 0; i < 100 && threads() > count; i++) await new Promise((r) => setTimeout(r, 20));
        return threads();
      };
      const before = threads();
      const spare = new built.SpareXmltvThread();
      const withSpare = threads();
      expect(withSpare).toBeGreaterThan(before);
      const here = await collect(built.readXmltv(chunked(body, 65_536), { source: 'gen.xml.gz' }));
      const gz = gzipSync(body, { level: 1 });
      let most = 0;
      const read = await collect(
        (async function* () {
          for await (const batch of built.readXmltvInThread(chunked(gz, 65_536), { source: 'gen.xml.gz' }, true, {
            inflate,
            spare,
          })) {
            most = Math.max(most, threads());
            yield batch;
          }
        })(),
      );
      expect(read).toEqual(here);
      // The spare was the reader's thread: no second one was started beside it.
      expect(most).toBeGreaterThan(before);
      expect(most).toBeLessThanOrEqual(withSpare);
      expect(spare.take()).toBeUndefined();
      expect(await settled(before)).toBeLessThanOrEqual(before);
      const unused = new built.SpareXmltvThread();
      expect(threads()).toBeGreaterThan(before);
      unused.close();
      unused.close();
      expect(await settled(before)).toBeLessThanOrEqual(before);
    });

    it('fails as the source would: broken gzip, and a bomb over the cap', async () => {
      const gz = gzipSync(body, { level: 1 });
      const broken = gz.subarray(0, gz.length >> 1); // unexpected end of file
      const small = { ...inflate, maxDecompressedBytes: 1_000_000 };
      for (const [bytes, limits, code] of [
        [broken, inflate, 'SOURCE_UNREADABLE'],
        [gz, small, 'SOURCE_TOO_LARGE'],
      ] as const) {
        const here = await collect(
          built.readXmltvInThread(chunked(bytes, 65_536), { source: 'gen.xml.gz' }, false, { inflate: limits }),
        );
        const threaded = await collect(
          built.readXmltvInThread(chunked(bytes, 65_536), { source: 'gen.xml.gz' }, true, { inflate: limits }),
        );
        expect((here.error as { code: string }).code).toBe(code);
        expect((here.error as { message: string }).message).toMatch(/^gen\.xml\.gz: /);
        expect(threaded).toEqual(here);
      }
    });
  });

  it('imports into the same store as the in-thread reader', () => {
    const guide = join(dir, 'guide.xml');
    writeFileSync(guide, generated(30, 3));
    const playlist = join(dir, 'tv.m3u');
    const entries = Array.from(
      { length: 35 },
      (_, c) =>
        `#EXTINF:-1 tvg-id="c${c}.example" tvg-shift="${c % 5 === 0 ? 1 : 0}",Channel ${c}\nhttp://tv.example/${c}.ts`,
    );
    writeFileSync(playlist, `#EXTM3U\n${entries.join('\n')}\n`);
    const tables: Record<string, unknown> = {};
    for (const mode of ['on', 'off']) {
      const db = join(dir, `${mode}.db`);
      execFileSync(process.execPath, [BIN, 'import', '--db', db, '--playlist', playlist, '--epg', guide, '--json'], {
        env: { ...process.env, MARQUEE_XMLTV_THREAD: mode },
      });
      tables[mode] = dump(db);
    }
    expect((tables.on as Record<string, unknown[]>).guide_days!.length).toBeGreaterThan(30);
    expect(tables.on).toEqual(tables.off);
  }, 60_000);

  it('imports a gzip guide into the same store through the thread as in one thread', () => {
    // Over 16 MiB inflated: the parsing thread inflates it and collects garbage on its way.
    const text = generated(120, 7);
    expect(text.length).toBeGreaterThan(17 * 1024 * 1024);
    const guide = join(dir, 'guide.xml.gz');
    writeFileSync(guide, gzipSync(text, { level: 1 }));
    const playlist = join(dir, 'tv120.m3u');
    const entries = Array.from(
      { length: 120 },
      (_, c) => `#EXTINF:-1 tvg-id="c${c}.example",Channel ${c}\nhttp://tv.example/${c}.ts`,
    );
    writeFileSync(playlist, `#EXTM3U\n${entries.join('\n')}\n`);
    const tables: Record<string, unknown> = {};
    const guideBytes: Record<string, unknown> = {};
    for (const mode of ['on', 'off']) {
      const db = join(dir, `gz-${mode}.db`);
      const out = execFileSync(
        process.execPath,
        [BIN, 'import', '--db', db, '--playlist', playlist, '--epg', guide, '--json'],
        { env: { ...process.env, MARQUEE_XMLTV_THREAD: mode }, encoding: 'utf8' },
      );
      tables[mode] = dump(db);
      const sources = (JSON.parse(out) as { livetv: { sources: { kind: string; bytes: number }[] } }).livetv.sources;
      guideBytes[mode] = sources.find((r) => r.kind === 'guide')?.bytes;
    }
    expect((tables.on as Record<string, unknown[]>).guide_days!.length).toBeGreaterThan(120 * 6);
    // The thread inflates the guide and counts its bytes: the report says the same.
    expect(guideBytes.on).toBe(Buffer.byteLength(text));
    expect(guideBytes.off).toBe(guideBytes.on);
    // Digests: a deep comparison of 17 MB of guide-day blobs byte by byte takes the matcher half a minute.
    expect(digest(tables.on)).toEqual(digest(tables.off));
  }, 120_000);
});

/** Per table, its row count and a SHA-256 of its rows' cells. */
function digest(tables: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [table, rows] of Object.entries(tables as Record<string, unknown[]>)) {
    const hash = createHash('sha256');
    for (const row of rows as unknown[][]) {
      for (const cell of row)
        hash.update(cell instanceof Uint8Array ? cell : `${typeof cell}:${String(cell)}`).update('\0');
      hash.update('\n');
    }
    out[table] = `${rows.length} ${hash.digest('hex')}`;
  }
  return out;
}

/** Every row of the tables an import fills (not its history), in a stable order. */
function dump(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    const out: Record<string, unknown[]> = {};
    for (const table of ['channels', 'streams', 'guide_channels', 'guide_days', 'channel_groups']) {
      out[table] = db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().all();
    }
    return out;
  } finally {
    db.close();
  }
}
