import { describe, expect, test } from 'vitest';
import { validateManifest } from './validate-manifest.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests mutate fixtures into shapes no type allows.
type Json = Record<string, any>;

/** A manifest using every feature correctly: movies with genre/search/skip, a guide, config, add-on catalogs. */
function full(): Json {
  return {
    id: 'org.marquee.test',
    version: '1.2.3-beta.1',
    name: 'Marquee test',
    description: 'Movies and a programme guide',
    logo: 'https://example.org/logo.png',
    background: 'https://example.org/background.jpg',
    contactEmail: 'ops@example.org',
    types: ['movie', 'tv'],
    idPrefixes: ['mq:'],
    resources: [
      'catalog',
      'meta',
      { name: 'stream', types: ['movie', 'tv'], idPrefixes: ['mq:', 'mq-tv:'] },
      'addon_catalog',
    ],
    catalogs: [
      {
        type: 'movie',
        id: 'top',
        name: 'Top',
        genres: ['Rock & Roll', 'Drama'],
        extra: [
          { name: 'genre', options: ['Rock & Roll', 'Drama'], optionsLimit: 1 },
          { name: 'search' },
          { name: 'skip' },
        ],
      },
      { type: 'movie', id: 'search-only', name: 'Search', extra: [{ name: 'search', isRequired: true }] },
      { type: 'tv', id: 'channels', name: 'Channels', extra: [{ name: 'date' }, { name: 'skip' }] },
    ],
    addonCatalogs: [{ type: 'all', id: 'friends', name: 'Friends' }],
    config: [
      { key: 'region', type: 'select', title: 'Region', options: ['uk', 'de'], default: 'uk' },
      { key: 'token', type: 'password', required: true },
      { key: 'hd', type: 'checkbox', default: 'checked' },
      { key: 'limit', type: 'number', default: '10', required: false },
    ],
    behaviorHints: { configurable: true, epgProvider: true },
  };
}

type Found = Array<[severity: 'error' | 'warning', path: string]>;

function found(input: unknown, options?: { hasConfigurePage?: boolean }): Found {
  const report = validateManifest(input, options);
  return [
    ...report.errors.map((i): Found[number] => ['error', i.path]),
    ...report.warnings.map((i): Found[number] => ['warning', i.path]),
  ];
}

function mutated(change: (m: Json) => void): Json {
  const m = full();
  change(m);
  return m;
}

describe('validateManifest', () => {
  test('a full, correct manifest has no issues and is returned parsed', () => {
    const report = validateManifest(full());
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.manifest?.catalogs).toHaveLength(3);
  });

  test('a minimal manifest with catalogs: [] and no catalog resource is valid', () => {
    const minimal = {
      id: 'org.x.y',
      version: '0.0.1',
      name: 'X',
      description: '',
      resources: ['stream'],
      types: ['movie'],
      catalogs: [],
    };
    expect(found(minimal)).toEqual([]);
  });

  test('input that is not an object is one error at $', () => {
    for (const input of [null, [], 'manifest', 3]) {
      const report = validateManifest(input);
      expect(report.manifest).toBeUndefined();
      expect(found(input)).toEqual([['error', '$']]);
    }
  });

  test.each(['id', 'name', 'description', 'version', 'resources', 'types'])('missing %s is an error', (field) => {
    const report = validateManifest(mutated((m) => delete m[field]));
    expect(report.errors).toEqual([{ path: `$.${field}`, message: 'is required: add it' }]);
    expect(report.manifest).toBeUndefined();
  });

  test('missing catalogs is an error that says to write catalogs: []', () => {
    const report = validateManifest(mutated((m) => delete m.catalogs));
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]?.path).toBe('$.catalogs');
    expect(report.errors[0]?.message).toContain('catalogs: []');
  });

  test('warnings alone still return the manifest', () => {
    const report = validateManifest(mutated((m) => (m.id = 'marquee')));
    expect(report.errors).toEqual([]);
    expect(report.warnings.map((w) => w.path)).toEqual(['$.id']);
    expect(report.manifest?.id).toBe('marquee');
  });

  const rules: Array<[rule: string, change: (m: Json) => void, expected: Found]> = [
    ['version 1.0 is not strict semver', (m) => (m.version = '1.0'), [['error', '$.version']]],
    ['version v1.0.0 is not strict semver', (m) => (m.version = 'v1.0.0'), [['error', '$.version']]],
    ['id that is not dot-separated', (m) => (m.id = 'my addon'), [['warning', '$.id']]],
    ['a wrong field type', (m) => (m.name = 5), [['error', '$.name']]],
    ['a resource that is neither a string nor an object', (m) => m.resources.push(5), [['error', '$.resources[4]']]],
    ['a resource object without name', (m) => delete m.resources[2].name, [['error', '$.resources[2].name']]],
    ['a resource object without types', (m) => delete m.resources[2].types, [['warning', '$.resources[2].types']]],
    [
      'a resource object with idPrefixes: []',
      (m) => (m.resources[2].idPrefixes = []),
      [['warning', '$.resources[2].idPrefixes']],
    ],
    ['manifest-level idPrefixes: []', (m) => (m.idPrefixes = []), [['warning', '$.idPrefixes']]],
    ['an unknown resource name', (m) => m.resources.push('posters'), [['warning', '$.resources[4]']]],
    [
      'an unknown resource name in an object',
      (m) => m.resources.push({ name: 'poster', types: ['movie'] }),
      [['warning', '$.resources[4].name']],
    ],
    [
      'a resource type missing from types',
      (m) => m.resources[2].types.push('series'),
      [['warning', '$.resources[2].types[2]']],
    ],
    [
      'idPrefixes on the catalog resource',
      (m) => (m.resources[0] = { name: 'catalog', types: ['movie', 'tv'], idPrefixes: ['mq:'] }),
      [['warning', '$.resources[0].idPrefixes']],
    ],
    [
      'no resources at all',
      (m) => (m.resources = []),
      [
        ['error', '$.catalogs'],
        ['error', '$.addonCatalogs'],
        ['warning', '$.resources'],
      ],
    ],
    ['catalogs listed without the catalog resource', (m) => m.resources.shift(), [['error', '$.catalogs']]],
    [
      'the catalog resource with catalogs: []',
      (m) => {
        m.catalogs = [];
        delete m.behaviorHints.epgProvider;
      },
      [['warning', '$.resources[0]']],
    ],
    ['a catalog without name', (m) => delete m.catalogs[0].name, [['error', '$.catalogs[0].name']]],
    ['a catalog with an empty id', (m) => (m.catalogs[0].id = ''), [['error', '$.catalogs[0].id']]],
    ['a duplicate catalog type and id', (m) => m.catalogs.push({ ...m.catalogs[1] }), [['warning', '$.catalogs[3]']]],
    [
      'a duplicate extra name',
      (m) => m.catalogs[0].extra.push({ name: 'search' }),
      [['warning', '$.catalogs[0].extra[3].name']],
    ],
    [
      'two required extras in one catalog',
      (m) => m.catalogs[1].extra.push({ name: 'genre', isRequired: true, options: ['Drama'] }),
      [['error', '$.catalogs[1].extra[1].isRequired']],
    ],
    [
      'a required date',
      (m) => (m.catalogs[2].extra[0].isRequired = true),
      [['error', '$.catalogs[2].extra[0].isRequired']],
    ],
    [
      'date on a movie catalog',
      (m) => m.catalogs[0].extra.push({ name: 'date' }),
      [['error', '$.catalogs[0].extra[3].name']],
    ],
    [
      'epgProvider without a guide catalog',
      (m) => m.catalogs[2].extra.shift(),
      [['error', '$.behaviorHints.epgProvider']],
    ],
    [
      'a guide catalog without epgProvider',
      (m) => delete m.behaviorHints.epgProvider,
      [['warning', '$.behaviorHints.epgProvider']],
    ],
    ['a guide catalog without skip', (m) => m.catalogs[2].extra.pop(), [['warning', '$.catalogs[2].extra']]],
    [
      'a genre extra without options (and catalog genres not mirrored)',
      (m) => delete m.catalogs[0].extra[0].options,
      [
        ['warning', '$.catalogs[0].extra[0].options'],
        ['warning', '$.catalogs[0].genres'],
      ],
    ],
    [
      'a genre extra with options: []',
      (m) => {
        m.catalogs[0].extra[0].options = [];
        delete m.catalogs[0].genres;
      },
      [['warning', '$.catalogs[0].extra[0].options']],
    ],
    [
      'a catalog genre missing from the options',
      (m) => m.catalogs[0].genres.push('Jazz'),
      [['warning', '$.catalogs[0].genres[2]']],
    ],
    [
      'catalog genres without a genre extra',
      (m) => (m.catalogs[1].genres = ['Drama']),
      [['warning', '$.catalogs[1].genres']],
    ],
    [
      'a required extra without options that is not search',
      (m) => (m.catalogs[1].extra = [{ name: 'year', isRequired: true }]),
      [['warning', '$.catalogs[1].extra[0].options']],
    ],
    [
      'a required genre without options is reported once',
      (m) => (m.catalogs[1].extra = [{ name: 'genre', isRequired: true }]),
      [['warning', '$.catalogs[1].extra[0].options']],
    ],
    [
      'a required skip',
      (m) => (m.catalogs[0].extra[2].isRequired = true),
      [['warning', '$.catalogs[0].extra[2].isRequired']],
    ],
    [
      'optionsLimit 0',
      (m) => (m.catalogs[0].extra[0].optionsLimit = 0),
      [['error', '$.catalogs[0].extra[0].optionsLimit']],
    ],
    [
      'optionsLimit 1.5',
      (m) => (m.catalogs[0].extra[0].optionsLimit = 1.5),
      [['error', '$.catalogs[0].extra[0].optionsLimit']],
    ],
    ['an extra without name', (m) => delete m.catalogs[0].extra[1].name, [['error', '$.catalogs[0].extra[1].name']]],
    ['an unknown config field type', (m) => (m.config[1].type = 'email'), [['error', '$.config[1].type']]],
    ['a select without options', (m) => delete m.config[0].options, [['error', '$.config[0].options']]],
    ['a select with options: []', (m) => (m.config[0].options = []), [['error', '$.config[0].options']]],
    ['a select default outside the options', (m) => (m.config[0].default = 'fr'), [['error', '$.config[0].default']]],
    ['required on a checkbox', (m) => (m.config[2].required = true), [['warning', '$.config[2].required']]],
    ['required on a select', (m) => (m.config[0].required = true), [['warning', '$.config[0].required']]],
    ['a duplicate config key', (m) => (m.config[3].key = 'region'), [['error', '$.config[3].key']]],
    ['options on a text field', (m) => (m.config[1].options = ['a']), [['warning', '$.config[1].options']]],
    [
      'a checkbox default other than checked',
      (m) => (m.config[2].default = 'true'),
      [['warning', '$.config[2].default']],
    ],
    [
      'a number default that is not a number',
      (m) => (m.config[3].default = 'ten'),
      [['warning', '$.config[3].default']],
    ],
    ['configurable without config', (m) => delete m.config, [['warning', '$.behaviorHints.configurable']]],
    [
      'configurationRequired without config',
      (m) => {
        delete m.config;
        m.behaviorHints = { epgProvider: true, configurationRequired: true };
      },
      [['warning', '$.behaviorHints.configurationRequired']],
    ],
    [
      'config without configurable',
      (m) => delete m.behaviorHints.configurable,
      [['warning', '$.behaviorHints.configurable']],
    ],
    [
      'a behaviour hint that is not a boolean',
      (m) => (m.behaviorHints.configurable = 'yes'),
      [
        ['error', '$.behaviorHints.configurable'],
        ['warning', '$.behaviorHints.configurable'],
      ],
    ],
    ['addonCatalogs without the addon_catalog resource', (m) => m.resources.pop(), [['error', '$.addonCatalogs']]],
    [
      'the addon_catalog resource without addonCatalogs',
      (m) => delete m.addonCatalogs,
      [['warning', '$.resources[3]']],
    ],
    [
      'a duplicate add-on catalog',
      (m) => m.addonCatalogs.push({ ...m.addonCatalogs[0] }),
      [['warning', '$.addonCatalogs[1]']],
    ],
    ['a relative logo', (m) => (m.logo = '/logo.png'), [['error', '$.logo']]],
    ['a relative background', (m) => (m.background = 'background.jpg'), [['error', '$.background']]],
    [
      'a contactEmail that is not an address',
      (m) => (m.contactEmail = 'ops at example'),
      [['warning', '$.contactEmail']],
    ],
    [
      'a manifest over 8 KB',
      (m) => m.catalogs[0].extra[0].options.push(...Array.from({ length: 800 }, (_, i) => `Genre ${i}`)),
      [['warning', '$']],
    ],
  ];

  test.each(rules)('%s', (_rule, change, expected) => {
    expect(found(mutated(change))).toEqual(expected);
  });

  test('a custom configure page satisfies configurable and configurationRequired', () => {
    const m = mutated((x) => {
      delete x.config;
      x.behaviorHints.configurationRequired = true;
    });
    expect(found(m)).toEqual([
      ['warning', '$.behaviorHints.configurable'],
      ['warning', '$.behaviorHints.configurationRequired'],
    ]);
    expect(found(m, { hasConfigurePage: true })).toEqual([]);
  });

  test('every issue says what to do, and client consequences name the client', () => {
    const report = validateManifest(mutated((m) => m.catalogs[1].extra.push({ name: 'genre', isRequired: true })));
    const issue = report.errors[0]!;
    expect(issue.message).toContain('at most one extra');
    expect(issue.effect).toBe('the client ignores this catalog');
  });

  test('messages quote user values but do not grow with them', () => {
    const report = validateManifest(mutated((m) => (m.version = '9'.repeat(100_000))));
    expect(report.errors.map((e) => e.path)).toEqual(['$.version']);
    expect(report.errors[0]!.message.length).toBeLessThan(200);
  });

  test('a manifest with several mistakes reports every one at once', () => {
    const m = mutated((x) => {
      x.version = '1.0';
      delete x.description;
      x.resources[2] = { name: 'stream' };
      x.catalogs[0].extra[0].optionsLimit = 0;
      x.catalogs[1].extra.push({ name: 'genre', isRequired: true, options: ['Drama'] });
      x.catalogs[2].extra[0].isRequired = true;
      x.config[0].default = 'fr';
      x.config[2].required = true;
      x.logo = 'logo.png';
    });
    const report = validateManifest(m);
    expect(report.manifest).toBeUndefined();
    expect(report.errors.map((e) => e.path).sort()).toEqual(
      [
        '$.description',
        '$.version',
        '$.logo',
        '$.catalogs[0].extra[0].optionsLimit',
        '$.catalogs[1].extra[1].isRequired',
        '$.catalogs[2].extra[0].isRequired',
        '$.config[0].default',
      ].sort(),
    );
    expect(report.warnings.map((w) => w.path).sort()).toEqual(['$.config[2].required', '$.resources[2].types'].sort());
  });
});
