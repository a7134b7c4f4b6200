import { describe, expect, expectTypeOf, test } from 'vitest';
import type { Manifest } from '../protocol/manifest.js';
import { createAddon } from './create-addon.js';
import type { CatalogExtra, CatalogExtraFor, DeclaredExtraNames } from './types.js';

// The handlers' `extra` is typed from the manifest's catalogs: an extra no catalog declares is a
// compile error (under `npm run typecheck`); the runtime lines show the add-on answers as typed.

const films = {
  id: 'org.test.types',
  version: '1.0.0',
  name: 'Types',
  description: '',
  resources: ['catalog'],
  types: ['movie'],
  catalogs: [
    { type: 'movie', id: 'films', name: 'Films', extra: [{ name: 'genre', options: ['Drama'] }, { name: 'skip' }] },
  ],
} as const;

describe("catalog handlers' extra", () => {
  test('names what the catalogs declare', () => {
    expectTypeOf<DeclaredExtraNames<typeof films>>().toEqualTypeOf<'genre' | 'skip'>();
    expectTypeOf<CatalogExtraFor<'genre' | 'skip'>>().toEqualTypeOf<Pick<CatalogExtra, 'skip' | 'all' | 'genre'>>();
    // A manifest whose catalogs are not known at compile time keeps every extra.
    expectTypeOf<CatalogExtraFor<DeclaredExtraNames<Manifest>>>().toEqualTypeOf<CatalogExtra>();
  });

  test('an undeclared extra is a type error; a declared one is typed', async () => {
    const seen: unknown[] = [];
    const addon = createAddon({
      manifest: films,
      handlers: {
        catalog: ({ extra }) => {
          expectTypeOf(extra.genre).toEqualTypeOf<string | undefined>();
          expectTypeOf(extra.skip).toEqualTypeOf<number>();
          // @ts-expect-error no catalog of this manifest declares search
          seen.push(extra.search);
          // @ts-expect-error nor date
          seen.push(extra.date);
          return { metas: [] };
        },
      },
    });
    const answer = await addon.handle({ resource: 'catalog', type: 'movie', id: 'films', extra: [['genre', 'Drama']] });
    expect(answer.status).toBe(200);
    expect(seen).toEqual([undefined, undefined]);
  });

  test('an extra declared by one of several catalogs can be read by the shared handler', () => {
    createAddon({
      manifest: {
        ...films,
        catalogs: [...films.catalogs, { type: 'movie', id: 'search', name: 'Search', extra: [{ name: 'search' }] }],
      },
      handlers: {
        catalog: ({ extra }) => {
          expectTypeOf(extra.search).toEqualTypeOf<string | undefined>();
          return { metas: [] };
        },
      },
    });
  });
});
