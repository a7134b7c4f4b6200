/**
 * Programmes survive the wire to the parsing thread's consumer (wire.ts) shape for shape: every
 * programme the reader makes of the fixtures and the shared corpus's public guides, and one with
 * every field, come back strictly equal after a structured clone (what postMessage does).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Programme } from '../records.js';
import { readXmltv } from './read.js';
import { decodeProgrammes, ProgrammeEncoder } from './wire.js';

const fixtures = new URL('../../../test/fixtures/xmltv/', import.meta.url);
const corpus = new URL('../../../../shared/corpus/guides/', import.meta.url);

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
    ...readdirSync(corpus)
      .filter((name) => name.endsWith('.xml'))
      .map((name) => new URL(name, corpus)),
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

  it('reads a corpus of real guides (the test above is not empty)', async () => {
    const names = readdirSync(corpus).filter((name) => name.endsWith('.xml'));
    expect(names.length).toBeGreaterThan(3);
    let total = 0;
    for (const name of names) total += (await programmesOf(readFileSync(new URL(name, corpus)))).length;
    expect(total).toBeGreaterThan(1000);
  });
});
