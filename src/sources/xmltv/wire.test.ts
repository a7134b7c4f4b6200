/**
 * Programmes survive the wire to the parsing thread's consumer (wire.ts) shape for shape: every
 * programme the reader makes of the fixtures and of real guides (the vendored excerpts, and the
 * corpus's public guides with MARQUEE_CORPUS), and one with
 * every field, come back strictly equal after a structured clone (what postMessage does).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusDir, realWorldFiles } from '../../../test/helpers/corpus.js';
import type { Programme } from '../records.js';
import { readXmltv } from './read.js';
import { decodeProgrammes, ProgrammeEncoder } from './wire.js';

const fixtures = new URL('../../../test/fixtures/xmltv/', import.meta.url);
const realGuides = realWorldFiles('guides', (name) => name.endsWith('.xml'));

async function programmesOf(bytes: Uint8Array): Promise<Programme[]> {
  const out: Programme[] = [];
  try {
    for await (const batch of readXmltv([bytes], { source: 'g.xml' })) out.push(...batch.programmes);
  } catch {
    // A malformed fixture: what it yielded before its error is enough here.
  }
  return out;
}

function overTheWire(encoder: ProgrammeEncoder): Programme[] {
  return decodeProgrammes(structuredClone(encoder.take()));
}

const every: Programme = {
  channelId: 'one.example',
  start: 1_700_000_000_000,
  stop: 1_700_003_600_000,
  titles: [
    { text: 'News', lang: 'en' },
    { text: 'Nachrichten', lang: 'de' },
    { text: 'No language', lang: undefined },
  ],
  subTitles: [{ text: '', lang: undefined }],
  descriptions: [{ text: 'Line one\nline two — “quoted” \u{1F600}', lang: 'en' }],
  categories: [
    { text: 'News', lang: 'en' },
    { text: 'Current affairs', lang: 'en' },
  ],
  season: 0,
  episode: 12,
  episodeOnScreen: '',
  date: '2019',
  icon: 'https://img.example/a.png',
  ratings: [{ value: '12' }, { system: 'MPAA', value: 'PG' }],
  starRating: '3/5',
  directors: ['A Director'],
  actors: ['One', 'Two', ''],
  previouslyShown: true,
  isNew: false,
  line: 42,
};

const bare: Programme = {
  channelId: 'two.example',
  start: -3_600_000,
  stop: 0,
  titles: [],
  subTitles: [],
  descriptions: [],
  categories: [],
  season: undefined,
  episode: undefined,
  episodeOnScreen: undefined,
  date: undefined,
  icon: undefined,
  ratings: [],
  starRating: undefined,
  directors: [],
  actors: [],
  previouslyShown: false,
  isNew: true,
  line: 1,
};

describe('programmes on the wire', () => {
  it('keeps every field, absent ones absent, and several messages apart', () => {
    const encoder = new ProgrammeEncoder();
    encoder.add([every, bare, every]);
    expect(overTheWire(encoder)).toStrictEqual([every, bare, every]);
    encoder.add([bare]);
    expect(overTheWire(encoder)).toStrictEqual([bare]);
    expect(encoder.size).toBe(0);
    expect(overTheWire(encoder)).toStrictEqual([]);
  });

  const guides = [
    ...readdirSync(fixtures).map((name) => new URL(name, fixtures)),
    ...realGuides.map((path) => new URL(`file://${path}`)),
  ];
  it.each(guides.map((url) => [url.pathname.split('/').slice(-2).join('/'), url] as const))(
    'gives back what the reader made of %s',
    async (_name, url) => {
      const programmes = await programmesOf(readFileSync(url));
      const encoder = new ProgrammeEncoder();
      // In uneven messages, as the thread sends them.
      const back: Programme[] = [];
      for (let i = 0; i < programmes.length; i += 37) {
        encoder.add(programmes.slice(i, i + 37));
        if ((i / 37) % 3 === 2) back.push(...overTheWire(encoder));
      }
      back.push(...overTheWire(encoder));
      expect(back).toStrictEqual(programmes);
    },
  );

  it('reads real guides (the test above is not empty)', async () => {
    // The two vendored excerpts hold 423 programmes; the corpus's seven guides over 1,000.
    const least = corpusDir() === undefined ? { files: 1, programmes: 400 } : { files: 3, programmes: 1000 };
    expect(realGuides.length).toBeGreaterThan(least.files);
    let total = 0;
    for (const path of realGuides) total += (await programmesOf(readFileSync(path))).length;
    expect(total).toBeGreaterThan(least.programmes);
  });
});
