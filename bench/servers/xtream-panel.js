/**
 * A fake Xtream Codes panel for the benchmark (the test suite's panel is TypeScript; this one is
 * the same public shape, trimmed to what the import asks): `player_api.php` with its actions and
 * `xmltv.php`, answers generated from (index) and written in chunks, so a 50,000-stream panel
 * costs the bench process little memory. 127.0.0.1 only.
 */
import { createServer } from 'node:http';

const CHUNK = 2_000;

/** @example const panel = await startBenchPanel({ live: 40_000, movies: 8_000, series: 2_000 }) */
export async function startBenchPanel({ live, movies, series, programmes = 12, now = Date.now() }) {
  const H = 3_600_000;
  const start = Math.floor(now / H) * H - 2 * H;
  const t = (ms) => `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)} +0000`;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://panel');
    const action = url.pathname === '/xmltv.php' ? 'xmltv' : (url.searchParams.get('action') ?? 'account');
    const list = async (count, make) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 1; i <= count; i += CHUNK) {
        const part = [];
        for (let k = i; k < Math.min(i + CHUNK, count + 1); k++) part.push(JSON.stringify(make(k)));
        if (!res.write(`${i === 1 ? '[' : ','}${part.join(',')}`)) await new Promise((r) => res.once('drain', r));
      }
      res.end(count === 0 ? '[]' : ']');
    };
    const json = (value) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    switch (action) {
      case 'account':
        return json({
          user_info: { auth: 1, status: 'Active', exp_date: null, allowed_output_formats: ['m3u8', 'ts'] },
          server_info: { timezone: 'Europe/London' },
        });
      case 'get_live_categories':
      case 'get_vod_categories':
      case 'get_series_categories':
        return json(
          Array.from({ length: 40 }, (_, k) => ({ category_id: String(k + 1), category_name: `Category ${k + 1}` })),
        );
      case 'get_live_streams':
        return list(live, (i) => ({
          num: i,
          name: `Channel ${i}`,
          stream_id: i,
          stream_icon: `http://127.0.0.1/logo/${i}.png`,
          epg_channel_id: `ch${i}.bench`,
          category_id: String(1 + (i % 40)),
          tv_archive: i % 4 === 0 ? 1 : 0,
          tv_archive_duration: i % 4 === 0 ? '7' : '0',
        }));
      case 'get_vod_streams':
        return list(movies, (i) => ({
          name: `Film ${i}`,
          stream_id: 1_000_000 + i,
          stream_icon: `http://127.0.0.1/poster/${i}.jpg`,
          category_id: String(1 + (i % 40)),
          container_extension: 'mkv',
          rating: '7.1',
        }));
      case 'get_vod_info': {
        const i = Number(url.searchParams.get('vod_id')) - 1_000_000;
        return json({
          info: {
            plot: `The plot of film ${i}, long enough to look like one: `.repeat(4),
            cast: 'Ada Actor, Bo Actor, Cy Actor',
            director: 'Di Director',
            genre: 'Drama / Comedy',
            releasedate: `20${String(10 + (i % 15))}-05-01`,
            duration_secs: 5400,
            backdrop_path: [`http://127.0.0.1/backdrop/${i}.jpg`],
          },
          movie_data: { stream_id: 1_000_000 + i, container_extension: 'mkv' },
        });
      }
      case 'get_series':
        return list(series, (i) => ({
          name: `Show ${i}`,
          series_id: 2_000_000 + i,
          cover: `http://127.0.0.1/cover/${i}.jpg`,
          plot: `The story of show ${i}.`,
          category_id: String(1 + (i % 40)),
        }));
      case 'get_series_info': {
        const i = Number(url.searchParams.get('series_id')) - 2_000_000;
        const episodes = {};
        for (let s = 1; s <= 2; s++) {
          episodes[s] = Array.from({ length: 8 }, (_, e) => ({
            id: String(i * 100 + s * 10 + e),
            episode_num: e + 1,
            title: `Show ${i} S${s}E${e + 1}`,
            container_extension: 'mp4',
            info: { plot: `Episode ${e + 1}.` },
            season: s,
          }));
        }
        return json({ info: { name: `Show ${i}` }, episodes });
      }
      case 'xmltv': {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write('<?xml version="1.0" encoding="UTF-8"?>\n<tv>\n');
        for (let i = 1; i <= live; i += 500) {
          let out = '';
          for (let k = i; k < Math.min(i + 500, live + 1); k++)
            out += `<channel id="ch${k}.bench"><display-name>Channel ${k}</display-name></channel>\n`;
          if (!res.write(out)) await new Promise((r) => res.once('drain', r));
        }
        for (let i = 1; i <= live; i += 100) {
          let out = '';
          for (let k = i; k < Math.min(i + 100, live + 1); k++) {
            for (let h = 0; h < programmes; h++) {
              const from = start + h * H;
              out += `<programme start="${t(from)}" stop="${t(from + H)}" channel="ch${k}.bench"><title>Show ${h}</title><desc>About show ${h} on channel ${k}.</desc></programme>\n`;
            }
          }
          if (!res.write(out)) await new Promise((r) => res.once('drain', r));
        }
        return res.end('</tv>\n');
      }
      default:
        return json([]);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    account: `http://bench:bench-pw@127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
