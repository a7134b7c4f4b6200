/**
 * The served manifest's history. Installed clients keep the manifest they installed: a catalog,
 * genre, type or id prefix added later is not seen (new ids are not even routed) until the user
 * reinstalls. So each manifest the server builds is compared with the last one recorded; when
 * what routes or lists content changed, its `version` is bumped (minor) and the change is kept
 * with what was added and removed, for the log and for `marquee status`.
 */
import type { Manifest } from '../protocol/manifest.js';
import type { Store } from './store.js';

/** One recorded change of the served manifest. */
export interface ManifestChange {
  /** Epoch ms when the server first built the changed manifest. */
  readonly at: number;
  /** The version served from then on. */
  readonly version: string;
  /** What clients that installed before do not see: `genre Horror in catalog movie/movies`, … */
  readonly added: readonly string[];
  /** What they still ask for: `id prefix kitsu: of stream`, … */
  readonly removed: readonly string[];
}

/** What `recordManifest` decided: the version to serve, and the change when there was one. */
export interface ManifestRecord {
  readonly version: string;
  readonly change?: ManifestChange;
}

/**
 * The parts of a manifest an installed client acts on, one line each, sorted: types, resources
 * with their types and id prefixes, catalogs with their extras and options, add-on catalogs,
 * config fields. Name, description, logo and version are left out: they change nothing a client
 * routes.
 *
 * @example manifestFacts(manifest) // ['catalog movie/movies', 'genre Drama in catalog movie/movies', …]
 */
export function manifestFacts(manifest: Manifest): string[] {
  const facts = new Set<string>();
  for (const type of manifest.types) facts.add(`type ${type}`);
  for (const prefix of manifest.idPrefixes ?? []) facts.add(`id prefix ${prefix}`);
  for (const r of manifest.resources) {
    if (typeof r === 'string') {
      facts.add(`resource ${r}`);
      continue;
    }
    facts.add(`resource ${r.name}`);
    for (const type of r.types ?? []) facts.add(`type ${type} of ${r.name}`);
    for (const prefix of r.idPrefixes ?? []) facts.add(`id prefix ${prefix} of ${r.name}`);
  }
  for (const c of manifest.catalogs) {
    const name = `catalog ${c.type}/${c.id}`;
    facts.add(name);
    for (const e of c.extra ?? []) {
      facts.add(`extra ${e.name}${e.isRequired ? ' (required)' : ''} in ${name}`);
      for (const option of e.options ?? []) facts.add(`${e.name} ${option} in ${name}`);
    }
  }
  for (const c of manifest.addonCatalogs ?? []) facts.add(`add-on catalog ${c.type}/${c.id}`);
  for (const f of manifest.config ?? []) facts.add(`setting ${f.key} (${f.type})`);
  return [...facts].sort();
}

/** `1.4.2` → `1.5.0`; a version that is not x.y.z gets `.1` (then `.2`, …). */
export function bumpMinor(version: string): string {
  const semver = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (semver) return `${semver[1]}.${Number(semver[2]) + 1}.0`;
  const counted = /^(.*)\.(\d+)$/.exec(version);
  return counted ? `${counted[1]}.${Number(counted[2]) + 1}` : `${version}.1`;
}

interface Row {
  at: number;
  base_version: string;
  version: string;
  facts: string;
  added: string;
  removed: string;
}

/**
 * Compare `manifest` (built with the operator's version) with the last one recorded and return
 * the version to serve. Same facts: the version served before. Changed facts: that version bumped
 * (minor), recorded with what was added and removed. A new operator version starts over from it
 * (the operator changed it on purpose), and a change then is still recorded.
 *
 * @example const { version, change } = recordManifest(store, manifest); if (change) log.warn(describeManifestChange(change))
 */
export function recordManifest(store: Store, manifest: Manifest, now: number = Date.now()): ManifestRecord {
  const facts = manifestFacts(manifest);
  const last = lastRow(store);
  const sameFacts = last !== undefined && last.facts === JSON.stringify(facts);
  if (last !== undefined && last.base_version === manifest.version && sameFacts) return { version: last.version };
  const before: string[] = last ? (JSON.parse(last.facts) as string[]) : [];
  const added = last ? facts.filter((f) => !before.includes(f)) : [];
  const removed = last ? before.filter((f) => !facts.includes(f)) : [];
  const version =
    last === undefined || last.base_version !== manifest.version ? manifest.version : bumpMinor(last.version);
  const writer = store.context.openWriter(5_000, 1_024);
  try {
    writer
      .prepare(
        'INSERT INTO manifest_versions (at, base_version, version, facts, added, removed) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(now, manifest.version, version, JSON.stringify(facts), JSON.stringify(added), JSON.stringify(removed));
  } finally {
    writer.close();
  }
  const changed = added.length > 0 || removed.length > 0;
  return changed ? { version, change: { at: now, version, added, removed } } : { version };
}

function lastRow(store: Store): Row | undefined {
  return store.context.db.prepare('SELECT * FROM manifest_versions ORDER BY id DESC LIMIT 1').get() as Row | undefined;
}

/** The recorded changes of the served manifest, newest first (at most `limit`, default 20). */
export function manifestChanges(store: Store, limit = 20): ManifestChange[] {
  const rows = store.context.db
    .prepare("SELECT * FROM manifest_versions WHERE added != '[]' OR removed != '[]' ORDER BY id DESC LIMIT ?")
    .all(Math.max(1, Math.min(limit, 1_000))) as Row[];
  return rows.map((r) => ({
    at: r.at,
    version: r.version,
    added: JSON.parse(r.added) as string[],
    removed: JSON.parse(r.removed) as string[],
  }));
}

/** The newest recorded change of the served manifest (for `marquee status`), if any. */
export function lastManifestChange(store: Store): ManifestChange | undefined {
  return manifestChanges(store, 1)[0];
}

/**
 * One line for the log and `marquee status`.
 *
 * @example 'the manifest changed (genre Horror in catalog movie/movies added); users must reinstall to see it (now 0.2.0)'
 */
export function describeManifestChange(change: ManifestChange, listed = 5): string {
  const list = (facts: readonly string[], what: string) =>
    facts.length === 0
      ? []
      : [
          `${facts.slice(0, listed).join(', ')}${facts.length > listed ? ` and ${facts.length - listed} more` : ''} ${what}`,
        ];
  const parts = [...list(change.added, 'added'), ...list(change.removed, 'removed')];
  return `the manifest changed (${parts.join('; ')}); users must reinstall to see it (now ${change.version})`;
}
