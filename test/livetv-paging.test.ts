/**
 * Paging across 250 channels (generated in the test) over HTTP: skip counts channels, any skip is
 * answered, the end is an empty page; and a guide page written from the store equals the built one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRawJsonList, parseRawJsonList, type RawJsonList } from '../src/addon/index.js';
import { createLiveTvPart, importLiveTv } from '../src/livetv/index.js';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { NOW, type Served, serve, type TempStore, tempStore } from './fixtures/livetv/setup.js';

const CHANNELS = 250;
const DAY = '2026-03-01';
const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
const SLOT = 3_600_000;

let temp: TempStore;
let served: Served;

/** `tvg-chno` in reverse for the first 100, so order by number differs from playlist order. */
function playlist(): string {
  const lines = ['#EXTM3U'];
  for (let i = 0; i < CHANNELS; i++) {
    const chno = i < 100 ? ` tvg-chno="${100 - i}"` : '';
    lines.push(`#EXTINF:-1 tvg-id="ch${i}.test"${chno} group-title="G${i % 3}",Channel ${i}`);
    lines.push(`https://streams.example/${i}.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}

/** Hourly programmes over three days; channel 249 has none (it stays in the pages, empty). */
function guide(): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<tv>'];
  for (let i = 0; i < CHANNELS; i++)
    parts.push(`<channel id="ch${i}.test"><display-name>Channel ${i}</display-name></channel>`);
  for (let i = 0; i < CHANNELS - 1; i++) {
    for (let start = DAY_START - 24 * SLOT; start < DAY_START + 48 * SLOT; start += SLOT) {
      parts.push(
        `<programme start="${formatXmltvTime(start)}" stop="${formatXmltvTime(start + SLOT)}" channel="ch${i}.test"><title>Show ${i}</title><desc>About show ${i}</desc><category>News</category></programme>`,
      );
    }
  }
  parts.push('</tv>');
  return parts.join('\n');
}

/** Channel i in catalog order: numbered ones (i = 99..0 by tvg-chno 1..100), then 100..249. */
const ORDER = [...Array.from({ length: 100 }, (_, k) => 99 - k), ...Array.from({ length: 150 }, (_, k) => 100 + k)];
const ids = (list: { id: string }[]) => list.map((m) => m.id);
const expected = (from: number, to: number) => ORDER.slice(from, to).map((i) => `mq-tv:ch${i}.test`);

beforeAll(async () => {
  temp = tempStore();
  writeFileSync(join(temp.dir, 'big.m3u'), playlist());
  writeFileSync(join(temp.dir, 'big.xml'), guide());
  const result = await importLiveTv(temp.store, {
    playlists: [{ location: join(temp.dir, 'big.m3u') }],
    guides: [{ location: join(temp.dir, 'big.xml') }],
    now: NOW,
  });
  expect(result.counts).toMatchObject({ channels: CHANNELS, matchedChannels: CHANNELS - 1 });
  served = await serve(temp.store);
});
afterAll(async () => {
  await served.close();
  temp.cleanup();
});

async function get(path: string) {
  const response = await served.get(path);
  expect(response.status, path).toBe(200);
  return response.json();
}

describe('paging 250 channels', () => {
  it('pages the list by 100 with skip counting channels, to an empty page', async () => {
    const seen: string[] = [];
    for (;;) {
      const { metas } = await get(`/catalog/tv/mq-tv-channels${seen.length === 0 ? '' : `/skip=${seen.length}`}.json`);
      if (metas.length === 0) break;
      expect(metas.length).toBeLessThanOrEqual(100);
      seen.push(...ids(metas));
    }
    expect(seen).toEqual(expected(0, CHANNELS));
  });

  it('answers any skip, not only multiples of 100', async () => {
    expect(ids((await get('/catalog/tv/mq-tv-channels/skip=37.json')).metas)).toEqual(expected(37, 137));
    expect(ids((await get('/catalog/tv/mq-tv-channels/skip=249.json')).metas)).toEqual(expected(249, 250));
    expect((await get('/catalog/tv/mq-tv-channels/skip=250.json')).metas).toEqual([]);
    expect((await get('/catalog/tv/mq-tv-channels/skip=100000.json')).metas).toEqual([]);
  });

  it('pages a guide day the same way, every channel once, empty rows kept', async () => {
    const rows: { id: string; videos: { startTime: string; endTime: string }[] }[] = [];
    for (;;) {
      const extra = rows.length === 0 ? `date=${DAY}` : `date=${DAY}&skip=${rows.length}`;
      const { metasDetailed } = await get(`/catalog/tv/mq-tv-channels/${extra}.json`);
      if (metasDetailed.length === 0) break;
      rows.push(...metasDetailed);
    }
    expect(ids(rows)).toEqual(expected(0, CHANNELS));
    for (const row of rows.filter((r) => r.id !== 'mq-tv:ch249.test')) {
      expect(row.videos).toHaveLength(24);
      expect(row.videos[0]!.startTime).toBe(`${DAY}T00:00:00.000Z`);
      expect(row.videos.at(-1)!.endTime).toBe('2026-03-02T00:00:00.000Z');
    }
    expect(rows.find((r) => r.id === 'mq-tv:ch249.test')!.videos).toEqual([]);
    const odd = await get(`/catalog/tv/mq-tv-channels/date=${DAY}&skip=137.json`);
    expect(ids(odd.metasDetailed)).toEqual(expected(137, 237));
  });

  it('writes a guide page of a group from the store as the object path builds it', async () => {
    const part = createLiveTvPart(temp.store, { now: () => NOW });
    const request = (extra: Record<string, unknown>) => ({
      type: 'tv',
      id: 'mq-tv-channels',
      config: {},
      catalog: part.catalogs[0]!,
      extra: { skip: 0, date: DAY, all: {}, ...extra },
    });
    // Written from raw entries (one group) and built as objects (a name search): same channels.
    const raw = (await part.handlers.catalog!(request({ genre: 'G1' }))) as { metasDetailed: RawJsonList };
    const built = (await part.handlers.catalog!(request({ genre: 'G1', search: 'Channel' }))) as {
      metasDetailed: unknown[];
    };
    expect(isRawJsonList(raw.metasDetailed)).toBe(true);
    expect(raw.metasDetailed.count).toBe(built.metasDetailed.length);
    expect(built.metasDetailed.length).toBeGreaterThan(0);
    expect(parseRawJsonList(raw.metasDetailed)).toEqual(built.metasDetailed);
  });

  it('keeps every answer within maxAnswerBytes, the pages ending early and the client paging on through every channel', async () => {
    const MAX = 65_536;
    const part = createLiveTvPart(temp.store, { now: () => NOW, maxAnswerBytes: MAX });
    const request = (extra: Record<string, unknown>) => ({
      type: 'tv',
      id: 'mq-tv-channels',
      config: {},
      catalog: part.catalogs[0]!,
      extra: { skip: 0, all: {}, ...extra },
    });
    const list = (body: unknown): { id: string; videos?: unknown[] }[] => {
      const value = Object.values(body as Record<string, unknown>)[0];
      return isRawJsonList(value) ? (parseRawJsonList(value) as { id: string }[]) : (value as { id: string }[]);
    };
    // Raw guide pages (one group or none), built ones (a name search), and the channel list.
    for (const extra of [{ date: DAY }, { date: DAY, search: 'Channel' }, {}]) {
      const seen: string[] = [];
      for (;;) {
        const items = list(await part.handlers.catalog!(request({ ...extra, skip: seen.length })));
        if (items.length === 0) break;
        expect(Buffer.byteLength(JSON.stringify(items)), JSON.stringify(extra)).toBeLessThanOrEqual(MAX);
        if ('date' in extra) expect(items.length).toBeLessThan(100);
        for (const item of items)
          if ('date' in extra && item.id !== 'mq-tv:ch249.test') expect(item.videos).toHaveLength(24);
        seen.push(...ids(items));
      }
      expect(seen.length, JSON.stringify(extra)).toBe(CHANNELS);
      expect(new Set(seen).size).toBe(CHANNELS);
    }
    // The bound must leave room for any one channel.
    expect(() => createLiveTvPart(temp.store, { maxAnswerBytes: 1_000 })).toThrow(/addon\.maxAnswerBytes must be/);
  });
});
