import { describe, expect, it } from 'vitest';
import { parseOnScreen, parseXmltvNs } from './episode.js';

describe('parseXmltvNs', () => {
  it.each([
    ['0.0.0/1', { season: 1, episode: 1 }],
    ['1.4.', { season: 2, episode: 5 }],
    ['1 . 4/10 . 0/1', { season: 2, episode: 5 }],
    [' 2/5 . 11 / 22 . ', { season: 3, episode: 12 }],
    ['.4.', { season: undefined, episode: 5 }],
    ['..0/2', undefined],
    ['3..', { season: 4, episode: undefined }],
    ['3', { season: 4 }],
    ['a.b.c', undefined],
    ['', undefined],
    ['x.7.', { season: undefined, episode: 8 }],
    ['20240101.0.', { season: undefined, episode: 1 }],
  ])('%j', (text, expected) => {
    expect(parseXmltvNs(text)).toEqual(expected);
  });
});

describe('parseOnScreen', () => {
  it.each([
    ['S01E02', { season: 1, episode: 2 }],
    ['s1 e12', { season: 1, episode: 12 }],
    ['S03 E07 - Pilot', { season: 3, episode: 7 }],
    ['Season 2 Episode 9', { season: 2, episode: 9 }],
    ['S2.Ep.4', { season: 2, episode: 4 }],
    ['4x05', { season: 4, episode: 5 }],
    ['Episode 5', undefined],
    ['Folge 12', undefined],
  ])('%j', (text, expected) => {
    expect(parseOnScreen(text)).toEqual(expected);
  });
});
