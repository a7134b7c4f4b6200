/**
 * HTTP benchmark: Marquee (the real CLI on an imported store), the same add-on on the official
 * SDK, and a bare node:http server answering precomputed bytes, all on core 1; autocannon on
 * core 0. Cases are interleaved (each case runs against the three servers back to back) so drift
 * in the machine's load hits the three alike.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAY_MS, fetchAnswer, summarize } from '../lib/answers.js';
import { SEARCH_WORD } from '../lib/dataset.js';
import { measure } from '../lib/load.js';
import { guideStart, isoDay, SEED, SIZES, servedData } from '../lib/prepare.js';
import { runMeasured, startServer } from '../lib/processes.js';

const MOVIE = 'tt9001234';

/** The six paths, the same on every server. */
export function cases(now = Date.now()) {
  const today = isoDay(guideStart(now) + DAY_MS);
  return [
    { name: 'feed', path: '/catalog/movie/movies.json', target: true },
    { name: 'genre', path: '/catalog/movie/movies/genre=Drama.json' },
    { name: 'search', path: `/catalog/movie/movies/search=${SEARCH_WORD}.json` },
    { name: 'meta', path: `/meta/movie/${MOVIE}.json`, target: true },
    { name: 'stream', path: `/stream/movie/${MOVIE}.json` },
    { name: 'guide', path: `/catalog/tv/mq-tv-channels/date=${today}.json`, target: true },
  ];
}

const READY_MARQUEE = /manifest:\s+(http:\/\/127\.0\.0\.1:\d+)\/manifest\.json/;
const READY_NODE = /^listening (http:\/\/127\.0\.0\.1:\d+)$/;

/**
 * Run every case against the three servers. `log` prints progress.
 *
 * @example const http = await runHttp({ root, dir, durationS: 5, warmupS: 1, log: console.log })
 */
export async function runHttp({ root, dir, durationS, warmupS, connections, log }) {
  const start = guideStart();
  const data = await servedData(dir, start);
  const db = join(dir, 'http-marquee.db');
  rmSync(db, { force: true });
  rmSync(`${db}-wal`, { force: true });
  const sources = ['--playlist', data.playlist.path, '--epg', data.epg.path, '--library', data.library.path];
  log('http: importing the served dataset through `marquee import`');
  await runMeasured(process.execPath, [join(root, 'bin/marquee.js'), 'import', '--db', db, ...sources, '--json']);

  const list = cases();
  const servers = [];
  try {
    const marquee = await startServer(
      process.execPath,
      [join(root, 'bin/marquee.js'), 'serve', '--db', db, ...sources, '--port', '0', '--quiet', '--refresh-hours', '0'],
      READY_MARQUEE,
      { cwd: dir },
    );
    servers.push({ name: 'Marquee', ...marquee });
    const spec = {
      seed: SEED,
      movies: SIZES.movies,
      channels: SIZES.channels,
      start,
      days: SIZES.days,
      perDay: SIZES.perDay,
    };
    const sdk = await startServer(
      process.execPath,
      [join(root, 'bench/servers/sdk-addon.js'), JSON.stringify(spec)],
      READY_NODE,
    );
    servers.push({ name: 'SDK', ...sdk });

    // The limit answers Marquee's exact bytes, so its numbers bound what Marquee could reach.
    const bodies = {};
    for (const c of list) {
      const answer = await fetchAnswer(marquee.url + c.path);
      if (answer.status !== 200) throw new Error(`Marquee answered ${answer.status} to ${c.path}`);
      bodies[c.path] = answer.text;
    }
    const bodiesFile = join(dir, 'bare-bodies.json');
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const bare = await startServer(process.execPath, [join(root, 'bench/servers/bare.js'), bodiesFile], READY_NODE);
    servers.push({ name: 'limit', ...bare });

    // What each server answers, so a reader can see the three serve the same thing.
    const answers = [];
    for (const c of list) {
      for (const s of servers) {
        const plain = await fetchAnswer(s.url + c.path);
        const packed = await fetchAnswer(s.url + c.path, true);
        answers.push({
          case: c.name,
          server: s.name,
          ...summarize(plain),
          compressedBytes: packed.bytes,
          encoding: packed.encoding,
        });
      }
    }

    const rows = [];
    for (const compressed of [false, true]) {
      for (const c of list) {
        for (const s of servers) {
          log(`http: ${c.name}${compressed ? ' (gzip, br)' : ''} → ${s.name}`);
          const result = await measure(s.url + c.path, { connections, durationS, warmupS, compressed });
          rows.push({ case: c.name, path: c.path, target: c.target === true, compressed, server: s.name, ...result });
        }
      }
    }
    return { cases: list, answers, rows, connections, durationS, warmupS };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
