import * as v from 'valibot';
import { describe, expect, expectTypeOf, test } from 'vitest';
import type { Issue } from '../errors.js';
import {
  type Catalog,
  type ExtraPairs,
  findCatalog,
  type Manifest,
  type ManifestReport,
  ManifestSchema,
  type Meta,
  type MetaPreview,
  MetaSchema,
  parseAddonPath,
  type Resource,
  type ResponseIssue,
  type Stream,
  type Video,
  validateManifest,
  validateResponse,
  type WrapperKey,
} from './index.js';

// Types are inferred from the schemas, never written twice; these tests fail to compile (under
// `npm run typecheck`) when an inferred type drifts, and the runtime lines keep vitest honest.

describe('inferred protocol types', () => {
  test('a manifest: required and optional fields, string-or-object resources', () => {
    expectTypeOf<Manifest['id']>().toEqualTypeOf<string>();
    expectTypeOf<Manifest['catalogs']>().toEqualTypeOf<Catalog[]>();
    expectTypeOf<Manifest['idPrefixes']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Resource>().toExtend<string | { name: string; types?: string[]; idPrefixes?: string[] }>();
    expectTypeOf<NonNullable<Manifest['behaviorHints']>['epgProvider']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<v.InferOutput<typeof ManifestSchema>>().toEqualTypeOf<Manifest>();
    expect(
      v.is(ManifestSchema, {
        id: 'a.b',
        name: 'n',
        description: '',
        version: '1.0.0',
        resources: [],
        types: [],
        catalogs: [],
      }),
    ).toBe(true);
  });

  test('catalog extras', () => {
    type Extra = NonNullable<Catalog['extra']>[number];
    expectTypeOf<Extra['name']>().toEqualTypeOf<string>();
    expectTypeOf<Extra['isRequired']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Extra['options']>().toEqualTypeOf<string[] | undefined>();
  });

  test('metas, videos and streams', () => {
    expectTypeOf<MetaPreview['posterShape']>().toEqualTypeOf<'square' | 'poster' | 'landscape' | undefined>();
    expectTypeOf<Meta['videos']>().toEqualTypeOf<Video[] | undefined>();
    expectTypeOf<Video['startTime']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Stream['url']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<Stream['behaviorHints']>['notWebReady']>().toEqualTypeOf<boolean | undefined>();
    // A meta is a preview plus details: anything typed as Meta can stand where a preview is expected.
    expectTypeOf<Meta>().toExtend<MetaPreview>();
    expect(v.is(MetaSchema, { id: 'x', type: 'tv', name: 'X' })).toBe(true);
  });

  test('validators and the path codec', () => {
    expectTypeOf(validateManifest).returns.toEqualTypeOf<ManifestReport>();
    expectTypeOf<ManifestReport['manifest']>().toEqualTypeOf<Manifest | undefined>();
    expectTypeOf<ManifestReport['errors']>().toEqualTypeOf<Issue[]>();
    expectTypeOf(validateResponse).returns.toEqualTypeOf<ResponseIssue[]>();
    expectTypeOf<ResponseIssue>().toExtend<Issue>();
    expectTypeOf<ResponseIssue['severity']>().toEqualTypeOf<'error' | 'warning'>();
    expectTypeOf<WrapperKey>().toEqualTypeOf<'metas' | 'metasDetailed' | 'meta' | 'streams' | 'subtitles' | 'addons'>();
    expectTypeOf(parseAddonPath).returns.toExtend<{ kind: 'manifest' | 'resource' } | undefined>();
    expectTypeOf<ExtraPairs[number]>().toEqualTypeOf<readonly [name: string, value: string]>();
    const parsed = parseAddonPath('/meta/tv/x.json');
    if (parsed?.kind === 'resource') expectTypeOf(parsed.path.extra).toEqualTypeOf<ExtraPairs>();
    expect(parsed?.kind).toBe('resource');
  });

  test('findCatalog keeps the caller’s catalog type', () => {
    const manifest = { catalogs: [{ type: 'movie', id: 'top', name: 'Top', extra: [{ name: 'skip' }] }] };
    const catalog = findCatalog(manifest, 'movie', 'top');
    expectTypeOf(catalog).toEqualTypeOf<(typeof manifest.catalogs)[number] | undefined>();
    expect(catalog?.name).toBe('Top');
  });
});
