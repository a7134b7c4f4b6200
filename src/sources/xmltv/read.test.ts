import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GuideChannel, Programme, SourceWarning } from '../records.js';
import { readXmltv } from './read.js';

const fixture = (name: string) => new URL(`../../../test/fixtures/xmltv/${name}`, import.meta.url);

async function read(name: string, options: { shiftHours?: number; defaultOffsetMinutes?: number } = {}) {
  const channels: GuideChannel[] = [];
  const programmes: Programme[] = [];
  const warnings: SourceWarning[] = [];
  for await (const batch of readXmltv(createReadStream(fixture(name)), { source: name, ...options })) {
    channels.push(...batch.channels);
    programmes.push(...batch.programmes);
    warnings.push(...batch.warnings);
  }
  return { channels, programmes, warnings };
}

const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);

describe('readXmltv on a well-formed guide', async () => {
  const guide = await read('well-formed.xml');

  it('gives no warning', () => {
    expect(guide.warnings).toEqual([]);
  });

  it('reads channels: id, every display-name with its lang, icon, url', () => {
    expect(guide.channels).toEqual([
      {
        id: 'bbc1.uk',
        displayNames: [
          { text: 'BBC One', lang: 'en' },
          { text: 'BBC Un', lang: 'cy' },
          { text: '101', lang: undefined },
        ],
        icon: 'http://logo.example/bbc1.png',
        url: 'http://www.bbc.co.uk/bbcone',
      },
      {
        id: 'arte.fr',
        displayNames: [
          { text: 'Arte', lang: 'fr' },
          { text: 'Arte Deutsch', lang: 'de' },
        ],
        icon: undefined,
        url: undefined,
      },
    ]);
  });

  it('reads every mapped programme element', () => {
    expect(guide.programmes[0]).toEqual({
      channelId: 'bbc1.uk',
      start: utc(2024, 3, 1, 20, 30),
      stop: utc(2024, 3, 1, 21, 30),
      titles: [
        { text: 'Doctor Who', lang: 'en' },
        { text: 'Doctor Pwy', lang: 'cy' },
      ],
      subTitles: [{ text: 'The Church on Ruby Road', lang: 'en' }],
      descriptions: [
        { text: 'The Doctor meets Ruby Sunday.', lang: 'en' },
        { text: "Mae'r Doctor yn cwrdd â Ruby Sunday.", lang: 'cy' },
      ],
      categories: [
        { text: 'Drama', lang: 'en' },
        { text: 'Science fiction', lang: 'en' },
      ],
      season: 14,
      episode: 1,
      episodeOnScreen: 'S14E01',
      date: '2023',
      icon: 'http://img.example/who.jpg',
      ratings: [{ system: 'BBFC', value: '12' }, { value: 'TV-PG' }],
      starRating: '4/5',
      directors: ['Mark Tonderai'],
      actors: ['Ncuti Gatwa', 'Millie Gibson'],
      previouslyShown: true,
      isNew: false,
      line: 15,
    });
  });

  it('defaults absent parts to empty lists and false flags, and keeps line numbers', () => {
    const [, news, arte] = guide.programmes;
    expect(news).toMatchObject({
      titles: [{ text: 'BBC News at Ten' }],
      subTitles: [],
      descriptions: [],
      ratings: [],
      actors: [],
      isNew: true,
      previouslyShown: false,
      season: undefined,
      line: 49,
    });
    // An episode-num without system is onscreen (the DTD default): kept as written, no numbers in it.
    expect(arte).toMatchObject({
      start: utc(2024, 3, 1, 19),
      stop: utc(2024, 3, 1, 20, 20),
      episodeOnScreen: 'Folge 12',
      season: undefined,
      episode: undefined,
      line: 53,
    });
  });
});

describe('readXmltv times', () => {
  it('keeps a schedule continuous across midnight and a DST change (+0100 then +0200)', async () => {
    const { programmes, warnings } = await read('midnight-dst.xml');
    expect(warnings).toEqual([]);
    expect(programmes.map((p) => [p.start, p.stop])).toEqual([
      [utc(2024, 3, 30, 22), utc(2024, 3, 30, 23, 30)],
      [utc(2024, 3, 30, 23, 30), utc(2024, 3, 31, 0, 30)],
      [utc(2024, 3, 31, 0, 30), utc(2024, 3, 31, 1, 30)],
      [utc(2024, 3, 31, 1, 30), utc(2024, 3, 31, 3)],
    ]);
  });

  it('applies the operator shift to start and stop', async () => {
    const { programmes } = await read('midnight-dst.xml', { shiftHours: -0.5 });
    expect(programmes[0]).toMatchObject({ start: utc(2024, 3, 30, 21, 30), stop: utc(2024, 3, 30, 23) });
  });

  it('ends a programme without stop at the next start on its channel, else skips it with a warning', async () => {
    const { programmes, warnings } = await read('no-stop.xml');
    expect(programmes.map((p) => [p.channelId, p.titles[0]?.text, p.start, p.stop])).toEqual([
      ['one', 'Breakfast', utc(2024, 3, 1, 6), utc(2024, 3, 1, 9)],
      ['one', 'Morning Live', utc(2024, 3, 1, 9), utc(2024, 3, 1, 10)],
      ['one', 'Backwards', utc(2024, 3, 1, 10), utc(2024, 3, 1, 11)],
      ['one', 'Midday', utc(2024, 3, 1, 11), utc(2024, 3, 1, 12)],
      ['two', 'Cartoons', utc(2024, 3, 1, 6), utc(2024, 3, 1, 7)],
    ]);
    expect(warnings).toEqual([
      {
        source: 'no-stop.xml',
        line: 12,
        message: expect.stringMatching(
          /"Backwards".*stop 20240301090000 \+0000 is not after start.*next programme's start \(line 15\)/,
        ),
      },
      {
        source: 'no-stop.xml',
        line: 18,
        message: expect.stringMatching(
          /"Last on two".*no stop attribute and no later programme on the channel; skipped/,
        ),
      },
    ]);
  });
});

describe('readXmltv text', () => {
  it('decodes XML entities and numeric references, keeps CDATA as text and unknown entities as written', async () => {
    const { channels, programmes, warnings } = await read('entities.xml');
    expect(channels[0]).toMatchObject({ id: 'a&e.us', displayNames: [{ text: 'A&E' }] });
    const [first, second] = programmes;
    expect(first).toMatchObject({
      channelId: 'a&e.us',
      titles: [{ text: 'Tom & Jerry <Classic> "Best" \'of\'' }],
      subTitles: [{ text: 'Café ☺ 😀' }],
      descriptions: [{ text: 'Fish & chips <b>not a tag</b> &amp; kept' }],
      categories: [{ text: 'Kids &nbsp;&&nbsp; Family' }],
    });
    expect(second).toMatchObject({
      titles: [{ text: 'AT&T Presents &eacute;t&eacute;' }],
      descriptions: [{ text: 'Mixed <cdata> and & text' }],
    });
    // One warning per kind: &nbsp; twice and &eacute; twice give one each; the bare & one.
    expect(warnings).toEqual([
      { source: 'entities.xml', line: 8, message: expect.stringContaining('unknown entity &nbsp; kept as written') },
      { source: 'entities.xml', line: 11, message: expect.stringContaining('unescaped & is kept') },
      { source: 'entities.xml', line: 11, message: expect.stringContaining('unknown entity &eacute; kept') },
    ]);
  });

  it('honours a declared ISO-8859-1 encoding', async () => {
    const { programmes, warnings } = await read('latin1.xml');
    expect(warnings).toEqual([]);
    expect(programmes[0]?.titles).toEqual([{ text: 'Journal télévisé à Zürich', lang: 'fr' }]);
  });

  it('warns once, with the line, about bytes invalid in the declared encoding', async () => {
    const { programmes, warnings } = await read('bad-utf8.xml');
    expect(programmes[0]?.titles[0]?.text).toBe('caf\uFFFD au lait');
    expect(warnings).toEqual([
      { source: 'bad-utf8.xml', line: 4, message: expect.stringContaining('not valid utf-8') },
    ]);
  });
});
