/**
 * The scored stage's worst case is bounded (issue 48, item 3): a name is read at most MAX_NAME
 * characters and MAX_TOKENS tokens, and each playlist channel scores at most a bounded number of
 * guide names (and each guide name a bounded number of playlist names while the guides stream),
 * whatever the names' length or shape. Each import here ends; how long it takes is measured in
 * the matching benchmark (bench/README.md), not here.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importLiveTv } from '../src/livetv/index.js';
import { formOf, MAX_NAME, MAX_TOKENS, readName } from '../src/livetv/matcher/index.js';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { NOW, type TempStore, tempStore } from './fixtures/livetv/setup.js';

let temp: TempStore | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

const GENRES = ['Sport', 'News', 'Movies', 'Kids', 'Music', 'Docs', 'Comedy', 'Drama', 'Life', 'Action'];

/** A guide of `n` channels in brand families (`Brand12 Sport 3`), one programme each. */
function guide(n: number, longName?: string): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
  for (let i = 0; i < n; i++) {
    const name = `Brand${i % 2000} ${GENRES[i % GENRES.length]}${i % 3 === 0 ? ` ${i % 7}` : ''}`;
    const extra = longName !== undefined && i < 20 ? `<display-name>${longName}</display-name>` : '';
    out.push(`<channel id="c${i}.tv"><display-name>${name}</display-name>${extra}</channel>`);
  }
  for (let i = 0; i < n; i++) {
    out.push(
      `<programme start="${formatXmltvTime(NOW)}" stop="${formatXmltvTime(NOW + 3_600_000)}" channel="c${i}.tv"><title>p</title></programme>`,
    );
  }
  return [...out, '</tv>', ''].join('\n');
}

function playlist(names: string[]): string {
  return `#EXTM3U\n${names.map((n, i) => `#EXTINF:-1,${n}\nhttp://streams.example/${i}.ts\n`).join('')}`;
}

/** A name of `chars` characters made of words every guide channel's names hold. */
function sharing(chars: number, i: number): string {
  const words: string[] = [];
  let length = 0;
  for (let k = 0; length < chars; k++) {
    const word = k % 3 === 0 ? `Brand${(i * 7 + k) % 2000}` : GENRES[(i + k) % GENRES.length]!;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ').slice(0, chars);
}

async function importOf(names: string[], channels: number, longGuideName?: string) {
  temp = tempStore();
  const p = join(temp.dir, 'tv.m3u');
  const g = join(temp.dir, 'guide.xml');
  writeFileSync(p, playlist(names));
  writeFileSync(g, guide(channels, longGuideName));
  return importLiveTv(temp.store, { playlists: [{ location: p }], guides: [{ location: g }], now: NOW });
}

describe('a name is read at most MAX_NAME characters and MAX_TOKENS tokens', () => {
  it('reads the start of a name of 100,000 characters as it reads that start alone', () => {
    const long = sharing(100_000, 1);
    const start = long.slice(0, MAX_NAME);
    expect(formOf(long).key).toBe(formOf(start).key);
    expect(readName(long).tokens.length).toBeLessThanOrEqual(MAX_TOKENS);
    expect(readName('x '.repeat(50_000)).tokens.length).toBeLessThanOrEqual(MAX_TOKENS);
  });
});

describe('the scored stage over hostile names ends', () => {
  it('500 playlist names of 60 KB against a 20,000-channel guide', async () => {
    const names = Array.from({ length: 500 }, (_, i) => sharing(60_000, i));
    const result = await importOf(names, 20_000);
    expect(result.counts.channels).toBe(500);
    expect(result.matches).toHaveLength(500);
  }, 120_000);

  it('playlist and guide names of 100,000 characters', async () => {
    const names = Array.from({ length: 20 }, (_, i) => sharing(100_000, i));
    const result = await importOf(names, 2_000, sharing(100_000, 3));
    expect(result.counts.channels).toBe(20);
  }, 120_000);

  it('many short names that share words with every guide channel', async () => {
    const names = Array.from({ length: 5_000 }, (_, i) => sharing(120, i));
    const result = await importOf(names, 20_000);
    expect(result.matches).toHaveLength(5_000);
  }, 120_000);
});
