import { beforeEach, describe, expect, it } from 'vitest';
import { parseRawJsonList } from '../addon/index.js';
import { type Video, validateResponse } from '../protocol/index.js';
import type { ChannelRow, Store } from '../store/index.js';
import { at, channel, programme, useTempStore } from '../store/testing.js';
import { type CatchupStreams, createCatchupStreams } from './catchup-streams.js';
import { CHANNEL_HEAD, createGuidePageWriter } from './guide-json.js';
import { channelHeadJson, channelMeta } from './metas.js';
import { placeholderVideos, programmeVideo, resolvePlaceholders } from './videos.js';

const NOW = at('2030-01-10T12:00:00Z');
const XC = {
  url: 'http://xc.example/live/u/p/4.ts',
  attributes: { catchup: 'xc', 'catchup-days': '7' },
  archiveMs: 7 * 86_400_000,
};
const DAY = '2030-01-10';
const FROM = at('2030-01-10T00:00:00Z');
const TO = at('2030-01-10T23:59:59.999Z');

let store: Store;
useTempStore((opened) => {
  store = opened;
});
beforeEach(async () => {
  const imp = await store.beginLiveTvImport({ now: NOW });
  imp.addChannel(channel(1, { name: 'Ünï "One" <b>', logo: 'https://img.example/1.png', group: 'News', number: 7 }));
  imp.addChannel(channel(2, { guideKey: 'g1', name: 'One again' })); // shares channel 1's guide
  imp.addChannel(channel(3)); // no programmes that day
  // Catch-up: its past programmes carry streams when the writer is given a catch-up renderer.
  imp.addChannel(
    channel(4, {
      catchupStreams: [
        XC,
        { ...XC, url: 'http://fs.example/c4/mono.m3u8', attributes: { catchup: 'fs' }, source: 'fs.example' },
      ],
    }),
  );
  imp.addProgrammes([
    programme('g1', '2030-01-09T23:30:00Z', '2030-01-10T00:30:00Z', 'Crosses midnight'),
    programme('g1', '2030-01-10T00:30:00Z', '2030-01-10T01:15:30Z', 'Full', {
      subTitles: [{ text: 'Épisode "5" \\ </script>' }],
      descriptions: [{ text: 'Line one\nline two\ttab \u2028 ✓ 日本語 🎬' }],
      categories: [{ text: 'News' }, { text: 'Talk' }],
      season: 2,
      episode: 5,
      date: '20190312',
      icon: 'https://img.example/p.jpg',
      ratings: [{ system: 'FSK', value: '12' }, { value: 'PG' }],
      starRating: '7/10',
      directors: ['D'],
      actors: ['A', 'B'],
    }),
    programme('g1', '2030-01-10T01:15:30Z', '2030-01-10T02:00:00Z', '', { subTitles: [{ text: 'Only a sub-title' }] }),
    programme('g1', '2030-01-10T02:00:00Z', '2030-01-10T03:00:00Z', '', { icon: 'relative/p.jpg' }),
    programme('g1', '2030-01-10T23:00:00Z', '2030-01-11T01:00:00Z', 'Into tomorrow'),
    // Out of order: written after later programmes of the same guide.
    programme('g4', '2030-01-10T10:00:00Z', '2030-01-10T11:00:00Z', 'Ten'),
    programme('g4', '2030-01-10T08:00:00Z', '2030-01-10T09:00:00Z', 'Eight'),
    // Times that are not whole seconds (a fractional tvg-shift) take the writer's slower path.
    programme('g4', '2030-01-10T12:00:00.250Z', '2030-01-10T12:29:59.750Z', 'Odd times'),
  ]);
  imp.commit();
});

function objectPage(placeholders: ReturnType<typeof resolvePlaceholders>, catchup?: CatchupStreams, now = NOW) {
  return store.guideDay({ day: DAY }).map(({ channel: c, programmes }) =>
    channelMeta(
      c,
      programmes.length > 0
        ? programmes.map((p) => {
            const streams = catchup?.of(c, p.start, p.stop, now) ?? [];
            return streams.length > 0 ? { ...programmeVideo(c, p), streams } : programmeVideo(c, p);
          })
        : placeholders.enabled
          ? placeholderVideos(c, FROM, TO, placeholders)
          : [],
    ),
  );
}

describe('guide page from raw entries', () => {
  it.each([
    ['without placeholders', resolvePlaceholders(undefined)],
    ['with placeholders', resolvePlaceholders({ enabled: true, blockMinutes: 120 })],
  ])('equals the object page and passes the protocol checks, %s', (_name, placeholders) => {
    const raw = createGuidePageWriter(placeholders).write(store.guideDayRaw({ day: DAY }), FROM, TO);
    const items = parseRawJsonList(raw);
    expect(raw.count).toBe(4);
    expect(items).toEqual(objectPage(placeholders));
    const issues = validateResponse(
      { resource: 'catalog', type: 'tv', id: 'mq-tv-channels', extra: [['date', DAY]] },
      { metasDetailed: items },
    );
    expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('ends a page before the channel past maxBytes, and cuts a first channel too large alone to its earliest programmes', () => {
    const placeholders = resolvePlaceholders(undefined);
    const catchup = createCatchupStreams('Marquee');
    const rows = store.guideDayRaw({ day: DAY });
    const whole = createGuidePageWriter(placeholders, catchup).write(rows, FROM, TO, undefined, NOW);
    const metas = parseRawJsonList(whole) as Array<{ id: string; videos: unknown[] }>;
    const sizes = metas.map((m) => Buffer.byteLength(JSON.stringify(m)));
    // Room for the first two channels and not the third: the page holds two, and ends there.
    const two = 2 + sizes[0]! + 1 + sizes[1]!;
    const page = createGuidePageWriter(placeholders, catchup, two + sizes[2]! - 1).write(
      rows,
      FROM,
      TO,
      undefined,
      NOW,
    );
    expect(page.count).toBe(2);
    expect(page.bytes.byteLength).toBeLessThanOrEqual(two + sizes[2]! - 1);
    expect(parseRawJsonList(page)).toEqual(metas.slice(0, 2));
    // Less than the first channel: its earliest programmes that fit, the page valid and within the bound.
    const bound = sizes[0]! - 300;
    const cut = createGuidePageWriter(placeholders, catchup, bound).write(rows, FROM, TO, undefined, NOW);
    const [first] = parseRawJsonList(cut) as Array<{ id: string; videos: unknown[] }>;
    expect(cut.count).toBe(1);
    expect(cut.bytes.byteLength).toBeLessThanOrEqual(bound);
    expect(first!.videos.length).toBeGreaterThan(0);
    expect(first!.videos.length).toBeLessThan(metas[0]!.videos.length);
    expect(first).toEqual({ ...metas[0], videos: metas[0]!.videos.slice(0, first!.videos.length) });
    const issues = validateResponse(
      { resource: 'catalog', type: 'tv', id: 'mq-tv-channels', extra: [['date', DAY]] },
      { metasDetailed: parseRawJsonList(cut) },
    );
    expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('reuses channel heads within one data version and renews them with the next', async () => {
    const writer = createGuidePageWriter(resolvePlaceholders(undefined));
    const page = () => {
      const version = store.dataVersion();
      return parseRawJsonList(writer.write(store.guideDayRaw({ day: DAY }), FROM, TO, version));
    };
    const first = page();
    expect(first).toEqual(objectPage(resolvePlaceholders(undefined)));
    expect(page()).toEqual(first);
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(1, { name: 'Renamed', group: 'Films' }));
    imp.commit();
    const renewed = page() as Array<{ name: string; genres?: string[] }>;
    expect(renewed.map((m) => [m.name, m.genres])).toEqual([['Renamed', ['Films']]]);
    expect(renewed).toEqual(objectPage(resolvePlaceholders(undefined)));
  });

  it('copies the heads the import stored, rendered from the channels as stored, in its format only', async () => {
    const imp = await store.beginLiveTvImport({ now: NOW, channelHead: CHANNEL_HEAD });
    // Longer than the store keeps: the head must show the clipped name the meta page shows.
    imp.addChannel(channel(1, { name: `Long ${'ü'.repeat(600)}`, logo: 'https://img.example/1.png', group: 'News' }));
    imp.addChannel(channel(2, { guideKey: 'g1', number: 12 }));
    imp.addChannel(channel(3));
    imp.addProgrammes([programme('g1', '2030-01-10T00:30:00Z', '2030-01-10T01:00:00Z', 'Half')]);
    imp.commit();
    const stored = store.guideDayRaw({ day: DAY, headFormat: CHANNEL_HEAD.format });
    expect(stored.map((row) => row.head === undefined)).toEqual([false, false, false]);
    for (const row of stored) expect(JSON.parse(`${row.head}[]}`)).toEqual(channelMeta(row.channel, []));
    const other = store.guideDayRaw({ day: DAY, headFormat: CHANNEL_HEAD.format + 1 });
    expect(other.map((row) => row.head)).toEqual([undefined, undefined, undefined]);

    const placeholders = resolvePlaceholders({ enabled: true, blockMinutes: 120 });
    const writer = createGuidePageWriter(placeholders);
    const version = store.dataVersion();
    const fromHeads = parseRawJsonList(writer.write(stored, FROM, TO, version));
    expect(fromHeads).toEqual(objectPage(placeholders));
    expect((fromHeads[0] as { name: string }).name).toHaveLength(500);
    expect(parseRawJsonList(writer.write(other, FROM, TO, version))).toEqual(fromHeads);
  });

  it.each<[string, Partial<ChannelRow>]>([
    ['only what every channel has', {}],
    ['every optional member', { logo: 'https://img.example/1.png', group: 'News', number: 7 }],
    ['texts that need escaping', { name: 'A "q" \\ </script> \u2028 \u0001 日本 🎬', group: 'Ünï\n' }],
    ['an inline logo and odd numbers', { logo: 'data:image/png;base64,AAAA', number: 0 }],
    ['a fractional number', { number: 7.5 }],
  ])('renders the head of channelMeta directly: %s', (_name, fields) => {
    const row: ChannelRow = { id: 'mq-tv:x "y"', name: 'X', sort: 1, ...fields };
    const head = channelHeadJson(row);
    expect(head.endsWith(',"videos":')).toBe(true);
    expect(JSON.parse(`${head}[{"id":"v"}]}`)).toEqual(channelMeta(row, [{ id: 'v' } as Video]));
  });

  it('refuses a head format that is not a positive integer, before taking the import lock', async () => {
    await expect(store.beginLiveTvImport({ channelHead: { format: 1.5, render: () => '' } })).rejects.toThrow(
      /channelHead.format must be a positive integer/,
    );
    const imp = await store.beginLiveTvImport({ now: NOW, lockTimeoutMs: 100 });
    imp.abort('only checking the lock is free');
  });

  it('adds the catch-up streams of programmes that started, as the object page does, ordered or not', () => {
    const catchup = createCatchupStreams('Marquee');
    for (const now of [NOW, at('2030-01-10T09:30:00Z'), at('2030-01-10T07:00:00Z'), at('2030-01-18T08:30:00Z')]) {
      const raw = createGuidePageWriter(resolvePlaceholders(undefined), catchup).write(
        store.guideDayRaw({ day: DAY }),
        FROM,
        TO,
        undefined,
        now,
      );
      expect(parseRawJsonList(raw)).toEqual(objectPage(resolvePlaceholders(undefined), catchup, now));
    }
    const four = (
      parseRawJsonList(
        createGuidePageWriter(resolvePlaceholders(undefined), catchup).write(
          store.guideDayRaw({ day: DAY }),
          FROM,
          TO,
          undefined,
          at('2030-01-10T09:30:00Z'),
        ),
      ) as Array<{ videos: Array<{ title: string; streams?: { name: string; url: string }[] }> }>
    )[3]!;
    // Eight has aired, Ten has not: it has no stream of its own.
    expect(four.videos.map((v) => [v.title, v.streams?.map((s) => [s.name, s.url])])).toEqual([
      [
        'Eight',
        [
          ['Marquee', 'http://xc.example/timeshift/u/p/60/2030-01-10:08-00/4.ts'],
          ['fs.example', 'http://fs.example/c4/mono-1894262400-3600.m3u8'],
        ],
      ],
      ['Ten', undefined],
      ['Odd times', undefined],
    ]);
  });

  it('writes each video with the channel id, the times, the fields and a title', () => {
    const items = parseRawJsonList(
      createGuidePageWriter(resolvePlaceholders(undefined)).write(store.guideDayRaw({ day: DAY }), FROM, TO),
    ) as Array<{ id: string; videos: Array<Record<string, unknown>> }>;
    const [one, again, three, four] = items;
    expect(one!.videos.map((v) => v.title)).toEqual([
      'Crosses midnight',
      'Full — Épisode "5" \\ </script>',
      'Only a sub-title',
      'Ünï "One" <b>',
      'Into tomorrow',
    ]);
    expect(one!.videos[1]).toEqual({
      id: 'mq-tv:c1:epg:2030-01-10T00:30:00.000Z',
      title: 'Full — Épisode "5" \\ </script>',
      released: '2030-01-10T00:30:00.000Z',
      startTime: '2030-01-10T00:30:00.000Z',
      endTime: '2030-01-10T01:15:30.000Z',
      runtime: '46 min',
      overview: 'Line one\nline two\ttab \u2028 ✓ 日本語 🎬',
      thumbnail: 'https://img.example/p.jpg',
      releaseInfo: '2019',
      season: 2,
      episode: 5,
      genres: ['News', 'Talk'],
      cast: ['A', 'B'],
      directors: ['D'],
      ratings: [{ system: 'FSK', value: '12' }, { value: 'PG' }, { system: 'stars', value: '7/10' }],
    });
    expect(one!.videos[3]).not.toHaveProperty('thumbnail'); // a relative icon is not served
    expect(again!.videos.map((v) => v.id)).toEqual(one!.videos.map((v) => String(v.id).replace('c1:', 'c2:')));
    expect(again!.videos[3]!.title).toBe('One again');
    expect(three!.videos).toEqual([]);
    expect(four!.videos.map((v) => v.title)).toEqual(['Eight', 'Ten', 'Odd times']);
    expect(four!.videos[2]).toMatchObject({
      id: 'mq-tv:c4:epg:2030-01-10T12:00:00.250Z',
      startTime: '2030-01-10T12:00:00.250Z',
      endTime: '2030-01-10T12:29:59.750Z',
      runtime: '30 min',
    });
  });

  it('writes pages whose texts outgrow the staging buffer, and the pages after them', async () => {
    const imp = await store.beginLiveTvImport({ now: NOW, channelHead: CHANNEL_HEAD });
    for (let n = 1; n <= 3; n++) imp.addChannel(channel(n, { name: `Ünï ${n}` }));
    const hours = Array.from({ length: 8 }, (_, h) => h);
    // 3 channels × 8 programmes × 20,000 characters of two-byte text: about 1.4 MB of UTF-8.
    imp.addProgrammes(
      [1, 2, 3].flatMap((n) =>
        hours.map((h) =>
          programme(`g${n}`, FROM + h * 3_600_000, FROM + (h + 1) * 3_600_000, `P${h}`, {
            descriptions: [{ text: `${n}${h}${'ü'.repeat(19_998)}` }],
          }),
        ),
      ),
    );
    imp.commit();
    const placeholders = resolvePlaceholders(undefined);
    const writer = createGuidePageWriter(placeholders);
    const rows = () => store.guideDayRaw({ day: DAY, headFormat: CHANNEL_HEAD.format });
    for (let round = 0; round < 2; round++) {
      expect(parseRawJsonList(writer.write(rows(), FROM, TO))).toEqual(objectPage(placeholders));
    }
  });

  it('writes an empty page as an empty list', () => {
    const raw = createGuidePageWriter(resolvePlaceholders(undefined)).write(
      store.guideDayRaw({ day: DAY, offset: 10 }),
      FROM,
      TO,
    );
    expect(Buffer.from(raw.bytes).toString()).toBe('[]');
    expect(raw.count).toBe(0);
  });
});
