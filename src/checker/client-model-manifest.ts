/**
 * How the real client reads a manifest (see client-model.ts): whether it refuses it, which
 * catalogs lose their extras, and which catalogs it never shows.
 */
import { SEMVER } from '../protocol/index.js';
import {
  absent,
  type ClientIssue,
  type Field,
  fieldIssues,
  isRecord,
  listOf,
  notObject,
  objectWith,
  optBool,
  optStr,
  preview,
  str,
} from './client-model-fields.js';

export interface ClientManifest {
  /** Why the client refuses the manifest (and so installs nothing); empty when it accepts it. */
  readonly refused: ClientIssue[];
  /** Catalogs that lose every extra because one extra entry is malformed (no paging, genres, search). */
  readonly extrasDropped: ClientIssue[];
}

const MANIFEST: readonly Field[] = [
  { name: 'id', required: true, accepts: str, wants: 'a string' },
  { name: 'name', required: true, accepts: str, wants: 'a string' },
  { name: 'version', required: true, accepts: str, wants: 'a semver string such as 1.0.0' },
  { name: 'description', accepts: optStr, wants: 'a string' },
  { name: 'contactEmail', accepts: optStr, wants: 'a string' },
  { name: 'types', required: true, accepts: (v) => Array.isArray(v) && v.every(str), wants: 'an array of strings' },
  {
    name: 'resources',
    required: true,
    accepts: (v) => Array.isArray(v) && v.every((r) => typeof r === 'string' || (isRecord(r) && str(r.name))),
    wants: 'an array of names or { name, types?, idPrefixes? } objects',
  },
  { name: 'idPrefixes', accepts: listOf(str), wants: 'an array of strings' },
  {
    name: 'catalogs',
    accepts: listOf(
      objectWith([
        { name: 'id', required: true, accepts: str, wants: 'a string' },
        { name: 'type', required: true, accepts: str, wants: 'a string' },
        { name: 'name', accepts: optStr, wants: 'a string' },
      ]),
    ),
    wants: 'an array of { type, id, name? } with string values',
  },
  {
    name: 'addonCatalogs',
    accepts: listOf(
      objectWith([
        { name: 'id', required: true, accepts: str, wants: 'a string' },
        { name: 'type', required: true, accepts: str, wants: 'a string' },
      ]),
    ),
    wants: 'an array of { type, id, name }',
  },
  {
    name: 'behaviorHints',
    accepts: (v) =>
      absent(v) ||
      objectWith(
        ['configurable', 'configurationRequired', 'adult', 'p2p'].map((name) => ({
          name,
          accepts: optBool,
          wants: 'a boolean',
        })),
      )(v),
    wants: 'an object whose configurable, configurationRequired, adult and p2p are booleans',
  },
];

const EXTRA: readonly Field[] = [
  { name: 'name', required: true, accepts: str, wants: 'a string' },
  { name: 'isRequired', accepts: optBool, wants: 'a boolean' },
  { name: 'options', accepts: listOf(str), wants: 'an array of strings' },
  {
    name: 'optionsLimit',
    accepts: (v) => absent(v) || (Number.isInteger(v) && (v as number) >= 0),
    wants: 'a whole number',
  },
];

/**
 * How the client reads a manifest: whether it refuses it, and which catalogs lose their extras.
 *
 * @example clientManifest({ id: 'a.b', name: 'A', version: '1.0', types: [], resources: [] }).refused // [{ rule: 'manifest.version', … }]
 */
export function clientManifest(raw: unknown): ClientManifest {
  if (!isRecord(raw)) {
    return { refused: [{ rule: 'manifest.object', path: '$', message: 'must be a JSON object' }], extrasDropped: [] };
  }
  const refused = fieldIssues('manifest', raw, MANIFEST, '$');
  if (typeof raw.version === 'string' && !SEMVER.test(raw.version)) {
    refused.push({
      rule: 'manifest.version',
      path: '$.version',
      message: `${preview(raw.version)} is not strict semver: write MAJOR.MINOR.PATCH such as 1.0.0`,
    });
  }
  const extrasDropped: ClientIssue[] = [];
  if (Array.isArray(raw.catalogs)) {
    raw.catalogs.forEach((catalog, i) => {
      if (!isRecord(catalog) || catalog.extra === undefined) return;
      const base = `$.catalogs[${i}].extra`;
      const issues = Array.isArray(catalog.extra)
        ? catalog.extra.flatMap((extra, j) =>
            isRecord(extra)
              ? fieldIssues('extra', extra, EXTRA, `${base}[${j}]`)
              : notObject('extra', `${base}[${j}]`, extra),
          )
        : [{ rule: 'extra.array', path: base, message: 'must be an array of extra objects' }];
      const first = issues[0];
      if (first) extrasDropped.push({ ...first, rule: 'catalog.extra', message: `${first.message}` });
    });
  }
  return { refused, extrasDropped };
}

/**
 * Catalogs the client never shows: a required extra without options leaves it off Board and out
 * of Discover (search is the documented exception, a search-only catalog; the client disregards
 * a required skip).
 *
 * @example clientHiddenCatalogs({ catalogs: [{ type: 'tv', id: 'g', extra: [{ name: 'date', isRequired: true }] }] }) // [{ rule: 'catalog.hidden', … }]
 */
export function clientHiddenCatalogs(raw: unknown): ClientIssue[] {
  if (!isRecord(raw) || !Array.isArray(raw.catalogs)) return [];
  const out: ClientIssue[] = [];
  raw.catalogs.forEach((catalog, i) => {
    if (!isRecord(catalog) || !Array.isArray(catalog.extra)) return;
    catalog.extra.forEach((extra, j) => {
      if (!isRecord(extra) || extra.isRequired !== true || extra.name === 'search' || extra.name === 'skip') return;
      if (Array.isArray(extra.options) && extra.options.length > 0) return;
      out.push({
        rule: 'catalog.hidden',
        path: `$.catalogs[${i}].extra[${j}].isRequired`,
        message: `the required extra ${preview(extra.name)} has no options: make it optional, or list options (the first is the default)`,
      });
    });
  });
  return out;
}
