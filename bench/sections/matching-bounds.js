/**
 * The matching benchmark's hostile names (issue 48, item 3): the scored stage's cost per name is
 * bounded whatever the name's length or shape. Each case is `marquee import --json` in its own
 * process under `/usr/bin/time -v`, stopped after a time limit (a case that runs into it is
 * recorded as such): 500 playlist names of 60 KB against the 20,000-channel guide; playlist
 * names and guide display names of 100,000 characters; 5,000 names made of words every guide
 * channel's names hold.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { guideChannel } from '../lib/matching-data.js';
import { runMeasured } from '../lib/processes.js';
import { cached } from '../lib/write-data.js';

/** A case's time limit: well past the 30 s the 60 KB case must finish in. */
const LIMIT_MS = 120_000;

/** A name of `chars` characters made of the guide's own names, from `i` on (every word one its names hold). */
function guideWords(seed, chars, i) {
  let out = '';
  for (let k = i; out.length < chars; k += 7) out += `${guideChannel(seed, k % 20_000).names[0]} `;
  return out.slice(0, chars).trim();
}

function playlist(names) {
  return `#EXTM3U\n${names.map((n, i) => `#EXTINF:-1,${n}\nhttps://live.bench.example/hostile/${i}.m3u8\n`).join('')}`;
}

/** A small guide (2,000 channels of the benchmark's names, one programme each), `long` more with a display name of 100,000 characters. */
function longGuide(seed, start, long) {
  const stamp = (ms) => `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)} +0000`;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
  const ids = [];
  for (let i = 0; i < 2_000 + long; i++) {
    const c = guideChannel(seed, i);
    const names = i < 2_000 ? c.names : [guideWords(seed, 100_000, i)];
    ids.push(c.id);
    out.push(`<channel id="${c.id}">${names.map((n) => `<display-name>${n}</display-name>`).join('')}</channel>`);
  }
  for (const id of ids)
    out.push(
      `<programme start="${stamp(start)}" stop="${stamp(start + 3_600_000)}" channel="${id}"><title>t</title></programme>`,
    );
  return `${[...out, '</tv>'].join('\n')}\n`;
}

/**
 * @example await runBounds({ root, dir, work, seed, start, guide: '…/matching-20000-2.xml', playlist: '…/matching-50000-2.m3u', log })
 */
export async function runBounds({ root, dir, work, seed, start, guide, playlist: benchPlaylist, log }) {
  mkdirSync(join(dir, 'matching-hostile'), { recursive: true });
  const file = (name, text) =>
    cached(join(dir, 'matching-hostile', name), async (path) => {
      const body = text();
      writeFileSync(path, body);
      return Buffer.byteLength(body);
    });
  const cases = [
    {
      name: '500 playlist names of 60 KB (the guide’s own words) against the 20,000-channel guide',
      playlist: await file('names-60k.m3u', () =>
        playlist(Array.from({ length: 500 }, (_, i) => guideWords(seed, 60_000, i))),
      ),
      guide,
    },
    {
      name: '50 playlist names of 100,000 characters against the 20,000-channel guide',
      playlist: await file('names-100k.m3u', () =>
        playlist(Array.from({ length: 50 }, (_, i) => guideWords(seed, 100_000, i))),
      ),
      guide,
    },
    {
      name: 'the 50,000-entry playlist against 2,000 guide channels and 100 more with a display name of 100,000 characters',
      playlist: { path: benchPlaylist },
      guide: (
        await file(`guide-100k-${new Date(start).toISOString().slice(0, 10)}.xml`, () => longGuide(seed, start, 100))
      ).path,
    },
    {
      name: '5,000 names of 120 characters, every word one the guide’s names hold, against the 20,000-channel guide',
      playlist: await file('sharing.m3u', () =>
        playlist(Array.from({ length: 5_000 }, (_, i) => guideWords(seed, 120, i))),
      ),
      guide,
    },
  ];
  const db = join(work, 'hostile.db');
  const out = [];
  for (const c of cases) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
    log(`matching: hostile names: ${c.name}`);
    const args = ['import', '--db', db, '--playlist', c.playlist.path, '--epg', c.guide, '--json'];
    // `timeout` stops the import itself (exit 124, or 137 once killed) at the limit; exit 1 is an
    // import whose guide matched nothing, which is a finished import too. MALLOC_ARENA_MAX set
    // keeps `marquee import` from relaunching itself (src/cli/relaunch.ts, the same setting), so
    // the process `timeout` stops is the import: the build before issue 48 ignored SIGTERM in it.
    const r = await runMeasured(
      'timeout',
      ['--kill-after=5', String(LIMIT_MS / 1000), process.execPath, join(root, 'bin/marquee.js'), ...args],
      { cores: 'all', okCodes: [0, 1, 124, 137], env: { ...process.env, MALLOC_ARENA_MAX: '2' } },
    );
    const finished = r.code === 0 || r.code === 1;
    const report = finished ? JSON.parse(r.stdout).livetv : undefined;
    out.push({
      name: c.name,
      finished,
      wallMs: r.wallMs,
      cpuMs: r.cpuMs,
      peakRssMB: r.peakRssKiB / 1024,
      ...(report ? { channels: report.counts.channels, matched: report.counts.matchedChannels } : {}),
    });
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  return { limitMs: LIMIT_MS, cases: out };
}
