import { describe, expect, it } from 'vitest';
import { idPrefix, MAX_ID_PREFIXES, minimalPrefixes, shorten } from './rows.js';
import { ftsQuery, MAX_SEARCH_TERMS } from './search.js';

describe('ftsQuery', () => {
  it('quotes every word and makes the last one a prefix', () => {
    expect(ftsQuery('Amélie  poul')).toBe('"Amélie" "poul"*');
    expect(ftsQuery('sintel')).toBe('"sintel"*');
  });

  it('keeps FTS5 syntax out of the query: only words survive', () => {
    expect(ftsQuery('"')).toBeUndefined();
    expect(ftsQuery('  ( ) * - ^ : ')).toBeUndefined();
    expect(ftsQuery('amelie AND (')).toBe('"amelie" "AND"*');
    expect(ftsQuery('title:"x" NEAR(a b)')).toBe('"title" "x" "NEAR" "a" "b"*');
    expect(ftsQuery("l'été")).toBe('"l" "été"*');
  });

  it('bounds the number and length of words', () => {
    const many = Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ');
    expect(ftsQuery(many)!.split(' ')).toHaveLength(MAX_SEARCH_TERMS);
    expect(ftsQuery('a'.repeat(1000))).toBe(`"${'a'.repeat(64)}"*`);
  });

  it('keeps letters of any script and composes accents first', () => {
    expect(ftsQuery('千と千尋')).toBe('"千と千尋"*');
    expect(ftsQuery('Ame\u0301lie')).toBe('"Amélie"*');
  });
});

describe('id prefixes', () => {
  it('routes IMDb ids by tt and others by their scheme', () => {
    expect(idPrefix('tt0944947')).toBe('tt');
    expect(idPrefix('mq:series-x:1:2')).toBe('mq:');
    expect(idPrefix('kitsu:12')).toBe('kitsu:');
    expect(idPrefix('plain-id')).toBe('plain-id');
    expect(idPrefix('ttx')).toBe('ttx');
  });

  it('drops prefixes another one covers and gives up past the limit', () => {
    expect(minimalPrefixes(['tt', 'mq:', 'abc:', 'abc', 'tt'])).toEqual(['abc', 'mq:', 'tt']);
    expect(minimalPrefixes([])).toEqual([]);
    expect(minimalPrefixes(Array.from({ length: MAX_ID_PREFIXES + 1 }, (_, i) => `id${i}-`))).toBeNull();
  });
});

describe('shorten', () => {
  it('cuts at a word boundary with an ellipsis', () => {
    expect(shorten('short', 10)).toBe('short');
    expect(shorten('one two three four', 12)).toBe('one two…');
    expect(shorten('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
