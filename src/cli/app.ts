import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Addon, type AddonPart, composeAddon } from '../addon/index.js';
import { demoGuide, demoPlaylist, withDemoPosters } from '../demo/index.js';
import { ADULT_CONFIG_FIELD, createLibraryPart, importLibrary, refreshAddonCatalogs } from '../library/index.js';
import {
  createLiveTvPart,
  importLiveTv,
  type LiveTvImportResult,
  type PlaylistSource,
  type SourceState,
  type StreamRelay,
} from '../livetv/index.js';
import type { ConfigField } from '../protocol/index.js';
import { createTokenCodec } from '../server/index.js';
import type { SourceValidators } from '../sources/input/index.js';
import { type XtreamSource, xtreamSource } from '../sources/xtream/index.js';
import { type ManifestChange, openStore, recordManifest, type Store } from '../store/index.js';
import { healthServing } from './health.js';
import { loadOrCreateKeyRing } from './keys.js';
import { entryLimitsOf, importLimits } from './limits.js';
import { collectGarbage } from './memory.js';
import type { Settings } from './settings.js';
import { version } from './version.js';

/** The embedded demo's library, shipped with the package. */
export const DEMO_LIBRARY = fileURLToPath(new URL('../../examples/library/library.json', import.meta.url));

/** True when the settings name no source at all: `marquee serve` then serves the embedded demo. */
export function isDemo(settings: Settings): boolean {
  return (
    (settings.livetv?.playlists?.length ?? 0) === 0 &&
    (settings.xtream?.length ?? 0) === 0 &&
    (settings.library?.files?.length ?? 0) === 0 &&
    (settings.addonCatalogs?.length ?? 0) === 0
  );
}

/** Does the database file `db` exist and hold imported data (channels or library items)? */
export function holdsData(db: string): boolean {
  if (!existsSync(db)) return false;
  const store = openStore(db);
  try {
    return store.counts().channels > 0 || store.libraryCounts().items > 0;
  } finally {
    store.close();
  }
}

/** Write the demo's playlist and a guide around `now` into a fresh temp folder; the settings that import them. */
export function prepareDemo(now: number): { settings: Settings; cleanup: () => void; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-demo-'));
  const playlist = join(dir, 'demo.m3u');
  const guide = join(dir, 'demo.xml');
  writeFileSync(playlist, demoPlaylist(), { mode: 0o600 });
  writeFileSync(guide, demoGuide(now), { mode: 0o600 });
  const library = join(dir, 'library.json');
  writeFileSync(library, JSON.stringify(withDemoPosters(JSON.parse(readFileSync(DEMO_LIBRARY, 'utf8')))), {
    mode: 0o600,
  });
  return {
    dir,
    settings: {
      db: join(dir, 'demo.db'),
      addon: {
        id: 'org.marquee.demo',
        name: 'Marquee Demo',
        description:
          'Six live channels with a programme guide around today, and a library of freely licensed films and series.',
      },
      livetv: { playlists: [playlist], guides: [guide] },
      library: { files: [library] },
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const location = (s: string | { url: string; shiftHours?: number }) =>
  typeof s === 'string'
    ? { location: s }
    : { location: s.url, ...(s.shiftHours !== undefined ? { shiftHours: s.shiftHours } : {}) };

export interface ImportOutcome {
  readonly livetv?: LiveTvImportResult | { readonly error: Error };
  readonly library?: Awaited<ReturnType<typeof importLibrary>> | { readonly error: Error };
  readonly addonCatalogs?: Awaited<ReturnType<typeof refreshAddonCatalogs>> | { readonly error: Error };
}

export interface ImportHooks {
  readonly onProgress?: (event: {
    phase: string;
    source?: string;
    bytes?: number;
    totalBytes?: number;
    records?: number;
  }) => void;
  readonly previous?: SourceState;
  /** ETag / Last-Modified of the library URLs' last good reads (`validators` of the last library import). */
  readonly libraryValidators?: Readonly<Record<string, SourceValidators>>;
  readonly signal?: AbortSignal;
  /** `--accept-shrink`: take shrunk sources anyway, all (`true`) or these locations. */
  readonly acceptShrink?: boolean | readonly string[];
  /** Parse guides in a thread of their own (LiveTvImportOptions.parseThread): when nothing else needs the cores. */
  readonly parseThread?: boolean;
}

function sourceOptions(settings: Settings) {
  const s = settings.sources;
  return {
    ...(s?.timeoutSeconds ? { timeoutMs: s.timeoutSeconds * 1000 } : {}),
    ...(s?.maxMegabytes ? { maxBytes: s.maxMegabytes * 1_048_576 } : {}),
  };
}

/** How long an import waits for another writer of the database (`import.lockTimeoutSeconds`). */
function lockTimeout(settings: Settings): { lockTimeoutMs?: number } {
  const seconds = settings.import?.lockTimeoutSeconds;
  return seconds === undefined ? {} : { lockTimeoutMs: Math.round(seconds * 1000) };
}

/** The shrink guard of the settings and `--accept-shrink`. */
function guard(settings: Settings, hooks: ImportHooks) {
  const ratio = settings.sources?.minYieldRatio;
  return {
    ...(ratio !== undefined ? { minYieldRatio: ratio } : {}),
    ...(hooks.acceptShrink !== undefined ? { acceptShrink: hooks.acceptShrink } : {}),
  };
}

/**
 * Import every configured source. Each backend's import is atomic on its own; one failing does
 * not stop the others, and what it had served before stays served.
 */
export async function importAll(store: Store, settings: Settings, hooks: ImportHooks = {}): Promise<ImportOutcome> {
  const outcome: { -readonly [K in keyof ImportOutcome]: ImportOutcome[K] } = {};
  const livetv = settings.livetv;
  const signal = hooks.signal ? { signal: hooks.signal } : {};
  const accounts = xtreamSources(settings);
  const playlists = livePlaylists(settings, accounts);
  const limits = importLimits(settings);
  if (playlists.length > 0) {
    try {
      outcome.livetv = await importLiveTv(store, {
        playlists,
        ...(livetv?.guides ? { guides: livetv.guides.map(location) } : {}),
        ...(livetv?.includeGroups ? { includeGroups: livetv.includeGroups } : {}),
        ...(livetv?.excludeGroups ? { excludeGroups: livetv.excludeGroups } : {}),
        ...(livetv?.guideOverrides ? { guideOverrides: livetv.guideOverrides } : {}),
        ...(livetv?.matching ? { matching: livetv.matching } : {}),
        ...(livetv?.retentionDays !== undefined ? { retentionHours: livetv.retentionDays * 24 } : {}),
        ...(livetv?.horizonDays !== undefined ? { horizonDays: livetv.horizonDays } : {}),
        ...(livetv?.languages ? { languages: livetv.languages } : {}),
        limits: entryLimitsOf(limits),
        ...(limits.maxStreamsPerChannel !== undefined ? { maxStreamsPerChannel: limits.maxStreamsPerChannel } : {}),
        ...(limits.maxProgrammesPerDay !== undefined ? { maxProgrammesPerDay: limits.maxProgrammesPerDay } : {}),
        ...(limits.maxLogoLength !== undefined ? { maxLogoLength: limits.maxLogoLength } : {}),
        sourceOptions: sourceOptions(settings),
        ...lockTimeout(settings),
        ...guard(settings, hooks),
        ...(settings.sources?.allowPrivate !== undefined ? { allowPrivateSources: settings.sources.allowPrivate } : {}),
        ...(hooks.previous ? { previous: hooks.previous } : {}),
        ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
        ...(hooks.parseThread !== undefined ? { parseThread: hooks.parseThread } : {}),
        onChannelsStored: collectGarbage,
        onGuidesRead: collectGarbage,
        onNewPass: collectGarbage,
        onLargeGarbage: collectGarbage,
        // Full collections every 16 MiB of a gzip guide: for an import that owns the process (its
        // own, or serve's first before it listens), never beside requests.
        ...(hooks.parseThread ? { onInflatedGuideBytes: collectGarbage } : {}),
        ...signal,
      });
    } catch (error) {
      outcome.livetv = { error: error as Error };
    }
  }
  const libraries = accounts.flatMap((a) => (a.library ? [a.library] : []));
  if (settings.library?.files?.length || libraries.length > 0) {
    try {
      outcome.library = await importLibrary(store, {
        files: settings.library?.files ?? [],
        ...(libraries.length > 0 ? { sources: libraries } : {}),
        read: {
          ...(limits.maxItems !== undefined ? { maxItems: limits.maxItems } : {}),
          ...(limits.maxNameLength !== undefined ? { maxNameLength: limits.maxNameLength } : {}),
          ...(limits.maxEpisodesPerSeries !== undefined ? { maxEpisodesPerSeries: limits.maxEpisodesPerSeries } : {}),
        },
        import: lockTimeout(settings),
        ...(settings.sources?.timeoutSeconds
          ? { sourceOptions: { timeoutMs: settings.sources.timeoutSeconds * 1000 } }
          : {}),
        ...(hooks.libraryValidators ? { validators: hooks.libraryValidators } : {}),
        ...guard(settings, hooks),
        ...(hooks.onProgress
          ? {
              onProgress: (p) =>
                hooks.onProgress?.({
                  phase: `library ${p.phase}`,
                  ...('source' in p ? { source: p.source } : {}),
                  ...('items' in p ? { records: p.items } : {}),
                }),
            }
          : {}),
        ...signal,
      });
    } catch (error) {
      outcome.library = { error: error as Error };
    }
  }
  if (settings.addonCatalogs?.length) {
    try {
      outcome.addonCatalogs = await refreshAddonCatalogs(
        store,
        { addonCatalogs: settings.addonCatalogs },
        { fetch: { ...sourceOptions(settings), ...signal }, ...lockTimeout(settings) },
      );
    } catch (error) {
      outcome.addonCatalogs = { error: error as Error };
    }
  }
  return outcome;
}

/** The configured Xtream accounts, each read with the settings' source limits (bytes, counts and lengths). */
export function xtreamSources(settings: Settings): XtreamSource[] {
  const { maxItems, ...limits } = importLimits(settings);
  return (settings.xtream ?? []).map((x) =>
    xtreamSource(typeof x === 'string' ? { url: x } : x, sourceOptions(settings), {
      ...entryLimitsOf(limits),
      ...(maxItems !== undefined ? { maxItems } : {}),
    }),
  );
}

/**
 * The live-TV sources: the playlists, then the accounts' live channels, best first (a channel's
 * streams are offered in this order): by `priority` (higher first, playlists count 0), equal
 * ones in the settings order.
 */
export function livePlaylists(settings: Settings, accounts: readonly XtreamSource[]): PlaylistSource[] {
  const ranked = [
    ...(settings.livetv?.playlists ?? []).map((p) => ({ source: location(p) as PlaylistSource, priority: 0 })),
    ...accounts.flatMap((a) =>
      a.live ? [{ source: { location: a.account.location, reader: a.live }, priority: a.priority }] : [],
    ),
  ];
  return ranked.sort((a, b) => b.priority - a.priority).map((r) => r.source);
}

/** The guides the settings name (not those a playlist names): configured ones, then the accounts' own. */
export function configuredGuideLocations(settings: Settings, accounts: readonly XtreamSource[]): string[] {
  return [
    ...(settings.livetv?.guides ?? []).map((g) => location(g).location),
    ...accounts.flatMap((a) => (a.live?.guides ?? []).map((g) => g.location)),
  ];
}

/** The user settings the product declares on /configure, for the parts being served. */
export function configFields(parts: { livetv: boolean; library: boolean }): ConfigField[] {
  const fields: ConfigField[] = [];
  if (parts.livetv) {
    fields.push({
      key: 'groups',
      type: 'text',
      title: 'Channel groups to show (comma-separated; empty shows every group)',
    });
  }
  if (parts.library) fields.push(ADULT_CONFIG_FIELD);
  return fields;
}

/**
 * The add-on as the store holds it now: one part per backend that has data, user config
 * encrypted with the key ring beside the database. Call again after an import.
 */
export function buildAddon(
  store: Store,
  settings: Settings,
  keyFile: string,
  onManifestChange?: (change: ManifestChange) => void,
  /**
   * Bumped by a server each time it rebuilds the add-on for a reason the store does not see (a
   * reloaded key ring, another database file): cached answers of the previous build are not served.
   */
  cacheEpoch = 0,
  /** What serve adds: the relay's links in stream answers (cli/relay-serve.ts). */
  extras: { readonly relay?: StreamRelay } = {},
): Addon {
  const parts: AddonPart[] = [];
  const hasLiveTv = store.counts().channels > 0;
  const library = store.libraryCounts();
  const hasLibrary =
    Object.values(library).some((n) => typeof n === 'number' && n > 0) || (settings.addonCatalogs?.length ?? 0) > 0;
  if (hasLiveTv) {
    parts.push(
      createLiveTvPart(store, {
        // The client shows a stream's name as its source: the add-on's own name, as the user installed it.
        streamName: settings.addon?.name ?? 'Marquee',
        ...(settings.livetv?.placeholders ? { placeholders: settings.livetv.placeholders } : {}),
        ...(settings.livetv?.maxStreamsPerChannel !== undefined
          ? { maxStreamsPerChannel: settings.livetv.maxStreamsPerChannel }
          : {}),
        ...(settings.addon?.maxAnswerBytes !== undefined ? { maxAnswerBytes: settings.addon.maxAnswerBytes } : {}),
        health: healthServing(settings),
        ...(extras.relay ? { relay: extras.relay } : {}),
      }),
    );
  }
  if (hasLibrary) {
    parts.push(
      createLibraryPart(store, {
        ...(settings.library?.catalogs ? { catalogs: settings.library.catalogs } : {}),
        ...(settings.addonCatalogs ? { addonCatalogs: settings.addonCatalogs } : {}),
        ...(settings.addon?.maxAnswerBytes !== undefined ? { maxAnswerBytes: settings.addon.maxAnswerBytes } : {}),
      }),
    );
  }
  const fields = configFields({ livetv: hasLiveTv, library: hasLibrary });
  const id = settings.addon?.id ?? 'org.marquee.addon';
  const { ring } = loadOrCreateKeyRing(keyFile);
  const compose = (version: string) =>
    composeAddon(
      {
        id,
        version,
        name: settings.addon?.name ?? 'Marquee',
        description: settings.addon?.description ?? 'Live TV and movies served by Marquee.',
        ...(settings.addon?.logo ? { logo: settings.addon.logo } : {}),
        ...(settings.addon?.background ? { background: settings.addon.background } : {}),
        ...(settings.addon?.contactEmail ? { contactEmail: settings.addon.contactEmail } : {}),
        ...(fields.length > 0 ? { config: fields, behaviorHints: { configurable: true } } : {}),
      },
      parts,
      {
        configCodec: createTokenCodec(ring, id),
        dataVersion:
          cacheEpoch === 0 ? store.dataVersion : (now?: number) => store.dataVersion(now) + cacheEpoch * 2 ** 32,
        validateResponses: true,
        // Guide pages come pre-serialized from the store, rendered from rows checked at import;
        // parsing and checking 1 MB per page would cost five times writing it. The live-TV tests
        // serve them with this check on (guide-json.test.ts, livetv-http.test.ts).
        validateRawJson: false,
      },
    );
  const built = compose(settings.addon?.version ?? version());
  // An import that changed what the manifest routes or lists bumps its version: installed
  // clients only see the change after reinstalling, so it is logged and kept for `marquee status`.
  const { version: served, change } = recordManifest(store, built.manifest);
  if (change) onManifestChange?.(change);
  return served === built.manifest.version ? built : compose(served);
}
