import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanAttributes } from './attributes.js';
import { parseM3u } from './parse.js';

describe('scanAttributes', () => {
  it('reads double-quoted, single-quoted and unquoted values, then the title after the first free comma', () => {
    expect(scanAttributes(`-1 A="x, y" b='it''s' c=plain D="",Title, with "commas"`, true)).toEqual({
      duration: '-1',
      attributes: { a: 'x, y', b: 'it', "'s'": '', c: 'plain', d: '' },
      title: 'Title, with "commas"',
      problems: [],
    });
  });

  it('keeps a bare word as an empty attribute and has no title without a comma', () => {
    expect(scanAttributes('-1 radio tvg-id=x', true)).toEqual({
      duration: '-1',
      attributes: { radio: '', 'tvg-id': 'x' },
      problems: [],
    });
  });

  it('reads a header without duration or title', () => {
    expect(scanAttributes(` url-tvg="a,b",tvg-shift=2`, false)).toEqual({
      attributes: { 'url-tvg': 'a,b', 'tvg-shift': '2' },
      problems: [],
    });
  });

  it('ignores an attribute with no name instead of stalling on it', () => {
    expect(scanAttributes('-1 ="v" =w ok=1,T', true)).toEqual({
      duration: '-1',
      attributes: { ok: '1' },
      title: 'T',
      problems: [],
    });
  });

  it('terminates on any input (property)', () => {
    const alphabet = fc.constantFrom('"', "'", '=', ',', ' ', '\t', 'a', '-', '1', '#', 'é');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }), (chars) => {
        const text = chars.join('');
        const scanned = scanAttributes(text, true);
        expect(typeof scanned.attributes).toBe('object');
        const playlist = parseM3u(`#EXTM3U ${text}\n#EXTINF:${text}\nhttp://u\n${text}`, 'fuzz.m3u');
        expect(playlist.entries.length).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 2_000 },
    );
  });
});
