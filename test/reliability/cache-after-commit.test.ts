/**
 * After an import commits, every answer reflects it (issue 38): once any answer of the new data
 * was given, no cached answer of the data before it is, and within 100 ms of the commit every
 * answer is of the new data. A 1,000-channel re-import written by another connection (a second
 * store on the same file, as `serve`'s import worker or a `marquee import` process writes it),
 * with the response cache on: channel metas asked again and again (cached) and others asked once
 * (built from the store) while it commits.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeAddon } from '../../src/addon/index.js';
import { createLiveTvPart, importLiveTv } from '../../src/livetv/index.js';
import { createRequestHandler, type RequestHandler } from '../../src/server/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DATA_VERSION_TTL_MS } from '../../src/store/store.js';

const CHANNELS = 1_000;
const ROOT = join(import.meta.dirname, '..', '..');

/** 1,000 channels, each named with `tag`: which import a meta was built from. */
function playlist(tag: string): string {
  const lines = ['#EXTM3U'];
  for (let i = 0; i < CHANNELS; i++) {
    lines.push(`#EXTINF:-1 tvg-id="ch${i}.tv" group-title="Group ${i % 20}",Channel ${i} ${tag}`);
    lines.push(`https://streams.example/${i}/index.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}

let dir: string;
let db: string;
let serving: Store;
let handle: RequestHandler;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-cache-commit-'));
  db = join(dir, 'marquee.db');
  writeFileSync(join(dir, 'old.m3u'), playlist('OLD'));
  writeFileSync(join(dir, 'new.m3u'), playlist('NEW'));
  serving = openStore(db);
  await importLiveTv(serving, { playlists: [{ location: join(dir, 'old.m3u') }] });
  const addon = composeAddon(
    { id: 'org.test.cache', version: '1.0.0', name: 'Cache', description: 'Cache after commit' },
    [createLiveTvPart(serving)],
    { dataVersion: serving.dataVersion },
  );
  handle = createRequestHandler(addon);
});
afterEach(() => {
  serving.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The import a channel's meta was built from, by the name in its answer. */
async function metaOf(channel: number): Promise<'OLD' | 'NEW'> {
  const res = await handle({
    method: 'GET',
    url: `/meta/tv/${encodeURIComponent(`mq-tv:ch${channel}.tv`)}.json`,
    header: () => undefined,
  });
  const name = JSON.parse(String(res.body)).meta.name as string;
  return name.endsWith(' NEW') ? 'NEW' : 'OLD';
}

/** Channels 0-19 are asked again and again: their answers are cached. */
const HOT = Array.from({ length: 20 }, (_, i) => i);

describe('answers after an import commits', () => {
  it('serves no cached answer of the data before once an answer of the new data was given', async () => {
    for (const channel of [...HOT, ...HOT]) expect(await metaOf(channel)).toBe('OLD');
    const writer = openStore(db);
    try {
      await importLiveTv(writer, {
        playlists: [{ location: join(dir, 'new.m3u') }],
        onProgress: (event) => {
          // The serving store read its version just before the commit: a reading it may hold for
          // DATA_VERSION_TTL_MS answers its cached pages unless something asks again.
          if (event.phase === 'commit') serving.dataVersion(Date.now() + DATA_VERSION_TTL_MS);
        },
      });
    } finally {
      writer.close();
    }
    // A channel never asked before is built from the store: the new data.
    expect(await metaOf(500)).toBe('NEW');
    // So the cached ones are not served any more: every one is the new data too.
    for (const channel of HOT) expect(await metaOf(channel), `channel ${channel}`).toBe('NEW');
  });

  it('reflects a re-import by another process within 100 ms, with requests running (built CLI in dist/)', async () => {
    const cli = join(ROOT, 'dist', 'cli', 'main.js');
    if (!existsSync(cli)) throw new Error('this test runs the built CLI: run `npm run build` first');
    for (const channel of [...HOT, ...HOT]) await metaOf(channel);
    const answers: Array<{ at: number; channel: number; data: 'OLD' | 'NEW' }> = [];
    let running = true;
    let cold = HOT.length;
    const loop = async (hot: boolean) => {
      while (running) {
        const channel = hot ? HOT[Math.floor(Math.random() * HOT.length)]! : cold++ % CHANNELS;
        const at = Date.now();
        answers.push({ at, channel, data: await metaOf(channel) });
        // Other connections' requests and the child's output get their turn.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const loops = [loop(true), loop(true), loop(true), loop(false)];
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'marquee.js'), 'import', '--db', db, '--playlist', join(dir, 'new.m3u')],
      { stdio: 'ignore' },
    );
    const code = await new Promise((resolve) => child.on('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    running = false;
    await Promise.all(loops);
    expect(code).toBe(0);

    // The commit: the import's record is finished inside its transaction, just before COMMIT.
    const committedAt = serving.lastImport()!.finishedAt!;
    const first = answers.findIndex((a) => a.data === 'NEW');
    expect(first).toBeGreaterThan(0);
    const stale = answers.slice(first).filter((a) => a.data === 'OLD');
    expect(stale, 'answers of the data before, after one of the new data').toEqual([]);
    const late = answers.filter((a) => a.at > committedAt + 100 && a.data === 'OLD');
    expect(late, 'answers of the data before, asked more than 100 ms after the commit').toEqual([]);
    expect(answers.filter((a) => a.at > committedAt + 100).length).toBeGreaterThan(10);
  });
});
