import * as v from 'valibot';
import type { Issue } from '../errors.js';
import { SEMVER } from './common.js';
import { type Manifest, ManifestSchema } from './manifest.js';
import { checkCatalogs } from './manifest-catalog-rules.js';
import { checkConfig } from './manifest-config-rules.js';
import { arrayOf, type Collector, collector, isRecord, type Json, quote, type Report, stringsOf } from './report.js';
import { RESOURCE_NAMES } from './resource.js';
import { schemaIssues } from './schema-issues.js';

/**
 * Manifest validation: the schema (shape) plus every rule of the spec's "Manifest rules" and
 * "Extra rules" and what the real client does. All problems are reported at once, each with its
 * JSON path; errors make the add-on refuse to start, warnings are printed.
 */

export interface ManifestReport extends Report {
  /** The parsed manifest, present only when there are no errors. */
  readonly manifest?: Manifest;
}

export interface ValidateManifestOptions {
  /** The add-on serves its own /configure page, so `configurable` needs no `config` fields. */
  readonly hasConfigurePage?: boolean;
}

/** The official SDK refuses manifests above this size (the add-on collection API limit). */
export const MAX_MANIFEST_BYTES = 8192;

const KNOWN_RESOURCES: ReadonlySet<string> = new Set(RESOURCE_NAMES);
const DOTTED_ID = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Validate a manifest and report every problem at once.
 *
 * @example
 * const { manifest, errors, warnings } = validateManifest(JSON.parse(text));
 * if (!manifest) throw new MarqueeError('INVALID_MANIFEST', errors.map((e) => `${e.path}: ${e.message}`).join('\n'));
 */
export function validateManifest(input: unknown, options: ValidateManifestOptions = {}): ManifestReport {
  const report: Report = { errors: [], warnings: [] };
  if (!isRecord(input)) {
    report.errors.push({ path: '$', message: 'the manifest must be a JSON object' });
    return report;
  }
  const parsed = v.safeParse(ManifestSchema, input, { abortEarly: false });
  if (!parsed.success) report.errors.push(...schemaIssues(parsed.issues, '$').map(explainMissing));

  const out = collector(report);
  checkIdentity(input, out);
  checkResources(input, out);
  const { guideCatalogs } = checkCatalogs(input, out);
  checkGuide(input, guideCatalogs, out);
  checkCatalogResource(input, out);
  checkAddonCatalogs(input, out);
  checkConfig(input, out, options.hasConfigurePage === true);
  checkSize(input, out);

  return parsed.success && report.errors.length === 0 ? { ...report, manifest: parsed.output } : report;
}

/** Missing top-level fields get a hint on what to write. */
function explainMissing(issue: Issue): Issue {
  if (issue.path === '$.catalogs' && issue.message === 'is required: add it') {
    return { ...issue, message: 'is required: use `catalogs: []` when the add-on has no catalog' };
  }
  return issue;
}

function checkIdentity(m: Json, out: Collector): void {
  if (typeof m.version === 'string' && !SEMVER.test(m.version)) {
    out.error(
      '$.version',
      `${quote(m.version)} is not strict semver: write MAJOR.MINOR.PATCH such as 1.0.0`,
      'the client refuses to install the add-on',
    );
  }
  if (typeof m.id === 'string' && m.id !== '' && !DOTTED_ID.test(m.id)) {
    out.warning('$.id', `${quote(m.id)} should be a dot-separated identifier such as org.example.movies`);
  }
  if (typeof m.contactEmail === 'string' && !EMAIL.test(m.contactEmail)) {
    out.warning(
      '$.contactEmail',
      `${quote(m.contactEmail)} does not look like an e-mail address (name@example.org)`,
      "the client's report button cannot reach you",
    );
  }
}

/** The name of a resource entry, whichever of the two forms it takes. */
function resourceName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  return isRecord(entry) && typeof entry.name === 'string' ? entry.name : undefined;
}

/** Index of the first resource entry with this name, or -1. */
function resourceIndex(m: Json, name: string): number {
  return arrayOf(m.resources).findIndex((entry) => resourceName(entry) === name);
}

function checkResources(m: Json, out: Collector): void {
  if (!Array.isArray(m.resources)) return;
  const types = new Set(stringsOf(m.types));
  if (m.resources.length === 0) {
    out.warning(
      '$.resources',
      'declares no resources: add the ones the add-on serves (catalog, meta, stream, subtitles, addon_catalog)',
      'the client never requests anything from this add-on',
    );
  }
  if (Array.isArray(m.idPrefixes) && m.idPrefixes.length === 0) {
    out.warning(
      '$.idPrefixes',
      'is empty and matches no id: remove it to match every id, or list the prefixes your ids start with',
      'the client never asks this add-on for meta, stream or subtitles declared as plain strings',
    );
  }
  m.resources.forEach((entry, i) => {
    const name = resourceName(entry);
    if (name === undefined) return;
    const path = typeof entry === 'string' ? `$.resources[${i}]` : `$.resources[${i}].name`;
    if (!KNOWN_RESOURCES.has(name)) {
      out.warning(
        path,
        `${quote(name)} is not a resource the client knows (${RESOURCE_NAMES.join(', ')})`,
        'the client never requests it',
      );
    }
    if (!isRecord(entry)) return;
    if (entry.types === undefined) {
      out.warning(
        `$.resources[${i}].types`,
        'is missing: a resource object needs its own types (the manifest-level types do not apply to it)',
        'the client never requests this resource',
      );
    }
    arrayOf(entry.types).forEach((type, j) => {
      if (typeof type === 'string' && !types.has(type)) {
        out.warning(`$.resources[${i}].types[${j}]`, `${quote(type)} is not listed in $.types: add it there`);
      }
    });
    if (Array.isArray(entry.idPrefixes) && entry.idPrefixes.length === 0) {
      out.warning(
        `$.resources[${i}].idPrefixes`,
        'is empty and matches no id: remove it to match every id of this resource’s types',
        'the client never requests this resource',
      );
    }
    if (name === 'catalog' && entry.idPrefixes !== undefined) {
      out.warning(
        `$.resources[${i}].idPrefixes`,
        'idPrefixes do not apply to catalogs (every declared catalog is requested): remove it',
      );
    }
  });
}

function checkGuide(m: Json, guideCatalogs: readonly string[], out: Collector): void {
  if (!Array.isArray(m.catalogs)) return; // without a catalog list, "no guide catalog" would be noise
  const epgProvider = isRecord(m.behaviorHints) ? m.behaviorHints.epgProvider : undefined;
  if (epgProvider === true && guideCatalogs.length === 0) {
    out.error(
      '$.behaviorHints.epgProvider',
      'is true but no catalog is a guide catalog: add { name: "date" } to the extra of a tv catalog, or remove epgProvider',
      'the client offers a programme guide that has no data',
    );
  }
  if (epgProvider !== true && guideCatalogs.length > 0) {
    out.warning(
      '$.behaviorHints.epgProvider',
      `${guideCatalogs.join(', ')} declare${guideCatalogs.length === 1 ? 's' : ''} the date extra of a guide: set behaviorHints.epgProvider: true`,
      'the client does not show the programme guide; the catalog works as a plain channel list',
    );
  }
}

function checkCatalogResource(m: Json, out: Collector): void {
  if (!Array.isArray(m.resources)) return; // its schema issue says it all
  const catalogs = arrayOf(m.catalogs);
  const resource = resourceIndex(m, 'catalog');
  if (catalogs.length > 0 && resource === -1) {
    out.error(
      '$.catalogs',
      `lists ${catalogs.length} catalog(s) but resources has no "catalog": add "catalog" to resources`,
      'clients that route requests by resources never request these catalogs',
    );
  }
  if (Array.isArray(m.catalogs) && catalogs.length === 0 && resource !== -1) {
    out.warning(
      pathOfResource(m, resource),
      'declares the catalog resource but catalogs is empty: add a catalog or remove the resource',
    );
  }
}

function checkAddonCatalogs(m: Json, out: Collector): void {
  if (!Array.isArray(m.resources)) return;
  const list = arrayOf(m.addonCatalogs);
  const resource = resourceIndex(m, 'addon_catalog');
  if (list.length > 0 && resource === -1) {
    out.error(
      '$.addonCatalogs',
      `lists ${list.length} add-on catalog(s) but resources has no "addon_catalog": add it`,
      'the client never requests these add-on catalogs',
    );
  }
  if (list.length === 0 && resource !== -1) {
    out.warning(
      pathOfResource(m, resource),
      'declares addon_catalog but addonCatalogs is empty: list an add-on catalog or remove the resource',
    );
  }
  const seen = new Map<string, number>();
  list.forEach((entry, i) => {
    if (!isRecord(entry) || typeof entry.type !== 'string' || typeof entry.id !== 'string') return;
    const key = `${entry.type}/${entry.id}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else {
      out.warning(
        `$.addonCatalogs[${i}]`,
        `repeats add-on catalog ${quote(key)} of $.addonCatalogs[${first}]: give it a unique id`,
        'the client merges them into one',
      );
    }
  });
}

/** Path of the resource entry at `index`, pointing at its name for objects. */
function pathOfResource(m: Json, index: number): string {
  return isRecord(arrayOf(m.resources)[index]) ? `$.resources[${index}].name` : `$.resources[${index}]`;
}

function checkSize(m: Json, out: Collector): void {
  let text: string;
  try {
    text = JSON.stringify(m);
  } catch {
    out.error('$', 'the manifest cannot be serialised to JSON (a cycle or a BigInt): use plain JSON values');
    return;
  }
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_MANIFEST_BYTES) {
    out.warning(
      '$',
      `the manifest is ${bytes} bytes; keep it under ${MAX_MANIFEST_BYTES} (shorten genre options, descriptions)`,
      'add-on collections and the official SDK refuse manifests this large',
    );
  }
}
