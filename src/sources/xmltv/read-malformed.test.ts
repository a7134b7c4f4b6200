import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import type { Programme, SourceWarning } from '../records.js';
import { type ReadXmltvOptions, readXmltv } from './read.js';

const fixture = (name: string) => new URL(`../../../test/fixtures/xmltv/${name}`, import.meta.url);

async function collect(chunks: AsyncIterable<Uint8Array | string> | Iterable<string>, options: ReadXmltvOptions) {
  const programmes: Programme[] = [];
  const warnings: SourceWarning[] = [];
  let channels = 0;
  for await (const batch of readXmltv(chunks, options)) {
    channels += batch.channels.length;
    programmes.push(...batch.programmes);
    warnings.push(...batch.warnings);
  }
  return { channels, programmes, warnings };
}

const readFixture = (name: string) => collect(createReadStream(fixture(name)), { source: name });

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the read to fail');
}

describe('readXmltv on malformed records', async () => {
  const { channels, programmes, warnings } = await readFixture('malformed.xml');

  it('keeps the good records, repairs what it safely can', () => {
    expect(channels).toBe(1);
    expect(programmes.map((p) => [p.titles[0]?.text, p.line])).toEqual([
      ['Stop before start', 18],
      ['Unclosed title', 21],
      ['Unclosed programme', 24],
      ['Kept after the unclosed one', 26],
      ['Bad stop, repaired', 29],
      ['Last', 32],
    ]);
    // A stop that is unreadable or not after the start is replaced by the next start on the channel.
    expect(programmes[0]?.stop).toBe(Date.UTC(2024, 2, 1, 14));
    expect(programmes[4]?.stop).toBe(Date.UTC(2024, 2, 1, 18));
  });

  it('gives one warning per problem, each with its line', () => {
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [3, 'channel without an id attribute; skipped'],
      [5, 'channel "ok" is declared again; the first declaration is kept'],
      [6, expect.stringContaining('start "yesterday evening" is not an XMLTV time')],
      [9, 'programme without a channel attribute; skipped'],
      [12, 'programme on channel "ok" has no start attribute; skipped'],
      [15, expect.stringContaining('has no title; skipped')],
      [23, '<title> is not closed; it ends at this end tag'],
      [
        18,
        expect.stringMatching(
          /"Stop before start".*is not after start.*; ends at the next programme's start \(line 21\)/,
        ),
      ],
      [24, '<programme> is not closed before the <programme> at line 26; it ends there'],
      [
        29,
        expect.stringMatching(/stop "not a time" is not an XMLTV time; ends at the next programme's start \(line 32\)/),
      ],
    ]);
    expect(warnings.every((w) => w.source === 'malformed.xml')).toBe(true);
  });
});

describe('readXmltv on truncated guides', () => {
  it('keeps the complete records, drops the cut one, and says the guide ended early', async () => {
    const { channels, programmes, warnings } = await readFixture('truncated.xml');
    expect(channels).toBe(1);
    expect(programmes.map((p) => p.titles[0]?.text)).toEqual(['Complete']);
    expect(warnings).toEqual([
      {
        source: 'truncated.xml',
        line: 7,
        message: 'the guide ends inside this <programme> (truncated or not closed); it is dropped',
      },
      { source: 'truncated.xml', line: 9, message: expect.stringContaining('the guide ends before </tv>') },
    ]);
  });

  it('survives a file cut inside a tag', async () => {
    const { programmes, warnings } = await readFixture('truncated-in-tag.xml');
    expect(programmes).toHaveLength(1);
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [6, 'the guide ends inside this <programme> (truncated or not closed); it is dropped'],
      [6, expect.stringContaining('ends before </tv>')],
    ]);
  });
});

describe('readXmltv on documents that are not XMLTV', () => {
  it.each([
    [
      'an HTML error page',
      ['<!DOCTYPE html>\n<html lang="en"><body>502</body></html>'],
      /:2: the root element is <html> \(an HTML page\), not <tv>/,
    ],
    ['an RSS feed', ['<?xml version="1.0"?>\n<rss><channel/></rss>'], /:2: the root element is <rss>, not <tv>/],
    ['JSON', ['{"error": "not found"}'], /:1: text before the first element \("\{"error": "not found"\}"\)/],
    [
      'gzip bytes not decompressed',
      [new Uint8Array([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 0x41])],
      /text before the first element/,
    ],
    ['an empty file', [''], /no <tv> element/],
    ['only a prolog', ['<?xml version="1.0"?>\n<!-- nothing -->\n'], /no <tv> element/],
  ])('refuses %s with SOURCE_INVALID naming source and line', async (_, chunks, message) => {
    const error = await failure(() => collect(chunks as Iterable<string>, { source: 'guide.xml' }));
    expect(isMarqueeError(error, 'SOURCE_INVALID')).toBe(true);
    expect((error as Error).message).toMatch(/^guide\.xml:/);
    expect((error as Error).message).toMatch(message);
  });

  it('reads the HTML page fixture as not XMLTV', async () => {
    const error = await failure(() => readFixture('html-page.html'));
    expect(isMarqueeError(error, 'SOURCE_INVALID')).toBe(true);
  });

  it('warns when a well-formed <tv> holds nothing usable', async () => {
    const { warnings } = await collect(['<tv>\n<channel/>\n</tv>'], { source: 'empty.xml' });
    expect(warnings.map((w) => w.message)).toEqual([
      'channel without an id attribute; skipped',
      'the guide holds no usable channel or programme',
    ]);
  });

  it('reads a second <tv> after </tv> as a continuation, with a warning', async () => {
    const one = (c: string) =>
      `<programme start="20240301060000" stop="20240301070000" channel="${c}"><title>T</title></programme>`;
    const { programmes, warnings } = await collect([`<tv>${one('a')}</tv>\n<tv>${one('b')}</tv>`], {
      source: 'cat.xml',
    });
    expect(programmes.map((p) => p.channelId)).toEqual(['a', 'b']);
    expect(warnings).toEqual([{ source: 'cat.xml', line: 2, message: expect.stringContaining('second <tv>') }]);
  });
});

describe('readXmltv warning cap', () => {
  it('lists at most maxWarnings and counts the rest', async () => {
    const bad = Array.from(
      { length: 50 },
      (_, i) => `<programme start="bad${i}" channel="x"><title>t</title></programme>\n`,
    );
    const { warnings } = await collect(['<tv>\n', ...bad, '</tv>'], { source: 'bad.xml', limits: { maxWarnings: 10 } });
    expect(warnings).toHaveLength(11);
    expect(warnings[0]).toMatchObject({ line: 2, message: expect.stringContaining('"bad0"') });
    // 50 bad starts plus "holds no usable channel or programme": 51, of which 10 are listed.
    expect(warnings[10]).toEqual({ source: 'bad.xml', message: '41 more warnings were not listed' });
  });
});
