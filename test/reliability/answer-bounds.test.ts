/**
 * Answers whose size the data controls (issue 48): a guide of 50,000 programmes on one channel in
 * one day made an 8.6 MB channel meta and a 14.8 MB guide page, descriptions of 4,000 characters
 * a 42 MB page, a series of 50,000 episodes a 5.6 MB meta, and four such answers in flight held
 * the manifest up. Now a guide channel keeps `livetv.maxProgrammesPerDay` programmes a day, a
 * series `library.maxEpisodesPerSeries` episodes, a channel logo at most `livetv.maxLogoLength`
 * characters, and every answer built from the store stays within `addon.maxAnswerBytes` (4 MiB):
 * a page ends early (the client asks the next from there), a meta keeps its earliest videos.
 * Real `marquee` processes (dist/) on 127.0.0.1; the sources are generated here (about 40 MB).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatXmltvTime } from '../../src/sources/xmltv/index.js';
import { httpRequest } from '../helpers/http.js';
import { ensureBuilt, startMarquee } from '../helpers/serve-process.js';

const DAY = 86_400_000;
const MAX_ANSWER = 4 * 1024 * 1024;
const today = Math.floor(Date.now() / DAY) * DAY;
const day = new Date(today).toISOString().slice(0, 10);

let dir: string;
const children: ChildProcess[] = [];

/**
 * A guide of `channels` channels: c0 with 50,000 programmes today, c1 and c2 with a programme a
 * minute for three days, each with a description of 4,000 characters, the others 48 a day.
 */
function writeGuide(file: string, channels: number): void {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<tv>\n'];
  for (let i = 0; i < channels; i++)
    parts.push(`<channel id="c${i}"><display-name>Channel ${i}</display-name></channel>\n`);
  const desc = `<desc>${'Lorem ipsum dolor sit amet, '.repeat(143).slice(0, 4_000)}</desc>`;
  const add = (channel: number, from: number, count: number, step: number, text: string) => {
    for (let k = 0; k < count; k++) {
      const s = from + k * step;
      parts.push(
        `<programme channel="c${channel}" start="${formatXmltvTime(s)}" stop="${formatXmltvTime(s + step)}"><title>Show ${k}</title>${text}</programme>\n`,
      );
    }
  };
  add(0, today, 50_000, Math.floor(DAY / 50_000), '');
  for (const c of [1, 2]) add(c, today - DAY, 3 * 1_440, 60_000, desc);
  for (let c = 3; c < channels; c++) add(c, today, 48, DAY / 48, '');
  parts.push('</tv>\n');
  writeFileSync(file, parts.join(''));
}

function writePlaylist(file: string, channels: number, logo?: (i: number) => string): void {
  const lines = ['#EXTM3U'];
  for (let i = 0; i < channels; i++) {
    lines.push(
      `#EXTINF:-1 tvg-id="c${i}"${logo ? ` tvg-logo="${logo(i)}"` : ''},Channel ${i}`,
      `http://s.example/${i}.m3u8`,
    );
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'marquee-answer-bounds-'));
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function importJson(args: string[]) {
  const imported = startMarquee(['import', ...args, '--json'], dir, children);
  const code = await imported.exited;
  const output = imported.output();
  return { code, report: JSON.parse(output.slice(output.indexOf('{'))), output };
}

async function serve(db: string) {
  const server = startMarquee(['serve', '--db', db, '--port', '0', '--quiet'], dir, children);
  const [, manifest] = await server.waitFor(/manifest: +(\S+)/);
  return { server, base: manifest!.replace(/\/manifest\.json$/, '') };
}

/** Four of `heavy` in flight (each encoding a client sends) and, beside them, `light`: its worst time over three rounds. */
async function besideFour(base: string, heavy: readonly string[], light: string) {
  const encodings = ['br', 'gzip', 'gzip, deflate, br', 'identity'];
  let worst = 0;
  for (let round = 0; round < 3; round++) {
    const inFlight = encodings.map((e, i) =>
      httpRequest(base, heavy[i % heavy.length]!, { headers: { 'accept-encoding': e } }),
    );
    const started = performance.now();
    const answer = await httpRequest(base, light, { headers: { 'accept-encoding': 'gzip' } });
    worst = Math.max(worst, performance.now() - started);
    expect(answer.status).toBe(200);
    for (const done of await Promise.all(inFlight)) expect(done.status).toBe(200);
  }
  return worst;
}

describe('guide channels of 50,000 programmes a day, and of long descriptions', () => {
  const db = () => join(dir, 'guide.db');

  it('keep 1,440 programmes a day, the rest counted and named in the import report', async () => {
    writePlaylist(join(dir, 'tv.m3u'), 20);
    writeGuide(join(dir, 'guide.xml'), 20);
    const { code, report } = await importJson([
      '--db',
      db(),
      '--playlist',
      join(dir, 'tv.m3u'),
      '--epg',
      join(dir, 'guide.xml'),
    ]);
    expect(code).toBe(0);
    const tv = report.livetv;
    expect(tv.dropped.overDayCap).toBe(50_000 - 1_440);
    expect(tv.warnings).toContainEqual({
      source: join(dir, 'guide.xml'),
      message: `guide channel "c0" has 50000 programmes starting on ${day}; the earliest 1440 are stored (livetv.maxProgrammesPerDay), 48560 programmes past it on 1 guide channel day in all are not`,
    });
    // c1 and c2: a programme a minute is within the cap.
    expect(tv.counts.programmes).toBe(1_440 + 2 * 3 * 1_440 + 17 * 48);
  }, 90_000);

  it('answer within 4 MiB, pages ending early, and the manifest and another catalog within 500 ms beside four of them', async () => {
    const { server, base } = await serve(db());
    const page = `/catalog/tv/mq-tv-channels/date=${day}&skip=1.json`;
    const meta = `/meta/tv/${encodeURIComponent('mq-tv:c1')}.json`;
    const first = await httpRequest(base, `/catalog/tv/mq-tv-channels/date=${day}.json`);
    expect(first.status).toBe(200);
    expect(first.body.byteLength).toBeLessThanOrEqual(MAX_ANSWER);
    const ids = (body: { metasDetailed: { id: string }[] }) => body.metasDetailed.map((c) => c.id);
    // c0's 1,440 short programmes; c1's day of long ones does not fit beside them: the page ends.
    expect(ids(first.json())).toEqual(['mq-tv:c0']);
    expect(first.json().metasDetailed[0].videos).toHaveLength(1_440);
    // The client's next page starts where this one ended: c1 alone, cut to its earliest
    // programmes; then c2 alone; then the 17 others.
    const at = async (skip: number) => {
      const answer = await httpRequest(base, `/catalog/tv/mq-tv-channels/date=${day}&skip=${skip}.json`);
      expect(answer.body.byteLength).toBeLessThanOrEqual(MAX_ANSWER);
      return answer.json();
    };
    const second = await at(1);
    expect(ids(second)).toEqual(['mq-tv:c1']);
    expect(second.metasDetailed[0].videos.length).toBeGreaterThan(500);
    expect(second.metasDetailed[0].videos.length).toBeLessThan(1_440);
    expect(ids(await at(2))).toEqual(['mq-tv:c2']);
    expect(ids(await at(3))).toHaveLength(17);
    const channelMeta = await httpRequest(base, meta);
    expect(channelMeta.body.byteLength).toBeLessThanOrEqual(MAX_ANSWER);
    expect(channelMeta.body.byteLength).toBeGreaterThan(MAX_ANSWER / 2);
    expect(channelMeta.json().meta.videos.length).toBeGreaterThan(100);

    const manifest = await besideFour(base, [page, meta], '/manifest.json');
    expect(manifest, `the manifest took ${manifest.toFixed(0)} ms`).toBeLessThan(500);
    const catalog = await besideFour(base, [page, meta], '/catalog/tv/mq-tv-channels.json');
    expect(catalog, `the channel catalog took ${catalog.toFixed(0)} ms`).toBeLessThan(500);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);
});

describe('a series of 50,000 episodes', () => {
  it('keeps 10,000, says so naming the series and the setting, and its meta stays within 4 MiB', async () => {
    const videos = Array.from({ length: 50_000 }, (_, i) => ({
      id: `mq:long:${1 + Math.floor(i / 1_000)}:${1 + (i % 1_000)}`,
      title: `Episode ${i + 1}`,
      overview: 'Of a long story told over many seasons. '.repeat(10),
      season: 1 + Math.floor(i / 1_000),
      episode: 1 + (i % 1_000),
      released: '2020-01-01T00:00:00.000Z',
      streams: [{ url: `https://v.example/long/${i}.mp4` }],
    }));
    const file = join(dir, 'long.json');
    writeFileSync(file, JSON.stringify({ items: [{ type: 'series', id: 'mq:long', name: 'The Long One', videos }] }));
    const db = join(dir, 'series.db');
    const { code, report } = await importJson(['--db', db, '--library', file]);
    expect(code).toBe(0);
    expect(report.library.report.counts).toMatchObject({ series: 1, episodes: 10_000 });
    expect(report.library.warnings).toContainEqual(
      expect.objectContaining({
        source: file,
        message:
          'item [0] "The Long One": 50000 episodes; the first 10000 are kept (library.maxEpisodesPerSeries), 40000 are not',
      }),
    );
    const { server, base } = await serve(db);
    const meta = await httpRequest(base, '/meta/series/mq%3Along.json');
    expect(meta.status).toBe(200);
    expect(meta.body.byteLength).toBeLessThanOrEqual(MAX_ANSWER);
    const kept = meta.json().meta.videos as { season: number; episode: number }[];
    // 10,000 episodes of about 600 bytes pass 4 MiB: the first ones that fit, in order.
    expect(kept.length).toBeGreaterThan(5_000);
    expect(kept.length).toBeLessThan(10_000);
    expect(kept[0]).toMatchObject({ season: 1, episode: 1 });
    const manifest = await besideFour(base, ['/meta/series/mq%3Along.json'], '/manifest.json');
    expect(manifest, `the manifest took ${manifest.toFixed(0)} ms`).toBeLessThan(500);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);
});

describe('channel logos of 64 KB inline images', () => {
  it('are left out with a warning naming the line; a logo within livetv.maxLogoLength is kept whole', async () => {
    const file = join(dir, 'logos.m3u');
    const small = `data:image/png;base64,${'B'.repeat(8_000)}`;
    writePlaylist(file, 100, (i) => (i === 0 ? small : `data:image/png;base64,${'A'.repeat(65_000)}${i}`));
    const db = join(dir, 'logos.db');
    const { code, report } = await importJson(['--db', db, '--playlist', file]);
    expect(code).toBe(0);
    expect(report.livetv.warningCount).toBe(99);
    expect(report.livetv.warnings[0]).toEqual({
      source: file,
      line: 4,
      message:
        'tvg-logo is an inline image of 65023 characters, more than 8192 (livetv.maxLogoLength); the channel has no logo',
    });
    const { server, base } = await serve(db);
    const page = await httpRequest(base, '/catalog/tv/mq-tv-channels.json');
    const metas = page.json().metas as { id: string; poster?: string }[];
    expect(metas).toHaveLength(100);
    expect(metas[0]!.poster).toBe(small);
    expect(metas.filter((m) => m.poster !== undefined)).toHaveLength(1);
    expect(page.body.byteLength).toBeLessThan(64 * 1024);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);
});

describe('the limits are settings', () => {
  it('livetv.maxProgrammesPerDay, livetv.maxLogoLength and library.maxEpisodesPerSeries reach the import', async () => {
    const cwd = mkdtempSync(join(dir, 'settings-'));
    writePlaylist(join(cwd, 'tv.m3u'), 3, (i) => `https://img.example/${'x'.repeat(i * 100)}.png`);
    const parts = [
      '<?xml version="1.0" encoding="UTF-8"?>\n<tv>\n<channel id="c0"><display-name>Zero</display-name></channel>\n',
    ];
    for (let k = 0; k < 30; k++) {
      const s = today + k * 3_600_000;
      parts.push(
        `<programme channel="c0" start="${formatXmltvTime(s)}" stop="${formatXmltvTime(s + 600_000)}"><title>P${k}</title></programme>\n`,
      );
    }
    writeFileSync(join(cwd, 'guide.xml'), `${parts.join('')}</tv>\n`);
    const videos = Array.from({ length: 8 }, (_, i) => ({ id: `mq:s:1:${i + 1}`, season: 1, episode: i + 1 }));
    writeFileSync(
      join(cwd, 'lib.json'),
      JSON.stringify({ items: [{ type: 'series', id: 'mq:s', name: 'S', videos }] }),
    );
    writeFileSync(
      join(cwd, 'marquee.json'),
      JSON.stringify({
        livetv: { playlists: ['tv.m3u'], guides: ['guide.xml'], maxProgrammesPerDay: 10, maxLogoLength: 150 },
        library: { files: ['lib.json'], maxEpisodesPerSeries: 5 },
        addon: { maxAnswerBytes: 65_536 },
      }),
    );
    const imported = startMarquee(['import', '--json'], cwd, children);
    expect(await imported.exited).toBe(0);
    const output = imported.output();
    const report = JSON.parse(output.slice(output.indexOf('{')));
    // 24 today (10 kept), 6 tomorrow.
    expect(report.livetv.dropped.overDayCap).toBe(24 - 10);
    expect(report.livetv.counts.programmes).toBe(10 + 6);
    expect(report.livetv.warnings.map((w: { message: string }) => w.message)).toContainEqual(
      expect.stringMatching(/^tvg-logo is a URL of 224 characters, more than 150 \(livetv\.maxLogoLength\)/),
    );
    expect(report.library.report.counts.episodes).toBe(5);
    writeFileSync(join(cwd, 'bad.json'), JSON.stringify({ addon: { maxAnswerBytes: 1_000 } }));
    const bad = startMarquee(['import', '--config', 'bad.json'], cwd, children);
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toMatch(/addon\.maxAnswerBytes/);
  }, 60_000);
});
