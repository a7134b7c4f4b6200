#!/usr/bin/env node
/**
 * `node bench/health-serving.js`: what stored stream health costs the answers it changes, built
 * from the store (a cached answer does not change at all: health only moves the data version).
 * On a store of 5,000 channels × 2 streams, side by side in one process, in interleaved rounds:
 * - a channel's streams: the query before health existed (no join) against the query of now (the
 *   stream_health join), both raw, with health rows for every stream, 10% failing;
 * - a catalog page (100 channels at skip 0, 2,500 and 4,900) without and with `hideDeadChannels`
 *   (the ids of the 250 dead channels left out in SQL);
 * - once per data version: `deadChannels`.
 * Prints µs per call (median of the rounds) and the ratios. Needs dist/ (`npm run build`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importLiveTv } from '../dist/livetv/index.js';
import { openStore } from '../dist/store/index.js';
import { createRandom } from './lib/prng.js';

const CHANNELS = 5_000;
const ROUNDS = 7;
const dir = mkdtempSync(join(tmpdir(), 'marquee-bench-health-serving-'));
try {
  const lines = ['#EXTM3U'];
  for (let c = 0; c < CHANNELS; c++) {
    lines.push(
      `#EXTINF:-1 tvg-id="ch${c}.bench" group-title="G${c % 20}",Channel ${c}`,
      `http://h${c % 200}.example/s/${2 * c}.ts`,
    );
    lines.push(
      `#EXTINF:-1 tvg-id="ch${c}.bench",Channel ${c} (backup)`,
      `http://h${(c + 1) % 200}.example/s/${2 * c + 1}.ts`,
    );
  }
  writeFileSync(join(dir, 'tv.m3u'), `${lines.join('\n')}\n`);
  const store = openStore(join(dir, 'tv.db'));
  await importLiveTv(store, { playlists: [{ location: join(dir, 'tv.m3u') }] });
  const rand = createRandom(40);
  const results = [];
  const at = Date.now();
  for (let c = 0; c < CHANNELS; c++) {
    // 5% of channels have both streams failing (dead), 5% more a failing main stream.
    const dead = c % 20 === 0;
    const failingMain = dead || c % 20 === 1;
    results.push({
      url: `http://h${c % 200}.example/s/${2 * c}.ts`,
      state: failingMain ? 'dead' : 'ok',
      detail: 'x',
      at,
    });
    results.push({
      url: `http://h${(c + 1) % 200}.example/s/${2 * c + 1}.ts`,
      state: dead ? 'timeout' : 'ok',
      detail: 'x',
      at,
    });
  }
  for (let pass = 0; pass < 2; pass++) await store.recordHealthPass({ startedAt: at, results, report: {} });

  const db = store.context.db;
  const before = db
    .prepare(
      `SELECT s.url, s.name, s.user_agent, s.referrer, s.kodi_props, s.source FROM channels c
       JOIN streams s ON s.channel_rid = c.rid WHERE c.id = ? ORDER BY s.ord`,
    )
    .raw();
  // The query of getStreams now (store/livetv/read.ts), raw as well: the join is the difference.
  const now = db
    .prepare(
      `SELECT s.url, s.name, s.user_agent, s.referrer, s.kodi_props, s.source,
         h.state, h.detail, h.checked_at, h.failures, h.failing_since, h.last_ok_at
       FROM channels c JOIN streams s ON s.channel_rid = c.rid LEFT JOIN stream_health h ON h.url = s.url
       WHERE c.id = ? ORDER BY s.ord`,
    )
    .raw();
  const ids = Array.from({ length: 2_000 }, () => `mq-tv:ch${rand.int(0, CHANNELS - 1)}.bench`);
  const time = (fn, n) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    return Number(process.hrtime.bigint() - start) / 1000 / n;
  };
  const dead = store.deadChannels(2);
  const except = JSON.stringify(dead.rids);
  const rounds = { streamsBefore: [], streamsNow: [], getStreams: [], pageWithout: [], pageHidden: [], deadIds: [] };
  for (let r = 0; r < ROUNDS; r++) {
    rounds.streamsBefore.push(time((i) => before.all(ids[i % ids.length]), 20_000));
    rounds.streamsNow.push(time((i) => now.all(ids[i % ids.length]), 20_000));
    rounds.getStreams.push(time((i) => store.getStreams(ids[i % ids.length]), 20_000));
    rounds.pageWithout.push(time((i) => store.listChannels({ offset: [0, 2500, 4900][i % 3], limit: 100 }), 600));
    rounds.pageHidden.push(
      time((i) => store.listChannels({ offset: [0, 2500, 4900][i % 3], limit: 100, except }), 600),
    );
    rounds.deadIds.push(time(() => store.deadChannels(2), 5));
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const m = Object.fromEntries(Object.entries(rounds).map(([k, v]) => [k, Math.round(median(v) * 10) / 10]));
  console.log(
    JSON.stringify(
      {
        deadChannels: dead.ids.length,
        'streams µs (no join / with health)': [
          m.streamsBefore,
          m.streamsNow,
          `${(m.streamsNow / m.streamsBefore).toFixed(2)}×`,
        ],
        'getStreams µs (the query and its rows as objects)': m.getStreams,
        'catalog page µs (all / 250 dead left out)': [
          m.pageWithout,
          m.pageHidden,
          `${(m.pageHidden / m.pageWithout).toFixed(2)}×`,
        ],
        'deadChannels µs (once per data version)': m.deadIds,
      },
      null,
      2,
    ),
  );
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
