import { describe, expect, expectTypeOf, it } from 'vitest';
import { isMarqueeError } from '../errors.js';
import { createAddon } from './create-addon.js';

const base = {
  id: 'org.test.sdk',
  version: '1.0.0',
  name: 'SDK test',
  description: 'd',
  types: ['movie', 'series'],
  catalogs: [
    {
      type: 'movie',
      id: 'top',
      name: 'Top',
      extra: [{ name: 'genre', options: ['A'], optionsLimit: 2 }, { name: 'skip' }],
    },
  ],
} as const;

describe('createAddon', () => {
  it('refuses a manifest with several mistakes, listing every one by path', () => {
    let error: unknown;
    try {
      createAddon({
        manifest: {
          id: 'bad',
          version: '1.0',
          name: 'Bad',
          description: 'd',
          resources: ['catalog'],
          types: ['tv'],
          catalogs: [
            {
              type: 'tv',
              id: 'g',
              name: 'G',
              extra: [
                { name: 'date', isRequired: true },
                { name: 'search', isRequired: true },
              ],
            },
          ],
          behaviorHints: { epgProvider: true },
        },
        handlers: {},
      });
    } catch (e) {
      error = e;
    }
    expect(isMarqueeError(error, 'INVALID_MANIFEST')).toBe(true);
    const paths = ((error as { details: { errors: { path: string }[] } }).details.errors ?? []).map((e) => e.path);
    expect(paths).toContain('$.version');
    expect(paths.some((p) => p.startsWith('$.catalogs[0]'))).toBe(true);
    expect(String((error as Error).message)).toContain('$.version');
  });

  it('routes meta and stream by types and idPrefixes and answers 404 elsewhere', async () => {
    const addon = createAddon({
      manifest: {
        ...base,
        resources: ['catalog', { name: 'meta', types: ['movie'], idPrefixes: ['tt'] }, 'stream'],
        idPrefixes: ['mq:'],
      },
      handlers: {
        catalog: () => ({ metas: [] }),
        meta: ({ id }) => ({ meta: { id, type: 'movie', name: 'M' } }),
        stream: () => null,
      },
    });
    expect((await addon.handle({ resource: 'meta', type: 'movie', id: 'tt1', extra: [] })).status).toBe(200);
    expect((await addon.handle({ resource: 'meta', type: 'movie', id: 'mq:1', extra: [] })).status).toBe(404);
    expect((await addon.handle({ resource: 'meta', type: 'series', id: 'tt1', extra: [] })).status).toBe(404);
    expect(await addon.handle({ resource: 'stream', type: 'series', id: 'mq:1', extra: [] })).toMatchObject({
      status: 200,
      body: { streams: [] },
    });
    expect((await addon.handle({ resource: 'stream', type: 'movie', id: 'tt1', extra: [] })).status).toBe(404);
  });

  it('passes repeated extras as lists up to optionsLimit and types skip as a number', async () => {
    const seen: unknown[] = [];
    const addon = createAddon({
      manifest: { ...base, resources: ['catalog'] },
      handlers: {
        catalog: ({ extra }) => {
          seen.push(extra);
          return { metas: [] };
        },
      },
    });
    const two = await addon.handle({
      resource: 'catalog',
      type: 'movie',
      id: 'top',
      extra: [
        ['genre', 'A'],
        ['genre', 'B'],
        ['skip', '230'],
      ],
    });
    expect(two.status).toBe(200);
    expect(seen[0]).toMatchObject({ skip: 230, genre: 'A', all: { genre: ['A', 'B'], skip: '230' } });
    const three = await addon.handle({
      resource: 'catalog',
      type: 'movie',
      id: 'top',
      extra: [
        ['genre', 'A'],
        ['genre', 'B'],
        ['genre', 'C'],
      ],
    });
    expect(three.status).toBe(404);
  });

  it('strips cache hints from the body and keeps them apart', async () => {
    const addon = createAddon({
      manifest: { ...base, resources: ['catalog'] },
      handlers: { catalog: () => ({ metas: [], cacheMaxAge: 60, staleError: 10 }) },
    });
    expect(await addon.handle({ resource: 'catalog', type: 'movie', id: 'top', extra: [] })).toEqual({
      status: 200,
      body: { metas: [] },
      cache: { cacheMaxAge: 60, staleError: 10 },
    });
  });

  it('refuses an answer with the wrong wrapper key', async () => {
    const addon = createAddon({
      manifest: { ...base, resources: ['catalog'] },
      handlers: { catalog: () => ({ metasDetailed: [] }) },
    });
    await expect(addon.handle({ resource: 'catalog', type: 'movie', id: 'top', extra: [] })).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
    });
  });

  it('cuts an oversized page to 100 items when response validation is off', async () => {
    const warnings: string[] = [];
    const addon = createAddon({
      manifest: { ...base, resources: ['catalog'] },
      validateResponses: false,
      onWarning: (m) => warnings.push(m),
      handlers: {
        catalog: () => ({ metas: Array.from({ length: 150 }, (_, i) => ({ id: `m${i}`, type: 'movie', name: 'x' })) }),
      },
    });
    const res = await addon.handle({ resource: 'catalog', type: 'movie', id: 'top', extra: [] });
    expect(res.status === 200 && (res.body.metas as unknown[]).length).toBe(100);
    expect(warnings).toHaveLength(1);
  });

  it('types and checks user configuration from the manifest config fields', async () => {
    const configs: unknown[] = [];
    const addon = createAddon({
      manifest: {
        ...base,
        resources: ['catalog'],
        behaviorHints: { configurable: true },
        config: [
          { key: 'lang', type: 'select', options: ['en', 'fr'], default: 'en' },
          { key: 'limit', type: 'number', required: true },
          { key: 'adult', type: 'checkbox' },
        ],
      },
      handlers: {
        catalog: ({ config }) => {
          expectTypeOf(config.lang).toEqualTypeOf<'en' | 'fr'>();
          expectTypeOf(config.limit).toEqualTypeOf<number>();
          expectTypeOf(config.adult).toEqualTypeOf<boolean>();
          configs.push(config);
          return { metas: [] };
        },
      },
    });
    const ok = await addon.handle({
      resource: 'catalog',
      type: 'movie',
      id: 'top',
      extra: [],
      config: '{"limit":"5","adult":"on"}',
    });
    expect(ok.status).toBe(200);
    expect(configs[0]).toEqual({ lang: 'en', limit: 5, adult: true });
    for (const bad of ['{"limit":"x"}', '{}', 'not json', '{"limit":1,"lang":"de"}']) {
      expect(
        (await addon.handle({ resource: 'catalog', type: 'movie', id: 'top', extra: [], config: bad })).status,
      ).toBe(404);
      expect(addon.manifestFor(bad).status).toBe(404);
    }
  });

  it('answers resources with 404 without config when configuration is required', async () => {
    const addon = createAddon({
      manifest: {
        ...base,
        resources: ['catalog'],
        behaviorHints: { configurable: true, configurationRequired: true },
        config: [{ key: 'token', type: 'password', required: true }],
      },
      handlers: { catalog: () => ({ metas: [] }) },
    });
    expect((await addon.handle({ resource: 'catalog', type: 'movie', id: 'top', extra: [] })).status).toBe(404);
    expect(
      (await addon.handle({ resource: 'catalog', type: 'movie', id: 'top', extra: [], config: '{"token":"x"}' }))
        .status,
    ).toBe(200);
    expect(addon.manifestFor().status).toBe(200);
  });
});
