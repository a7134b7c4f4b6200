import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import type { Programme } from '../../sources/records.js';
import type { Store } from '../store.js';
import { at, channel, programme, useTempStore } from '../testing.js';
import { GUIDE_DAYS_SQL } from './read.js';
import type { ChannelInput, LiveTvImportOptions, ProgrammeRow } from './types.js';

const NOW = at('2030-01-10T12:00:00Z');

let store: Store;
useTempStore((opened) => {
  store = opened;
});

async function load(
  channels: readonly ChannelInput[],
  sources: ReadonlyArray<readonly [priority: number, programmes: readonly Programme[]]> = [],
  options: LiveTvImportOptions = {},
) {
  const imp = await store.beginLiveTvImport({ now: NOW, ...options });
  for (const c of channels) imp.addChannel(c);
  for (const [priority, list] of sources) imp.addProgrammes(list, priority);
  return imp.commit({ warnings: 2 });
}

const titles = (list: readonly ProgrammeRow[]) => list.map((p) => p.video.title);

describe('guide day window', () => {
  it('puts a programme crossing midnight in both days and one ending at 00:00 only in the earlier', async () => {
    await load(
      [channel(1)],
      [
        [
          0,
          [
            programme('g1', '2030-01-10T00:00:00Z', '2030-01-10T22:00:00Z', 'day long'),
            programme('g1', '2030-01-10T22:00:00Z', '2030-01-10T23:00:00Z', 'late'),
            programme('g1', '2030-01-10T23:00:00Z', '2030-01-10T23:30:00Z', 'ends 23:30'),
            programme('g1', '2030-01-10T23:30:00Z', '2030-01-11T00:30:00Z', 'crosses'),
            programme('g1', '2030-01-11T00:30:00Z', '2030-01-11T01:00:00Z', 'next night'),
          ],
        ],
        [0, [programme('g1', '2030-01-09T23:00:00Z', '2030-01-10T00:00:00Z', 'ends at midnight')]],
      ],
    );
    const day = (d: string) => titles(store.guideDay({ day: d, offset: 0, limit: 10 })[0]!.programmes);
    expect(day('2030-01-09')).toEqual(['ends at midnight']);
    expect(day('2030-01-10')).toEqual(['day long', 'late', 'ends 23:30', 'crosses']);
    expect(day('2030-01-11')).toEqual(['crosses', 'next night']);
    expect(day('2030-01-12')).toEqual([]);
  });

  it('applies the millisecond bounds: stop > D 00:00:00.000 and start < D 23:59:59.999', async () => {
    const d1 = at('2030-01-11T00:00:00Z');
    await load(
      [channel(1)],
      [
        [
          0,
          [
            programme('g1', at('2030-01-10T23:00:00Z'), d1 - 1, 'stops 23:59:59.999'),
            programme('g1', d1 - 1, d1 + 3_600_000, 'starts 23:59:59.999'),
          ],
        ],
      ],
    );
    const day = (d: string) => titles(store.guideDay({ day: d })[0]!.programmes);
    expect(day('2030-01-10')).toEqual(['stops 23:59:59.999']);
    expect(day('2030-01-11')).toEqual(['starts 23:59:59.999']);
  });

  it('finds a programme that started long before the day through the stored longest duration', async () => {
    await load(
      [channel(1), channel(2)],
      [
        [
          0,
          [
            programme('g1', '2030-01-09T06:00:00Z', '2030-01-11T06:00:00Z', '48 hours'),
            programme('g2', '2030-01-10T10:00:00Z', '2030-01-10T11:00:00Z', 'short'),
          ],
        ],
      ],
    );
    const page = store.guideDay({ day: '2030-01-11' });
    expect(page.map((c) => titles(c.programmes))).toEqual([['48 hours'], []]);
  });

  it('reads a guide day page with one index search per guide channel', () => {
    const plan = store.context.db
      .prepare(`EXPLAIN QUERY PLAN ${GUIDE_DAYS_SQL}`)
      .all({ day: 0, keys: '[1,2]' }) as Array<{ detail: string }>;
    const details = plan.map((p) => p.detail).join('\n');
    expect(details).toMatch(/SEARCH guide_days USING INDEX sqlite_autoindex_guide_days_1 \(key_id=\? AND day=\?\)/);
    expect(details).not.toMatch(/SCAN guide_days/);
  });

  it('refuses a day that is not a real YYYY-MM-DD', () => {
    for (const day of ['2030-02-30', '2030-1-1', 'today', '2030-01-01T00:00Z']) {
      expect(() => store.guideDay({ day })).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    }
  });
});

describe('channel catalog', () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      // Sort keys descend in blocks and repeat, so order = (sort, insertion), not insertion alone.
      channel(i + 1, { sort: Math.floor((n - i) / 3), group: i % 2 === 0 ? 'Even' : 'Odd' }),
    );

  it('pages 250 channels in a stable order with any skip, empty past the end', async () => {
    const input = many(250);
    await load(input);
    const expected = input
      .map((c, i) => ({ c, i }))
      .sort((a, b) => a.c.sort - b.c.sort || a.i - b.i)
      .map(({ c }) => c.id);
    const pages = [0, 100, 200, 300].map((offset) => store.listChannels({ offset, limit: 100 }).map((c) => c.id));
    expect(pages.map((p) => p.length)).toEqual([100, 100, 50, 0]);
    expect(pages.flat()).toEqual(expected);
    for (const skip of [1, 37, 99, 101, 249, 250]) {
      expect(store.listChannels({ offset: skip, limit: 100 }).map((c) => c.id)).toEqual(
        expected.slice(skip, skip + 100),
      );
    }
    expect(store.countChannels()).toBe(250);
    const days = [0, 100, 200, 250].map((offset) =>
      store.guideDay({ day: '2030-01-10', offset, limit: 100 }).map((g) => g.channel.id),
    );
    expect(days.flat()).toEqual(expected);
    expect(days[3]).toEqual([]);
  });

  it('filters by group, lists groups in order of their first channel, and bounds the page size', async () => {
    await load(many(250));
    // The smallest sort (0) is shared by channels 249 (Even) and 250 (Odd): insertion breaks the tie.
    expect(store.groups()).toEqual([
      { name: 'Even', channels: 125 },
      { name: 'Odd', channels: 125 },
    ]);
    const firstSeen = [...new Set(store.listChannels({ limit: 1000 }).map((c) => c.group))];
    expect(store.groups().map((g) => g.name)).toEqual(firstSeen);
    const odd = store.listChannels({ group: 'Odd', limit: 1000 });
    expect(odd).toHaveLength(125);
    expect(odd.every((c) => c.group === 'Odd')).toBe(true);
    expect(store.listChannels({ group: 'Odd', offset: 120, limit: 100 }).map((c) => c.id)).toEqual(
      odd.slice(120).map((c) => c.id),
    );
    expect(store.countChannels({ group: 'Even' })).toBe(125);
    expect(store.listChannels({ group: 'None' })).toEqual([]);
    expect(store.listChannels({ limit: 5_000 })).toHaveLength(250);
    expect(store.listChannels({ offset: -5, limit: 2 }).map((c) => c.id)).toEqual(
      store.listChannels({ limit: 2 }).map((c) => c.id),
    );
    const evenDay = store.guideDay({ day: '2030-01-10', group: 'Even', offset: 100 });
    expect(evenDay.map((g) => g.channel.id)).toEqual(
      store.listChannels({ group: 'Even', offset: 100 }).map((c) => c.id),
    );
  });

  it('searches names ignoring case and accents, alone or within a group', async () => {
    await load([
      channel(1, { name: 'Télé Étoile HD', group: 'FR' }),
      channel(2, { name: 'ETOILE kids', group: 'Kids' }),
      channel(3, { name: 'Straße TV', group: 'DE' }),
      channel(4, { name: 'News 24', group: 'FR' }),
    ]);
    const names = (search: string, group?: string) =>
      store.listChannels(group === undefined ? { search } : { search, group }).map((c) => c.name);
    expect(names('etoile')).toEqual(['Télé Étoile HD', 'ETOILE kids']);
    expect(names('TÉLÉ é')).toEqual(['Télé Étoile HD']);
    expect(names('strasse')).toEqual(['Straße TV']);
    expect(names('etoile', 'Kids')).toEqual(['ETOILE kids']);
    expect(names('nothing like it')).toEqual([]);
    expect(names('  ')).toHaveLength(4);
    expect(store.countChannels({ search: 'etoile' })).toBe(2);
  });

  it('returns a channel with its streams and properties as given', async () => {
    await load([
      channel(1, {
        logo: 'http://127.0.0.1/l.png',
        number: 7,
        group: 'News',
        catchup: { catchup: 'shift', 'catchup-days': '3' },
        source: 'list.m3u',
        streams: [
          { url: 'http://127.0.0.1/a', name: 'HD', userAgent: 'UA/1', referrer: 'http://127.0.0.1/' },
          { url: 'http://127.0.0.1/b', kodiProps: { 'inputstream.adaptive.manifest_type': 'hls' } },
        ],
      }),
    ]);
    expect(store.getChannel('mq-tv:c1')).toEqual({
      id: 'mq-tv:c1',
      name: 'Channel 1',
      logo: 'http://127.0.0.1/l.png',
      group: 'News',
      number: 7,
      sort: 1,
      guideKey: 'g1',
      catchup: { catchup: 'shift', 'catchup-days': '3' },
      source: 'list.m3u',
    });
    expect(store.getStreams('mq-tv:c1')).toEqual([
      { url: 'http://127.0.0.1/a', name: 'HD', userAgent: 'UA/1', referrer: 'http://127.0.0.1/' },
      { url: 'http://127.0.0.1/b', kodiProps: { 'inputstream.adaptive.manifest_type': 'hls' } },
    ]);
    expect(store.getChannel('mq-tv:nope')).toBeUndefined();
    expect(store.getStreams('mq-tv:nope')).toEqual([]);
  });
});

describe('channels keyed after the guides', () => {
  it('gives a channel added without a guide key the programmes of the key set later, once', async () => {
    const imp = await store.beginLiveTvImport({ now: NOW });
    const { guideKey: _g1, ...one } = channel(1);
    const { guideKey: _g2, ...two } = channel(2);
    imp.addChannel(one);
    imp.addChannel(two); // stays without a guide
    imp.addProgrammes([programme('g1', '2030-01-10T20:00:00Z', '2030-01-10T21:00:00Z', 'late news')]);
    imp.addProgrammes([programme('g9', '2030-01-10T20:00:00Z', '2030-01-10T21:00:00Z', 'nobody watches')]);
    imp.setGuideKey('mq-tv:c1', 'g1');
    const report = imp.commit();
    expect(report.counts).toMatchObject({ channels: 2, matchedChannels: 1, unmatchedChannels: 1, programmes: 1 });
    expect(report.dropped.unusedGuide).toBe(1);
    expect(store.getChannel('mq-tv:c1')?.guideKey).toBe('g1');
    expect(store.guideDay({ day: '2030-01-10' }).map((c) => [c.channel.id, titles(c.programmes)])).toEqual([
      ['mq-tv:c1', ['late news']],
      ['mq-tv:c2', []],
    ]);
  });

  it('refuses a key for a channel never added or already keyed, or after sealing, failing the import', async () => {
    const first = await store.beginLiveTvImport({ now: NOW });
    first.addChannel(channel(1));
    expect(() => first.setGuideKey('mq-tv:nope', 'g1')).toThrow(/no channel "mq-tv:nope" was added/);
    expect(first.finished).toBe(true);
    const second = await store.beginLiveTvImport({ now: NOW });
    second.addChannel(channel(1)); // keyed g1 when added
    expect(() => second.setGuideKey('mq-tv:c1', 'g2')).toThrow(/already has a guide key/);
    expect(second.finished).toBe(true);
    const third = await store.beginLiveTvImport({ now: NOW });
    const { guideKey: _g, ...unkeyed } = channel(1);
    third.addChannel(unkeyed);
    third.sealChannels(); // programmes of keys no channel shows are dropped from here on
    expect(() => third.setGuideKey('mq-tv:c1', 'g1')).toThrow(/setGuideKey after sealChannels/);
    expect(third.finished).toBe(true);
    expect(store.counts().channels).toBe(0); // nothing was ever committed
  });
});

describe('programmes', () => {
  it('keeps every field, choosing the preferred language', async () => {
    await load(
      [channel(1)],
      [
        [
          0,
          [
            programme('g1', '2030-01-10T20:00:00Z', '2030-01-10T21:00:00Z', 'ignored', {
              titles: [
                { text: 'Title', lang: 'en' },
                { text: 'Titel', lang: 'de' },
              ],
              subTitles: [{ text: 'Sub', lang: 'en' }],
              descriptions: [
                { text: 'Beschreibung', lang: 'de-AT' },
                { text: 'Description', lang: 'en' },
              ],
              categories: [{ text: 'News', lang: 'en' }, { text: 'Nachrichten', lang: 'de' }, { text: 'Talk' }],
              season: 2,
              episode: 5,
              episodeOnScreen: 'S02E05',
              date: '2019',
              icon: 'http://127.0.0.1/p.jpg',
              ratings: [{ system: 'FSK', value: '12' }],
              starRating: '7/10',
              directors: ['D'],
              actors: ['A', 'B'],
              previouslyShown: true,
            }),
          ],
        ],
      ],
      { languages: ['de'] },
    );
    expect(store.programmesAround('mq-tv:c1', NOW, NOW + 86_400_000)).toEqual([
      {
        start: at('2030-01-10T20:00:00Z'),
        stop: at('2030-01-10T21:00:00Z'),
        video: {
          title: 'Titel — Sub',
          overview: 'Beschreibung',
          thumbnail: 'http://127.0.0.1/p.jpg',
          releaseInfo: '2019',
          season: 2,
          episode: 5,
          genres: ['Nachrichten', 'Talk'],
          cast: ['A', 'B'],
          directors: ['D'],
          ratings: [
            { system: 'FSK', value: '12' },
            { system: 'stars', value: '7/10' },
          ],
        },
      },
    ]);
  });

  it('gives the programmes around a time, sharing one guide between channels', async () => {
    const list = [0, 1, 2, 3, 4, 5].map((h) =>
      programme('shared', NOW + (h - 3) * 3_600_000, NOW + (h - 2) * 3_600_000, `h${h}`),
    );
    await load([channel(1, { guideKey: 'shared' }), channel(2, { guideKey: 'shared' }), channel(3)], [[0, list]]);
    const around = (id: string) => titles(store.programmesAround(id, NOW - 3_600_000, NOW + 3_600_000));
    expect(around('mq-tv:c1')).toEqual(['h2', 'h3']);
    expect(around('mq-tv:c2')).toEqual(['h2', 'h3']);
    expect(around('mq-tv:c3')).toEqual([]);
    expect(around('mq-tv:unknown')).toEqual([]);
    expect(store.counts()).toMatchObject({ channels: 3, matchedChannels: 2, unmatchedChannels: 1, programmes: 6 });
  });

  it('merges sources by priority: overlaps of a better source are dropped, equal starts keep the best', async () => {
    const report = await load(
      [channel(1)],
      [
        // The worse source is added first: priority decides, not order.
        [
          1,
          [
            programme('g1', '2030-01-10T18:00:00Z', '2030-01-10T19:00:00Z', 'B fills a gap'),
            programme('g1', '2030-01-10T19:00:00Z', '2030-01-10T20:00:00Z', 'B same start'),
            programme('g1', '2030-01-10T20:30:00Z', '2030-01-10T21:30:00Z', 'B overlaps'),
            programme('g1', '2030-01-10T21:30:00Z', '2030-01-10T22:00:00Z', 'B after'),
          ],
        ],
        [
          0,
          [
            programme('g1', '2030-01-10T19:00:00Z', '2030-01-10T20:00:00Z', 'A same start'),
            programme('g1', '2030-01-10T20:00:00Z', '2030-01-10T21:00:00Z', 'A'),
            programme('g1', '2030-01-10T20:00:00Z', '2030-01-10T21:00:00Z', 'A repeated'),
          ],
        ],
      ],
    );
    expect(titles(store.guideDay({ day: '2030-01-10' })[0]!.programmes)).toEqual([
      'B fills a gap',
      'A same start',
      'A',
      'B after',
    ]);
    expect(report.dropped).toMatchObject({ overlapped: 1, duplicate: 2 });
    expect(report.counts.programmes).toBe(4);
  });

  it('keeps the first of equal starts from one source even when the guide is out of order', async () => {
    const report = await load(
      [channel(1), channel(2)],
      [
        [
          0,
          [
            programme('g1', '2030-01-10T21:00:00Z', '2030-01-10T22:00:00Z', 'nine'),
            programme('g2', '2030-01-10T20:00:00Z', '2030-01-10T21:00:00Z', 'other channel'),
            programme('g1', '2030-01-10T20:00:00Z', '2030-01-10T21:00:00Z', 'eight'),
            programme('g1', '2030-01-10T21:00:00Z', '2030-01-10T21:30:00Z', 'nine again'),
          ],
        ],
      ],
    );
    expect(store.guideDay({ day: '2030-01-10' }).map((c) => titles(c.programmes))).toEqual([
      ['eight', 'nine'],
      ['other channel'],
    ]);
    expect(report.dropped.duplicate).toBe(1);
  });

  it('stores a batch written in groups of rows in order: all rows, the first of equal starts kept', async () => {
    // 41 programmes in one call: two full groups of 16 and 9 rows one by one; the repeat of the
    // 5th programme comes at place 20, in the second group, and must lose to it.
    const half = 30 * 60_000;
    const base = Date.parse('2030-01-10T01:00:00Z');
    const batch = Array.from({ length: 40 }, (_, i) =>
      programme('g1', new Date(base + i * half).toISOString(), new Date(base + (i + 1) * half).toISOString(), `P${i}`),
    );
    batch.splice(
      19,
      0,
      programme('g1', new Date(base + 4 * half).toISOString(), new Date(base + 5 * half).toISOString(), 'P4 again'),
    );
    const report = await load([channel(1)], [[0, batch]]);
    expect(report.dropped.duplicate).toBe(1);
    expect(report.counts.programmes).toBe(40);
    const day = titles(store.guideDay({ day: '2030-01-10' })[0]!.programmes);
    expect(day).toEqual(Array.from({ length: 40 }, (_, i) => `P${i}`));
  });

  it('prunes past the retention window and beyond the horizon, and drops unused or implausible programmes', async () => {
    const h = 3_600_000;
    const report = await load(
      [channel(1)],
      [
        [
          0,
          [
            programme('g1', NOW - 49 * h, NOW - 48 * h - 1, 'ended before retention'),
            programme('g1', NOW - 49 * h, NOW - 47 * h, 'ends inside retention'),
            programme('g1', NOW + 14 * 24 * h - 1, NOW + 14 * 24 * h + h, 'starts before horizon'),
            programme('g1', NOW + 14 * 24 * h, NOW + 14 * 24 * h + h, 'starts at horizon'),
            programme('g1', NOW, NOW + 80 * h, 'too long'),
            programme('g1', NOW + h, NOW + h, 'empty'),
            programme('g9', NOW, NOW + h, 'no channel shows g9'),
          ],
        ],
      ],
    );
    expect(titles(store.programmesAround('mq-tv:c1', NOW - 1000 * h, NOW + 1000 * h))).toEqual([
      'ends inside retention',
      'starts before horizon',
    ]);
    expect(report.dropped).toEqual({
      past: 1,
      beyondHorizon: 1,
      invalid: 1,
      tooLong: 1,
      overlapped: 0,
      duplicate: 0,
      unusedGuide: 1,
      overDayCap: 0,
    });
    expect(report.counts).toMatchObject({ programmes: 2, guideChannels: 2 });
    expect(store.getGuideChannel('g9')).toEqual({ key: 'g9', displayNames: [] });
  });

  it('keeps the earliest maxProgrammesPerDay programmes of a guide channel per day of their start, counting the rest', async () => {
    const minute = 60_000;
    const day = Date.parse('2030-01-11T00:00:00Z');
    // 30 one-minute programmes on the 11th and 3 on the 12th, in order.
    const dense = [
      ...Array.from({ length: 30 }, (_, i) =>
        programme(
          'g1',
          new Date(day + i * minute).toISOString(),
          new Date(day + (i + 1) * minute).toISOString(),
          `P${i}`,
        ),
      ),
      ...[0, 1, 2].map((i) =>
        programme(
          'g1',
          new Date(day + 86_400_000 + i * minute).toISOString(),
          new Date(day + 86_400_000 + (i + 1) * minute).toISOString(),
          `Q${i}`,
        ),
      ),
    ];
    const report = await load([channel(1)], [[0, dense]], { maxProgrammesPerDay: 10 });
    expect(titles(store.guideDay({ day: '2030-01-11' })[0]!.programmes)).toEqual(
      Array.from({ length: 10 }, (_, i) => `P${i}`),
    );
    expect(titles(store.guideDay({ day: '2030-01-12' })[0]!.programmes)).toEqual(['Q0', 'Q1', 'Q2']);
    expect(report.counts.programmes).toBe(13);
    expect(report.dropped).toMatchObject({ overDayCap: 20, duplicate: 0 });
    expect(report.overDayCap).toEqual({ key: 'g1', day: '2030-01-11', programmes: 30, kept: 10, days: 1 });

    // Out of order, and merged from two sources: the cap applies once the merge rules have run,
    // to the earliest-starting programmes of the day.
    const reversed = [...dense.slice(0, 30)].reverse();
    const merged = await load(
      [channel(1)],
      [
        [1, reversed],
        [
          0,
          [
            programme(
              'g1',
              new Date(day + 40 * minute).toISOString(),
              new Date(day + 41 * minute).toISOString(),
              'Best',
            ),
          ],
        ],
      ],
      { maxProgrammesPerDay: 10 },
    );
    expect(titles(store.guideDay({ day: '2030-01-11' })[0]!.programmes)).toEqual(
      Array.from({ length: 10 }, (_, i) => `P${i}`),
    );
    expect(merged.dropped).toMatchObject({ overDayCap: 21, duplicate: 0, overlapped: 0 });
    expect(merged.overDayCap).toMatchObject({ key: 'g1', day: '2030-01-11', programmes: 31, kept: 10 });
  });

  it('skips programmes of guides no channel shows once channels are sealed', async () => {
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(1));
    imp.addGuideChannel({ id: 'g1', displayNames: [{ text: 'One', lang: 'en' }], icon: 'http://127.0.0.1/1.png' }, 1);
    imp.addGuideChannel({ id: 'g1', displayNames: [{ text: 'Uno' }] }, 0);
    imp.addGuideChannel({ id: 'g1', displayNames: [{ text: 'Later, worse' }] }, 3);
    imp.sealChannels();
    expect(() => imp.addChannel(channel(2))).toThrow(/after sealChannels/);
    expect(imp.finished).toBe(true);

    const again = await store.beginLiveTvImport({ now: NOW });
    again.addChannel(channel(1));
    again.addGuideChannel({ id: 'g1', displayNames: [{ text: 'Uno' }] }, 0);
    again.sealChannels();
    expect(again.addProgrammes([programme('g1', NOW, NOW + 1), programme('g2', NOW, NOW + 1)])).toBe(1);
    const report = again.commit();
    expect(report.dropped.unusedGuide).toBe(1);
    expect(store.getGuideChannel('g1')).toEqual({ key: 'g1', displayNames: [{ text: 'Uno' }] });
    expect(store.getGuideChannel('g2')).toBeUndefined();
  });

  it('reports programmes, counts, history and a new data version per committed import', async () => {
    expect(store.hasProgrammes()).toBe(false);
    expect(store.dataVersion()).toBe(0);
    expect(store.lastImport()).toBeUndefined();
    await load([channel(1, { group: 'G' }), channel(2)]);
    expect(store.hasProgrammes()).toBe(false);
    const v1 = store.dataVersion();
    expect(v1).toBeGreaterThan(0);
    const report = await load([channel(1)], [[0, [programme('g1', NOW, NOW + 60_000)]]]);
    expect(store.hasProgrammes()).toBe(true);
    expect(store.dataVersion()).toBeGreaterThan(v1);
    expect(store.counts()).toEqual({
      channels: 1,
      streams: 1,
      guideChannels: 1,
      programmes: 1,
      matchedChannels: 1,
      unmatchedChannels: 0,
      groups: 0,
    });
    expect(store.lastImport()).toMatchObject({ status: 'ok', kind: 'livetv', report });
    expect(report.warnings).toBe(2);
    expect(store.importHistory(5).map((r) => r.status)).toEqual(['ok', 'ok']);
  });

  it('turns a use after close into STORE_UNAVAILABLE naming the file', () => {
    store.close();
    try {
      store.listChannels();
      expect.unreachable();
    } catch (error) {
      expect(isMarqueeError(error, 'STORE_UNAVAILABLE')).toBe(true);
      expect((error as Error).message).toContain(store.file);
    }
  });
});
