import { describe, expect, it } from 'vitest';
import { firstGuideDay } from '../../protocol/index.js';
import type { Programme } from '../../sources/records.js';
import type { Store } from '../store.js';
import { at, channel, programme, snapshot, useTempStore } from '../testing.js';
import { forEachEntry, programmesOf } from './guide-days.js';

const NOW = at('2030-01-10T12:00:00Z');
const DAYS = ['2030-01-09', '2030-01-10', '2030-01-11', '2030-01-12', '2030-01-13'];
const HOUR = 3_600_000;
const KEYS = 40;

let store: Store;
useTempStore((opened) => {
  store = opened;
});

/**
 * Per key, 3-hour programmes from 2030-01-09 01:30 (so every day has one over midnight), each
 * with a 4 KB description: 40 keys hold about 5 MB of entries, more than the import's 4 MB buffer.
 */
function guide(): Programme[][] {
  return Array.from({ length: KEYS }, (_, k) =>
    Array.from({ length: 36 }, (_, i) => {
      const start = at('2030-01-09T01:30:00Z') + i * 3 * HOUR;
      return programme(`g${k + 1}`, start, start + 3 * HOUR, `k${k + 1} p${i}`, {
        descriptions: [{ text: `${'é'.repeat(10)}${String(i).repeat(4000)}` }],
      });
    }),
  );
}

async function load(sources: readonly (readonly Programme[])[], guideSources = 1) {
  const imp = await store.beginLiveTvImport({ now: NOW });
  for (let n = 1; n <= KEYS; n++) imp.addChannel(channel(n));
  imp.setGuideSources(guideSources);
  for (const [priority, list] of sources.entries()) imp.addProgrammes(list, priority);
  const report = imp.commit();
  const split = store.context.db
    .prepare('SELECT count(*) FROM (SELECT 1 FROM guide_days GROUP BY key_id, day HAVING count(*) > 1)')
    .pluck()
    .get();
  const { dataVersion: _version, ...served } = snapshot(store, DAYS);
  return { report, split, served };
}

describe('guide days', () => {
  it('serves the same whatever the order of the guide, one row per guide channel and day', async () => {
    const byChannel = await load([guide().flat()]);
    expect(byChannel.split).toBe(0);
    expect(byChannel.report.counts.programmes).toBe(KEYS * 36);
    const page = store.guideDay({ day: '2030-01-10' });
    expect(page[0]!.programmes.map((p) => new Date(p.start).toISOString().slice(11, 16))).toEqual([
      '22:30', // from the day before, over midnight
      '01:30',
      '04:30',
      '07:30',
      '10:30',
      '13:30',
      '16:30',
      '19:30',
      '22:30',
    ]);

    // Ordered by time across channels: every flush writes a part of each day, joined at commit.
    const lists = guide();
    const byTime = lists[0]!.flatMap((_, i) => lists.map((list) => list[i]!));
    const timeOrdered = await load([byTime]);
    expect(timeOrdered.split).toBe(0);
    expect(timeOrdered.served).toEqual(byChannel.served);

    // Out of order (newest first): every key takes the merge path, taken back from written parts.
    const reversed = await load([guide().flat().reverse()]);
    expect(reversed.served).toEqual(byChannel.served);
    expect(reversed.report.dropped).toMatchObject({ duplicate: 0, overlapped: 0 });
  });

  it('merges a second source whether or not it was announced, and drops what it repeats', async () => {
    const base = await load([guide().flat()]);
    // The second source repeats every programme an hour later: each overlaps a better one.
    const later = guide()
      .flat()
      .map((p) => ({ ...p, start: p.start + HOUR, stop: p.stop + HOUR }));
    const announced = await load([guide().flat(), later], 2);
    const unannounced = await load([guide().flat(), later], 1);
    expect(announced.served).toEqual(base.served);
    expect(unannounced.served).toEqual(base.served);
    expect(announced.report.dropped).toMatchObject({ overlapped: KEYS * 36, duplicate: 0 });
    expect(unannounced.report.dropped).toEqual(announced.report.dropped);
    expect(announced.report.counts).toEqual(base.report.counts);
  });

  it('drops only the programmes a better source overlaps, not those next to them', async () => {
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(1));
    imp.addProgrammes(
      [
        programme('g1', '2030-01-10T06:00:00Z', '2030-01-10T09:00:00Z', 'long best'),
        programme('g1', '2030-01-10T09:00:00Z', '2030-01-10T10:00:00Z', 'best'),
      ],
      0,
    );
    imp.addProgrammes(
      [
        programme('g1', '2030-01-10T08:00:00Z', '2030-01-10T08:30:00Z', 'inside'),
        programme('g1', '2030-01-10T10:00:00Z', '2030-01-10T11:00:00Z', 'right after'),
        programme('g1', '2030-01-10T05:00:00Z', '2030-01-10T06:00:00Z', 'right before'),
        programme('g1', '2030-01-10T09:30:00Z', '2030-01-10T10:30:00Z', 'across the end'),
      ],
      1,
    );
    const report = imp.commit();
    const titles = store.guideDay({ day: '2030-01-10' })[0]!.programmes.map((p) => p.video.title);
    expect(titles).toEqual(['right before', 'long best', 'best', 'right after']);
    expect(report.dropped).toMatchObject({ overlapped: 2, duplicate: 0 });
  });

  it('puts a programme in the days it overlaps by the spec rule', () => {
    const day = at('2030-01-10T00:00:00Z');
    expect(firstGuideDay(day)).toBe(day);
    expect(firstGuideDay(day - 1)).toBe(day); // starts at 23:59:59.999: not before the day's last instant
    expect(firstGuideDay(day - 2)).toBe(day - 86_400_000);
  });

  it('reads entries back, each programme once', () => {
    const one = Buffer.from('10,20,2,ab30,40,0,');
    const seen: unknown[] = [];
    forEachEntry(one, (start, stop, offset, length) =>
      seen.push([start, stop, one.toString('utf8', offset, offset + length)]),
    );
    expect(seen).toEqual([
      [10, 20, 'ab'],
      [30, 40, ''],
    ]);
    expect(programmesOf([one, Buffer.from('30,40,0,50,60,3,é!')]).map((p) => [p.start, p.video])).toEqual([
      [10, 'ab'],
      [30, ''],
      [50, 'é!'],
    ]);
    expect(() => forEachEntry(Buffer.from('10,20,99,ab'), () => {})).toThrow(/corrupt/);
  });
});

describe('GuideDayWriter entries', () => {
  it('are the bytes of start,stop,length,video whatever the text and the buffer size (one encoding pass or measured)', async () => {
    const { default: Database } = await import('better-sqlite3');
    const { GuideDayWriter, DAY } = await import('./guide-days.js');
    const texts = [
      '',
      'a',
      ',"title":"News"',
      'é — ü',
      '😀'.repeat(30),
      'lone \ud800',
      'x'.repeat(180),
      'ü'.repeat(90),
    ];
    for (const arena of [256, 300, 400, 1000, 4096]) {
      const db = new Database(':memory:');
      db.exec(
        'CREATE TABLE guide_days (key_id INTEGER, day INTEGER, part INTEGER, entries BLOB, PRIMARY KEY (key_id, day, part))',
      );
      const writer = new GuideDayWriter(db, arena);
      const expected = new Map<string, Buffer[]>();
      const day0 = firstGuideDay(at('2030-01-10T00:00:00Z'));
      for (let i = 0; i < 200; i++) {
        const key = 1 + (i % 3);
        // 3-hour slots: some run over midnight and go into two days.
        const start = day0 + Math.floor(i / 3) * HOUR * 3 - (i % 7 === 0 ? 0 : 1);
        const stop = start + HOUR * 3;
        const video = texts[i % texts.length]!;
        writer.add(key, start, stop, video);
        for (let day = firstGuideDay(start); day < stop; day += DAY) {
          const id = `${key}/${day}`;
          const bytes = Buffer.from(video);
          expected.set(id, [...(expected.get(id) ?? []), Buffer.from(`${start},${stop},${bytes.length},`), bytes]);
        }
      }
      writer.finish();
      const rows = db.prepare('SELECT key_id, day, entries FROM guide_days').raw().all() as [number, number, Buffer][];
      expect(rows.length).toBe(expected.size);
      for (const [key, day, entries] of rows) expect(entries).toEqual(Buffer.concat(expected.get(`${key}/${day}`)!));
      db.close();
    }
  });
});
