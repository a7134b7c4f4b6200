import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isMarqueeError } from '../errors.js';
import {
  type ExtraPairs,
  formatAddonPath,
  formatExtra,
  formatManifestPath,
  PATH_LIMITS,
  parseAddonPath,
  parseExtra,
  type ResourcePath,
} from './path.js';
import { RESOURCE_NAMES } from './resource.js';

function resource(path: string) {
  const parsed = parseAddonPath(path);
  if (parsed?.kind !== 'resource') throw new Error(`not a resource path: ${path}`);
  return parsed;
}

function badRequest(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isMarqueeError(error, 'BAD_REQUEST')) return error.message;
    throw error;
  }
  throw new Error('expected BAD_REQUEST');
}

describe('the client encodings (client-behaviour.md)', () => {
  test.each([
    ['tiny:7', 'tiny%3A7'],
    ['Rock & Roll', 'Rock%20%26%20Roll'],
    ['A/B é', 'A%2FB%20%C3%A9'],
  ])('%s is sent as %s and read back', (value, encoded) => {
    const path: ResourcePath = { resource: 'catalog', type: 'movie', id: value, extra: [['genre', value]] };
    expect(formatAddonPath(path)).toBe(`/catalog/movie/${encoded}/genre=${encoded}.json`);
    expect(resource(`/catalog/movie/${encoded}/genre=${encoded}.json`).path).toEqual(path);
  });

  test('extras in any order, in the order sent', () => {
    expect(resource('/catalog/movie/top/skip=100&genre=Drama.json').path.extra).toEqual([
      ['skip', '100'],
      ['genre', 'Drama'],
    ]);
    expect(resource('/catalog/movie/top/genre=Drama&skip=100.json').path.extra).toEqual([
      ['genre', 'Drama'],
      ['skip', '100'],
    ]);
    expect(resource('/catalog/tv/guide/date=2026-01-31&skip=40.json').path.extra).toEqual([
      ['date', '2026-01-31'],
      ['skip', '40'],
    ]);
  });

  test('a repeated name is kept as several pairs', () => {
    expect(parseExtra('genre=a&genre=b%20c')).toEqual([
      ['genre', 'a'],
      ['genre', 'b c'],
    ]);
  });

  test('+ reads as a space, %2B as a plus', () => {
    expect(parseExtra('search=star+wars&genre=C%2B%2B')).toEqual([
      ['search', 'star wars'],
      ['genre', 'C++'],
    ]);
  });

  test('an extra without = has an empty value; empty parts are skipped', () => {
    expect(parseExtra('search&&skip=0')).toEqual([
      ['search', ''],
      ['skip', '0'],
    ]);
    expect(parseExtra('')).toEqual([]);
  });

  test('%, & and = inside values survive the round trip', () => {
    const extra: ExtraPairs = [['search', '100% a=b & c']];
    expect(formatExtra(extra)).toBe('search=100%25%20a%3Db%20%26%20c');
    expect(parseExtra(formatExtra(extra))).toEqual(extra);
  });
});

describe('path forms', () => {
  test('the manifest, with and without config', () => {
    expect(parseAddonPath('/manifest.json')).toEqual({ kind: 'manifest' });
    expect(parseAddonPath('/%7B%22region%22%3A%22uk%22%7D/manifest.json')).toEqual({
      kind: 'manifest',
      config: '{"region":"uk"}',
    });
    expect(formatManifestPath()).toBe('/manifest.json');
    expect(formatManifestPath('{"region":"uk"}')).toBe('/%7B%22region%22%3A%22uk%22%7D/manifest.json');
  });

  test('three segments: no config, no extras', () => {
    expect(parseAddonPath('/meta/tv/mq-tv%3Abbc1.json')).toEqual({
      kind: 'resource',
      path: { resource: 'meta', type: 'tv', id: 'mq-tv:bbc1', extra: [] },
    });
  });

  test('four segments: extras when the first names a resource, config when the second does', () => {
    expect(resource('/catalog/movie/top/skip=100.json')).toEqual({
      kind: 'resource',
      path: { resource: 'catalog', type: 'movie', id: 'top', extra: [['skip', '100']] },
    });
    expect(resource('/token123/catalog/movie/top.json')).toEqual({
      kind: 'resource',
      config: 'token123',
      path: { resource: 'catalog', type: 'movie', id: 'top', extra: [] },
    });
    // A catalog whose type is itself a resource name still reads as extras, not config.
    expect(resource('/catalog/stream/top/skip=1.json').config).toBeUndefined();
  });

  test('five segments: config and extras', () => {
    expect(resource('/abc/catalog/movie/top/genre=Drama.json')).toEqual({
      kind: 'resource',
      config: 'abc',
      path: { resource: 'catalog', type: 'movie', id: 'top', extra: [['genre', 'Drama']] },
    });
  });

  test.each([
    '/',
    '',
    'manifest.json',
    '/manifest',
    '/catalog/movie.json',
    '/a/b/c/d/e/f.json',
    '//catalog/movie/top.json',
    '/catalog//top.json',
    '/catalog/movie/top/.json',
    '/catalog/movie/top.json/',
  ])('%j is not an add-on path', (path) => {
    expect(parseAddonPath(path)).toBeUndefined();
  });
});

describe('malformed input and limits', () => {
  test.each([
    ['/meta/movie/%ZZ.json', 'id'],
    ['/meta/mo%E0vie/tt1.json', 'type'],
    ['/catalog/movie/top/genre=%E0%A4%A.json', 'extra value'],
    ['/catalog/movie/top/gen%re=x.json', 'extra name'],
    ['/%E0%A4/manifest.json', 'config segment'],
    ['/%/catalog/movie/top.json', 'config segment'],
  ])('malformed percent-encoding in %s is BAD_REQUEST naming the %s', (path, what) => {
    expect(badRequest(() => parseAddonPath(path))).toContain(what);
  });

  test('every bound refuses before decoding', () => {
    const long = (n: number) => 'a'.repeat(n);
    expect(badRequest(() => parseAddonPath(`/${long(PATH_LIMITS.maxPathLength)}.json`))).toContain('path');
    expect(badRequest(() => parseAddonPath(`/meta/movie/${long(PATH_LIMITS.maxSegmentLength + 1)}.json`))).toContain(
      'id',
    );
    expect(badRequest(() => parseAddonPath(`/${long(PATH_LIMITS.maxConfigLength + 1)}/manifest.json`))).toContain(
      'config',
    );
    expect(badRequest(() => parseExtra(`search=${long(PATH_LIMITS.maxExtraLength)}`))).toContain('extra');
    const pairs = Array.from({ length: PATH_LIMITS.maxExtraPairs + 1 }, (_, i) => `genre=${i}`).join('&');
    expect(badRequest(() => parseExtra(pairs))).toContain(`${PATH_LIMITS.maxExtraPairs}`);
    // Right at the bounds is still served.
    expect(parseExtra(Array.from({ length: PATH_LIMITS.maxExtraPairs }, () => 'skip=0').join('&'))).toHaveLength(
      PATH_LIMITS.maxExtraPairs,
    );
    expect(resource(`/meta/movie/${long(PATH_LIMITS.maxSegmentLength)}.json`).path.id).toHaveLength(
      PATH_LIMITS.maxSegmentLength,
    );
  });
});

describe('round trips (fast-check)', () => {
  const text = (minLength: number) => fc.string({ unit: 'binary', minLength, maxLength: 12 });
  const extra = fc.array(fc.tuple(text(0), text(0)), { maxLength: 6 });
  // A config that is itself a resource name would read as a resource; real configs are JSON or tokens.
  const config = fc.option(
    text(1).filter((c) => !(RESOURCE_NAMES as readonly string[]).includes(c)),
    { nil: undefined },
  );
  const path = fc.record({ resource: fc.constantFrom(...RESOURCE_NAMES), type: text(1), id: text(1), extra });

  test('parseAddonPath(formatAddonPath(p, config)) gives back p and config', () => {
    fc.assert(
      fc.property(path, config, (p, c) => {
        const parsed = parseAddonPath(formatAddonPath(p, c));
        expect(parsed).toEqual(
          c === undefined ? { kind: 'resource', path: p } : { kind: 'resource', config: c, path: p },
        );
      }),
      { numRuns: 500 },
    );
  });

  test('parseExtra(formatExtra(pairs)) gives back the pairs, repeated names and order included', () => {
    fc.assert(
      fc.property(extra, (pairs) => {
        expect(parseExtra(formatExtra(pairs))).toEqual(pairs);
      }),
      { numRuns: 500 },
    );
  });

  test('arbitrary request paths never crash: a result, undefined, or BAD_REQUEST', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9%&=+:.\-é]{0,12}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        try {
          parseAddonPath(`/${segments.join('/')}.json`);
        } catch (error) {
          expect(isMarqueeError(error, 'BAD_REQUEST')).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
