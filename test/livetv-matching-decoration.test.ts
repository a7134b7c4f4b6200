/**
 * Names written in ways no rule names (issue 45), through the real import: what each playlist
 * writes around its names is learned from the playlist itself and set aside, per source; ties
 * between guide channels of one name are broken by the country the playlist says around the
 * channel (its group, its prefix, its neighbours); a name its decoration makes ambiguous is left
 * for review, and an exact name still wins.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importLiveTv, type LiveTvImportOptions } from '../src/livetv/index.js';
import { GuideIndex } from '../src/livetv/match.js';
import { formOf } from '../src/livetv/matcher/index.js';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { NOW, type TempStore, tempStore } from './fixtures/livetv/setup.js';

let temp: TempStore | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

const HOUR = 3_600_000;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function guide(channels: Record<string, string[]>): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
  for (const [id, names] of Object.entries(channels))
    lines.push(`<channel id="${id}">${names.map((n) => `<display-name>${esc(n)}</display-name>`).join('')}</channel>`);
  for (const id of Object.keys(channels))
    lines.push(
      `<programme start="${formatXmltvTime(NOW)}" stop="${formatXmltvTime(NOW + HOUR)}" channel="${id}"><title>${id}</title></programme>`,
    );
  return [...lines, '</tv>', ''].join('\n');
}

/** Entries as `[attributes, name]` or a name. */
function playlist(entries: (string | [string, string])[]): string {
  return `#EXTM3U\n${entries
    .map((e, i) => {
      const [attributes, name] = typeof e === 'string' ? ['', e] : e;
      return `#EXTINF:-1${attributes ? ` ${attributes}` : ''},${name}\nhttp://streams.example/${i}.ts\n`;
    })
    .join('')}`;
}

async function importWith(
  lists: string[],
  channels: Record<string, string[]>,
  options: Partial<LiveTvImportOptions> = {},
) {
  temp ??= tempStore();
  const dir = temp.dir;
  const playlists = lists.map((text, i) => {
    const location = join(dir, `tv${i}.m3u`);
    writeFileSync(location, text);
    return { location };
  });
  const g = join(dir, 'guide.xml');
  writeFileSync(g, guide(channels));
  const result = await importLiveTv(temp.store, { playlists, guides: [{ location: g }], now: NOW, ...options });
  const byName = new Map(result.matches!.map((m) => [m.name, m]));
  return { result, byName, guideOf: (name: string) => byName.get(name)?.guide ?? null };
}

// Canadian channels as a guide names them (iptv-org style ids: the country is the id's suffix).
const CANADA: Record<string, string[]> = {
  'CBCNewsNetwork.ca': ['CBC News Network'],
  'CTV.ca': ['CTV'],
  'GlobalTV.ca': ['Global'],
  'TSN1.ca': ['TSN 1'],
  'Sportsnet.ca': ['Sportsnet One'],
  'Treehouse.ca': ['Treehouse'],
  'History.ca': ['History'],
  'Crave1.ca': ['Crave 1'],
  'TRTHaber.tr': ['TRT Haber'],
};

describe('a playlist written in a style no rule names', () => {
  it('finds its guide channels: marks before the code, bare resolutions, codecs, small capitals, lower case, a label', async () => {
    const names = [
      '◉ CA CBC News Network FHD',
      '◉ CA ᴄᴛᴠ 1080',
      '◉ CA Global H 265',
      '◉ CA TSN 1 720 NFT',
      '◉ CA sportsnet one ⟦HEVC⟧ ⟦NFT⟧',
      '◉ CA Treehouse 1080',
      '◉ CA HISTORY ᴿᵀᴷ NFT',
      '◉ CA Crave 1 h_264 NFT',
      'TR - TRT HABER 1080',
    ];
    const { result, guideOf } = await importWith([playlist(names)], CANADA);
    expect(names.map(guideOf)).toEqual([
      'CBCNewsNetwork.ca',
      'CTV.ca',
      'GlobalTV.ca',
      'TSN1.ca',
      'Sportsnet.ca',
      'Treehouse.ca',
      'History.ca',
      'Crave1.ca',
      'TRTHaber.tr',
    ]);
    // What the playlist was found to write, in its report (`import --json`).
    const [report, guideReport] = result.sources;
    expect(report!.decoration).toMatchObject({
      names: 9,
      prefixes: [{ text: '◉ CA', names: 8 }],
      country: 'ca',
      learned: { trailing: ['nft'], bareResolutions: true },
    });
    expect(guideReport!.decoration).toBeUndefined();
  });

  it('reads the same names as before with livetv.matching.decoration off, bare resolutions and labels kept', async () => {
    const names = ['◉ CA CTV 1080', '◉ CA Treehouse 1080', '◉ CA Global 720', 'TR - TRT HABER 1080'];
    const { result, guideOf } = await importWith([playlist(names)], CANADA, { matching: { decoration: false } });
    expect(names.map(guideOf)).toEqual([null, null, null, null]);
    expect(result.sources[0]!.decoration).toBeUndefined();
  });

  it('learns each playlist apart: one panel’s label is another’s channel name', async () => {
    const channels: Record<string, string[]> = { 'Crypto.us': ['Crypto'], 'CryptoNFT.us': ['Crypto NFT'], ...CANADA };
    for (let i = 0; i < 30; i++) channels[`Filler${i}.us`] = [`Filler ${String.fromCharCode(65 + (i % 26))}${i}`];
    const panel = [
      'CA ◉ CTV HD NFT',
      'CA ◉ Global FHD NFT',
      'CA ◉ Treehouse HD NFT',
      'CA ◉ History NFT',
      'CA ◉ Crave 1 4K NFT',
    ];
    const other = ['Crypto NFT TV', 'History', 'CTV'];
    const { result, guideOf } = await importWith([playlist(panel), playlist(other)], channels);
    expect(panel.map(guideOf)).toEqual(['CTV.ca', 'GlobalTV.ca', 'Treehouse.ca', 'History.ca', 'Crave1.ca']);
    expect(result.sources[0]!.decoration?.learned.trailing).toEqual(['nft']);
    expect(result.sources[1]!.decoration).toBeUndefined();
    // Read with the first playlist's label set aside, `Crypto NFT TV` would be `Crypto TV`.
    expect(guideOf('Crypto NFT TV')).toBe('CryptoNFT.us');
  });
});

describe('ties between guide channels of one name, broken by what the playlist says', () => {
  const TWINS = { 'CBCNews.ca': ['CBC News'], 'CBCNews.us': ['CBC News'], ...CANADA };

  it('by the country its group names', async () => {
    const { byName, guideOf } = await importWith(
      [
        playlist([
          ['group-title="CANADA"', 'CBC News'],
          ['group-title="USA | News"', 'CBC News HD'],
          'CBC News (720p)',
        ]),
      ],
      TWINS,
    );
    expect(guideOf('CBC News')).toBe('CBCNews.ca');
    expect(guideOf('CBC News HD')).toBe('CBCNews.us');
    // Nothing says: left for review, both channels its candidates.
    expect(guideOf('CBC News (720p)')).toBeNull();
    expect(
      byName
        .get('CBC News (720p)')!
        .candidates.map((c) => c.id)
        .sort(),
    ).toEqual(['CBCNews.ca', 'CBCNews.us']);
  });

  it('by the country its prefix names, learned or by shape', async () => {
    const learned = ['CA CTV', 'CA Global', 'CA Treehouse', 'CA History', 'CA CBC News'];
    const { guideOf } = await importWith([playlist([...learned, '◉ US CBC News HD'])], TWINS);
    expect(guideOf('CA CBC News')).toBe('CBCNews.ca');
    expect(guideOf('◉ US CBC News HD')).toBe('CBCNews.us');
  });

  it('by the country most of its playlist neighbours matched', async () => {
    const { guideOf } = await importWith(
      [playlist(['CTV', 'Global', 'TSN 1', 'CBC News FHD', 'Treehouse', 'History', 'Crave 1'])],
      TWINS,
    );
    expect(guideOf('CBC News FHD')).toBe('CBCNews.ca');
  });
});

describe('a name read two ways', () => {
  const index = new GuideIndex();
  for (const [id, names] of Object.entries({
    'Lifetime.us': ['Lifetime'],
    'FoxSports1.us': ['FOX Sports 1'],
    'Russia24.ru': ['Россия 24'],
  }))
    index.add({ id, displayNames: names.map((text) => ({ text })) });
  const none = new Map<string, string | null>();
  const subject = { name: 'x', shiftHours: 0 };
  const forms = (name: string) => [formOf(name)];

  it('agreeing, or the decorated reading alone finding it: matched', () => {
    expect(index.resolve(subject, none, forms('Lifetime Latin America'), { learned: forms('Lifetime') })).toMatchObject(
      {
        key: 'Lifetime.us',
        rule: 'normalizedName',
      },
    );
    expect(index.resolve(subject, none, forms('Zzyzx Lifetime Qwerty'), { learned: forms('Lifetime') }).key).toBe(
      'Lifetime.us',
    );
  });

  it('finding two channels, or only the plain reading finding one: left for review with both', () => {
    const two = index.resolve(subject, none, forms('Lifetime Latin America'), { learned: forms('Россия 24 (Москва)') });
    expect(two.key).toBeUndefined();
    expect(two.candidates!.map((c) => c.id).sort()).toEqual(['Lifetime.us', 'Russia24.ru']);
    const one = index.resolve(subject, none, forms('Lifetime Latin America'), { learned: forms('Zzyzx Qwerty') });
    expect(one.key).toBeUndefined();
    expect(one.candidates!.map((c) => c.id)).toEqual(['Lifetime.us']);
  });

  it('an exact name still beats a decorated one', () => {
    expect(index.resolve(subject, none, forms('FOX SPORTS 1 HD'), { learned: forms('Lifetime') })).toMatchObject({
      key: 'FoxSports1.us',
      rule: 'normalizedName',
    });
  });
});
