// Two builds side by side in one process: the cached-page hot path (`handler.cached`) and the
// path of an answer built from the store (the response cache on, never admitting), on 2,000
// channels' metas (PAGE=feed: 100-channel catalog pages), in alternating rounds of 0.4 s (the
// machine's load moves within seconds; each round's ratio holds). Used for issue 38's check of
// the data version once an answer is built (docs/reliability.md):
//   npx tsc -p tsconfig.build.json --outDir bench/.data/dist-before   # at the commit before
//   npm run build                                                    # at the commit after
//   ROUNDS=16 node bench/builds-ab.mjs bench/.data/dist-before dist
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [beforeDir, afterDir] = process.argv.slice(2).map((d) => resolve(d));
const dir = mkdtempSync(join(tmpdir(), 'hotpath-ab-'));
const lines = ['#EXTM3U'];
for (let i = 0; i < 2000; i++)
  lines.push(`#EXTINF:-1 tvg-id="c${i}.tv" group-title="G${i % 20}",Channel ${i}`, `https://s.example/${i}.m3u8`);
writeFileSync(join(dir, 'tv.m3u'), lines.join('\n'));

async function build(dist, name) {
  const { openStore } = await import(`${dist}/store/index.js`);
  const { createLiveTvPart, importLiveTv } = await import(`${dist}/livetv/index.js`);
  const { composeAddon } = await import(`${dist}/addon/index.js`);
  const { createRequestHandler } = await import(`${dist}/server/index.js`);
  const store = openStore(join(dir, `${name}.db`));
  await importLiveTv(store, { playlists: [{ location: join(dir, 'tv.m3u') }] });
  const addon = composeAddon(
    { id: 'org.x.ab', version: '1.0.0', name: 'ab', description: 'ab' },
    [createLiveTvPart(store)],
    { dataVersion: store.dataVersion },
  );
  const handler = createRequestHandler(addon);
  // Every request a miss, with the response cache on (it never admits): the path that now asks
  // SQLite for the version once an answer is built.
  const cold = createRequestHandler(addon, { responseCache: { admitAfter: 1e9 } });
  return { handler, cold, store };
}
const a = await build(beforeDir, 'before');
const b = await build(afterDir, 'after');
const hot = Array.from({ length: 20 }, (_, i) => `/meta/tv/mq-tv%3Ac${i}.tv.json`);
for (const s of [a, b])
  for (const p of [...hot, ...hot]) await s.handler({ method: 'GET', url: p, header: () => undefined });

function hits(s, ms) {
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) s.handler.cached('GET', hot[i % 20], undefined, undefined);
    n += 100;
  }
  return n / (ms / 1000);
}
let cold = 100;
async function misses(s, ms) {
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    const url =
      process.env.PAGE === 'feed'
        ? `/catalog/tv/mq-tv-channels/skip=${(cold++ % 19) * 100}.json`
        : `/meta/tv/mq-tv%3Ac${100 + (cold++ % 1900)}.tv.json`;
    await s.cold({ method: 'GET', url, header: () => undefined });
    n++;
  }
  return n / (ms / 1000);
}
const rounds = Number(process.env.ROUNDS ?? 8);
const hotR = [],
  missR = [];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [a, b] : [b, a];
  const h = new Map(),
    m = new Map();
  for (const s of order) h.set(s, hits(s, 400));
  for (const s of order) m.set(s, await misses(s, 400));
  hotR.push(h.get(b) / h.get(a));
  missR.push(m.get(b) / m.get(a));
  console.log(
    `round ${r + 1}: cached before ${Math.round(h.get(a))}/s after ${Math.round(h.get(b))}/s (${(h.get(b) / h.get(a)).toFixed(3)}x); miss before ${Math.round(m.get(a))}/s after ${Math.round(m.get(b))}/s (${(m.get(b) / m.get(a)).toFixed(3)}x)`,
  );
}
const med = (x) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)];
console.log(`median after/before: cached ${med(hotR).toFixed(3)}x, miss ${med(missR).toFixed(3)}x`);
a.store.close();
b.store.close();
rmSync(dir, { recursive: true, force: true });
