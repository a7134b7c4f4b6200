/**
 * Matching through the real import, on names taken from the matching corpus: the per-entry
 * report (`matches`), the scored stage's choices, `guideOverrides` with `null`, overrides across
 * a refresh and a scored match recomputed, the matches kept in the store, and a guide that gives
 * nothing refused with the reason in plain words.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { importLiveTv, type LiveTvImportOptions } from '../src/livetv/index.js';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { NOW, type TempStore, tempStore } from './fixtures/livetv/setup.js';
import { corpusDir, corpusFile, describeCorpus } from './helpers/corpus.js';

let temp: TempStore | undefined;
let server: Server | undefined;
afterEach(async () => {
  temp?.cleanup();
  temp = undefined;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const HOUR = 3_600_000;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** An XMLTV guide of `channels` (id → display names), each with programmes around `around`. */
function guide(channels: Record<string, string[]>, around = NOW): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
  for (const [id, names] of Object.entries(channels)) {
    lines.push(`<channel id="${id}">${names.map((n) => `<display-name>${esc(n)}</display-name>`).join('')}</channel>`);
  }
  for (const id of Object.keys(channels)) {
    for (let h = -6; h < 6; h += 2) {
      const start = around + h * HOUR;
      lines.push(
        `<programme start="${formatXmltvTime(start)}" stop="${formatXmltvTime(start + 2 * HOUR)}" channel="${id}"><title>${id} at ${h}</title></programme>`,
      );
    }
  }
  return [...lines, '</tv>', ''].join('\n');
}

/** A playlist of `names` (EXTINF attributes after `#EXTINF:-1 ` when given as a pair). */
function playlist(names: (string | [string, string])[]): string {
  return `#EXTM3U\n${names
    .map((n, i) => {
      const [attributes, name] = typeof n === 'string' ? ['', n] : n;
      return `#EXTINF:-1${attributes ? ` ${attributes}` : ''},${name}\nhttp://streams.example/${i}.ts\n`;
    })
    .join('')}`;
}

// Real names of the matching corpus: guide channels as guide sites name them, playlist entries as
// iptv-org and providers' panels write them.
const GUIDE = {
  'Russia24.ru': ['Russia 24', 'Россия 24'],
  'Russia1.ru': ['Россия 1 HD', 'Россия 1'],
  'RTG.ru': ['Russian Travel Guide', 'RTG TV'],
  'RT.ru': ['RT TV', 'Russia Today HD', 'RT HD'],
  'Channel8.ru': ['8 канал'],
  'FoxSports1.us': ['FOX Sports 1'],
  'FoxSports2.us': ['FOX Sports 2'],
  'Lifetime.us': ['Lifetime', 'LIFETIME'],
};
const PLAYLIST: (string | [string, string])[] = [
  'RU| Россия 24 (Благовещенск) HD', // 1: scored: a regional feed of Россия 24, never Россия 1
  'Россия 1 (Ставрополь) (576p)', // 3: scored: Россия 1
  '[RU] RTG TV HD (1080p)', // 5: normalizedName: RTG TV, never RT TV
  '|RU| 12 канал', // 7: nothing (8 канал is another channel)
  'US ● FOX SPORTS 1 HEVC', // 9: normalizedName
  'US: Lifetime Latin America FHD 50FPS', // 11: scored
  'US: Lifetime Latin America FHD 50FPS', // 13: the same channel's second stream
  ['tvg-id="Russia1.ru"', 'Russia-1 +4 (1080p)'], // 15: tvgId... but an override says none
];

async function importWith(files: { playlist: string; guide: string }, options: Partial<LiveTvImportOptions> = {}) {
  temp ??= tempStore();
  const p = join(temp.dir, 'tv.m3u');
  const g = join(temp.dir, 'guide.xml');
  writeFileSync(p, files.playlist);
  writeFileSync(g, files.guide);
  const result = await importLiveTv(temp.store, {
    playlists: [{ location: p }],
    guides: [{ location: g }],
    now: NOW,
    ...options,
  });
  return { result, store: temp.store, playlistPath: p, guidePath: g };
}

describe('matches: every entry with how its channel found its guide channel', () => {
  it('lists each entry in file order with its rule, score and candidates', async () => {
    const { result, playlistPath } = await importWith(
      { playlist: playlist(PLAYLIST), guide: guide(GUIDE) },
      { guideOverrides: { 'Russia1.ru': null } },
    );
    const matches = result.matches!;
    expect(matches.map((m) => [m.line, m.name, m.guide, m.rule])).toEqual([
      [2, 'RU| Россия 24 (Благовещенск) HD', 'Russia24.ru', 'scored'],
      [4, 'Россия 1 (Ставрополь) (576p)', 'Russia1.ru', 'scored'],
      [6, '[RU] RTG TV HD (1080p)', 'RTG.ru', 'normalizedName'],
      [8, '|RU| 12 канал', null, null],
      [10, 'US ● FOX SPORTS 1 HEVC', 'FoxSports1.us', 'normalizedName'],
      [12, 'US: Lifetime Latin America FHD 50FPS', 'Lifetime.us', 'scored'],
      [14, 'US: Lifetime Latin America FHD 50FPS', 'Lifetime.us', 'scored'],
      [16, 'Russia-1 +4 (1080p)', null, 'override'],
    ]);
    for (const m of matches) {
      expect(Object.keys(m).sort()).toEqual([
        'candidates',
        'channel',
        'guide',
        'guideName',
        'line',
        'name',
        'rule',
        'score',
        'source',
      ]);
      // The guide channel's display name beside its id (issue 46), none without a guide channel.
      if (m.guide === null) expect(m.guideName).toBeNull();
      else expect(m.guideName).toEqual(expect.any(String));
      expect(m.source).toBe(playlistPath);
      expect(m.channel).toMatch(/^mq-tv:/);
      if (m.rule === 'scored') expect(m.score).toBeGreaterThanOrEqual(0.85);
      else expect(m.score).toBeNull();
    }
    // Both streams of one channel: one channel id, one match.
    expect(matches[5]!.channel).toBe(matches[6]!.channel);
    // Candidates: for scored and unmatched entries, never the exact ones; the runner-up is far behind.
    expect(matches[0]!.candidates.every((c) => c.id !== 'Russia1.ru' && c.score < matches[0]!.score! - 0.1)).toBe(true);
    expect(matches[2]!.candidates).toEqual([]);
    expect(result.matchedBy).toMatchObject({ scored: 3, normalizedName: 2, override: 0 });
    expect(result.unmatched).toEqual(['|RU| 12 канал', 'Russia-1 +4 (1080p)']);
  });

  it('never shows an account’s secrets in `source`', async () => {
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'audio/x-mpegurl');
      res.end(playlist(PLAYLIST.slice(0, 2)));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const location = `http://alice:s3cret@127.0.0.1:${port}/get.php?username=alice&password=s3cret&type=m3u_plus`;
    temp = tempStore();
    const g = join(temp.dir, 'guide.xml');
    writeFileSync(g, guide(GUIDE));
    const result = await importLiveTv(temp.store, { playlists: [{ location }], guides: [{ location: g }], now: NOW });
    expect(result.matches).toHaveLength(2);
    expect(JSON.stringify(result.matches)).not.toContain('s3cret');
    expect(result.matches![0]!.source).toContain(`127.0.0.1:${port}/get.php`);
  });

  it('keeps the stage off when asked: exact rules only', async () => {
    const { result } = await importWith(
      { playlist: playlist(PLAYLIST), guide: guide(GUIDE) },
      { matching: { scored: false } },
    );
    expect(result.matches!.filter((m) => m.rule === 'scored')).toEqual([]);
    expect(result.matchedBy.scored).toBe(0);
    expect(result.matchedBy.normalizedName).toBe(2);
  });
});

describeCorpus('the corpus through the import', () => {
  const corpus = (
    corpusDir() === undefined
      ? { countries: {} }
      : JSON.parse(gunzipSync(readFileSync(corpusFile('matching', 'dev.json.gz'))).toString('utf8'))
  ) as {
    countries: Record<
      string,
      { guide: [string, string[]][]; entries: [string, string[], string, string | null, string, string][] }
    >;
  };

  it.each(['ru', 'fr', 'in', 'br'])(
    '%s: every guide channel the scored stage chose had its programmes kept while the guide streamed',
    async (cc) => {
      const { guide: channels, entries } = corpus.countries[cc]!;
      const files = {
        guide: guide(Object.fromEntries(channels)),
        playlist: `#EXTM3U\n${entries.map((e) => `${e[0]},${e[4]}\n${e[1].join('\n')}${e[1].length ? '\n' : ''}${e[2]}\n`).join('')}`,
      };
      const { result, store } = await importWith(files);
      const scored = store.channelMatches().filter((m) => m.rule === 'scored');
      expect(scored.length).toBeGreaterThan(5);
      // Every guide channel of this guide has programmes now: a scored match without is a guide
      // channel the playlist side skipped while it streamed.
      expect(scored.filter((m) => !m.hasProgrammes)).toEqual([]);
      expect(result.matches!.length).toBe(entries.length);
      temp?.cleanup();
      temp = undefined;
    },
  );
});

describe('overrides and refreshes', () => {
  it('pins a channel to a guide channel or to none, across refreshes, while scored matches are recomputed', async () => {
    const overrides = { 'US: Lifetime Latin America FHD 50FPS': 'FoxSports2.us', '|RU| 12 канал': null };
    const first = await importWith(
      { playlist: playlist(PLAYLIST), guide: guide(GUIDE) },
      { guideOverrides: overrides },
    );
    const byName = (r: typeof first.result, name: string) => r.matches!.find((m) => m.name === name)!;
    expect(byName(first.result, 'US: Lifetime Latin America FHD 50FPS')).toMatchObject({
      guide: 'FoxSports2.us',
      rule: 'override',
    });
    expect(byName(first.result, '|RU| 12 канал')).toMatchObject({ guide: null, rule: 'override', candidates: [] });
    expect(byName(first.result, 'RU| Россия 24 (Благовещенск) HD').guide).toBe('Russia24.ru');

    // The guide changes: a regional channel of its own appears; the override still holds.
    const changed = { ...GUIDE, 'Russia24Blag.ru': ['Россия 24 Благовещенск'] };
    writeFileSync(first.guidePath, guide(changed));
    const second = await importLiveTv(first.store, {
      playlists: [{ location: first.playlistPath }],
      guides: [{ location: first.guidePath }],
      guideOverrides: overrides,
      previous: first.result.state,
      now: NOW + HOUR,
    });
    expect(second.status).toBe('imported');
    expect(byName(second, 'RU| Россия 24 (Благовещенск) HD')).toMatchObject({ guide: 'Russia24Blag.ru' });
    expect(byName(second, 'US: Lifetime Latin America FHD 50FPS')).toMatchObject({ guide: 'FoxSports2.us' });
    expect(byName(second, '|RU| 12 канал').guide).toBeNull();
  });

  it('keeps the served import’s matches in the store, for `status --matches`', async () => {
    const { store } = await importWith({ playlist: playlist(PLAYLIST), guide: guide(GUIDE) });
    const stored = store.channelMatches();
    expect(stored.map((m) => [m.name, m.guide, m.rule, m.hasProgrammes])).toEqual([
      ['RU| Россия 24 (Благовещенск) HD', 'Russia24.ru', 'scored', true],
      ['Россия 1 (Ставрополь) (576p)', 'Russia1.ru', 'scored', true],
      ['[RU] RTG TV HD (1080p)', 'RTG.ru', 'normalizedName', true],
      ['|RU| 12 канал', undefined, undefined, false],
      ['US ● FOX SPORTS 1 HEVC', 'FoxSports1.us', 'normalizedName', true],
      ['US: Lifetime Latin America FHD 50FPS', 'Lifetime.us', 'scored', true],
      ['Russia-1 +4 (1080p)', 'Russia1.ru', 'tvgId', true],
    ]);
    expect(stored[6]!.pin).toBe('Russia1.ru');
    expect(stored[0]!.score).toBeGreaterThan(0.85);
  });
});

describe('a guide that gives nothing is a failed source', () => {
  it('says its programmes all ended before the window: the file is out of date', async () => {
    const old = Date.parse('2026-01-10T12:00:00Z');
    const { result } = await importWith({ playlist: playlist(PLAYLIST), guide: guide(GUIDE, old) });
    const report = result.sources.find((s) => s.kind === 'guide')!;
    expect(report.outcome).toBe('none');
    expect(report.reason).toBe(
      'gives nothing: its 48 programmes all ended before 2026-02-27 (the newest ended 2026-01-10): the file is out of date',
    );
    expect(report.message).toMatch(/^guide \S+guide\.xml gives nothing: its 48 programmes all ended before 2026-02-27/);
    // The channels are still served, without guide data.
    expect(result.counts.channels).toBe(7);
    expect(result.counts.programmes).toBe(0);
  });

  it('says none of its channels matches a playlist channel, and which names came closest', async () => {
    const other = { 'BBCOne.uk': ['BBC One'], 'ITV1.uk': ['ITV 1'], 'Dave.uk': ['Dave'] };
    const { result } = await importWith({
      playlist: playlist(['UK: BBC ONE LONDON FHD', 'ITV 2 HD', 'Sky News']),
      guide: guide(other),
    });
    const report = result.sources.find((s) => s.kind === 'guide')!;
    expect(report.outcome).toBe('none');
    expect(report.reason).toMatch(
      /^gives nothing: none of its 3 channels matches a playlist channel; closest: "BBC One" for "UK: BBC ONE LONDON FHD" \(0\.\d\d\)$/,
    );
  });

  it('keeps the last good data of a guide that goes out of date', async () => {
    const first = await importWith({ playlist: playlist(PLAYLIST), guide: guide(GUIDE) });
    expect(first.result.counts.programmes).toBeGreaterThan(0);
    writeFileSync(first.guidePath, guide(GUIDE, Date.parse('2026-01-10T12:00:00Z')));
    const second = await importLiveTv(first.store, {
      playlists: [{ location: first.playlistPath }],
      guides: [{ location: first.guidePath }],
      now: NOW,
    });
    const report = second.sources.find((s) => s.kind === 'guide')!;
    expect(report.outcome).toBe('kept');
    expect(report.reason).toMatch(/the file is out of date$/);
    expect(second.counts.programmes).toBe(first.result.counts.programmes);
    expect(first.store.sourceStates().find((s) => s.kind === 'guide')?.outcome).toBe('kept');
  });
});
