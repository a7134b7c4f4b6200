import { describe, expect, test } from 'vitest';
import type { Manifest } from './manifest.js';
import { extraDeclared, findCatalog, isGuideCatalog, requiredExtras, resourceRoutes } from './routing.js';

function manifest(overrides: Partial<Manifest> = {}): Manifest {
  return {
    id: 'org.marquee.routing',
    version: '1.0.0',
    name: 'Routing',
    description: '',
    types: ['movie', 'series'],
    idPrefixes: ['tt', 'mq:'],
    resources: ['catalog', 'meta', { name: 'stream', types: ['tv'], idPrefixes: ['mq-tv:'] }],
    catalogs: [
      { type: 'movie', id: 'top', name: 'Top', extra: [{ name: 'search' }, { name: 'skip' }] },
      { type: 'movie', id: 'top', name: 'Duplicate', extra: [] },
      { type: 'tv', id: 'channels', name: 'Channels', extra: [{ name: 'date' }, { name: 'skip' }] },
    ],
    ...overrides,
  };
}

describe('resourceRoutes', () => {
  test('a string resource uses the manifest-level types and idPrefixes', () => {
    const m = manifest();
    expect(resourceRoutes(m, 'meta', 'movie', 'tt0111161')).toBe(true);
    expect(resourceRoutes(m, 'meta', 'series', 'mq:42')).toBe(true);
    expect(resourceRoutes(m, 'meta', 'tv', 'mq:42')).toBe(false);
    expect(resourceRoutes(m, 'meta', 'movie', 'kitsu:1')).toBe(false);
  });

  test('idPrefixes match by the start of the id, not anywhere in it', () => {
    const m = manifest();
    expect(resourceRoutes(m, 'meta', 'movie', 'xtt1')).toBe(false);
    expect(resourceRoutes(m, 'meta', 'movie', 'tt')).toBe(true);
  });

  test('an object resource uses only its own types and idPrefixes', () => {
    const m = manifest();
    expect(resourceRoutes(m, 'stream', 'tv', 'mq-tv:bbc1')).toBe(true);
    expect(resourceRoutes(m, 'stream', 'tv', 'tt0111161')).toBe(false);
    expect(resourceRoutes(m, 'stream', 'movie', 'mq-tv:bbc1')).toBe(false);
  });

  test('an object resource without idPrefixes matches every id, ignoring the manifest-level list', () => {
    const m = manifest({ resources: [{ name: 'stream', types: ['tv'] }] });
    expect(resourceRoutes(m, 'stream', 'tv', 'anything:at:all')).toBe(true);
  });

  test('an object resource without types is never asked', () => {
    const m = manifest({ resources: [{ name: 'stream' }] });
    expect(resourceRoutes(m, 'stream', 'movie', 'tt1')).toBe(false);
  });

  test('idPrefixes: [] matches nothing, at either level', () => {
    expect(resourceRoutes(manifest({ idPrefixes: [] }), 'meta', 'movie', 'tt1')).toBe(false);
    const m = manifest({ resources: [{ name: 'stream', types: ['tv'], idPrefixes: [] }] });
    expect(resourceRoutes(m, 'stream', 'tv', 'mq-tv:bbc1')).toBe(false);
  });

  test('no idPrefixes at all matches every id', () => {
    const { idPrefixes: _, ...rest } = manifest();
    expect(resourceRoutes(rest, 'meta', 'movie', 'kitsu:1')).toBe(true);
  });

  test('a resource that is not declared is not routed', () => {
    expect(resourceRoutes(manifest(), 'subtitles', 'movie', 'tt1')).toBe(false);
  });

  test('several entries of one resource: any match routes', () => {
    const m = manifest({
      resources: [
        { name: 'meta', types: ['movie'], idPrefixes: ['tt'] },
        { name: 'meta', types: ['tv'], idPrefixes: ['mq-tv:'] },
      ],
    });
    expect(resourceRoutes(m, 'meta', 'tv', 'mq-tv:1')).toBe(true);
    expect(resourceRoutes(m, 'meta', 'movie', 'tt1')).toBe(true);
    expect(resourceRoutes(m, 'meta', 'movie', 'mq-tv:1')).toBe(false);
  });

  test('catalogs are routed by the catalogs list, never by idPrefixes or types', () => {
    const m = manifest();
    expect(resourceRoutes(m, 'catalog', 'movie', 'top')).toBe(true);
    expect(resourceRoutes(m, 'catalog', 'tv', 'channels')).toBe(true); // tv is not in types, tv catalogs still route
    expect(resourceRoutes(m, 'catalog', 'movie', 'channels')).toBe(false);
  });

  test('add-on catalogs are routed by the addonCatalogs list', () => {
    const m = manifest({ addonCatalogs: [{ type: 'all', id: 'friends', name: 'Friends' }] });
    expect(resourceRoutes(m, 'addon_catalog', 'all', 'friends')).toBe(true);
    expect(resourceRoutes(m, 'addon_catalog', 'all', 'others')).toBe(false);
    expect(resourceRoutes(manifest(), 'addon_catalog', 'all', 'friends')).toBe(false);
  });
});

describe('catalog helpers', () => {
  test('findCatalog returns the first of duplicates (the client merges them)', () => {
    expect(findCatalog(manifest(), 'movie', 'top')?.name).toBe('Top');
    expect(findCatalog(manifest(), 'series', 'top')).toBeUndefined();
  });

  test('isGuideCatalog: a tv catalog that declares date', () => {
    expect(isGuideCatalog({ type: 'tv', extra: [{ name: 'skip' }, { name: 'date' }] })).toBe(true);
    expect(isGuideCatalog({ type: 'tv', extra: [{ name: 'skip' }] })).toBe(false);
    expect(isGuideCatalog({ type: 'tv' })).toBe(false);
    expect(isGuideCatalog({ type: 'channel', extra: [{ name: 'date' }] })).toBe(false);
  });

  test('extraDeclared and requiredExtras', () => {
    const catalog = {
      extra: [{ name: 'search', isRequired: true }, { name: 'genre', isRequired: false }, { name: 'skip' }],
    };
    expect(extraDeclared(catalog, 'genre')).toBe(true);
    expect(extraDeclared(catalog, 'date')).toBe(false);
    expect(extraDeclared({}, 'skip')).toBe(false);
    expect(requiredExtras(catalog)).toEqual(['search']);
    expect(requiredExtras({})).toEqual([]);
  });
});
