/**
 * The site every reliability test attacks: a real store in a temp dir with the live-TV fixtures
 * (playlist + two guides at a fixed clock) and the demo library imported, served by the composed
 * live-TV + library add-on the way `marquee serve` composes it (config fields, encrypted config
 * tokens, response validation). Sources are copied into the temp dir so a test can overwrite
 * them with broken content under the same name and re-import.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Addon, composeAddon } from '../../src/addon/index.js';
import { ADULT_CONFIG_FIELD, createLibraryPart, importLibrary } from '../../src/library/index.js';
import { createLiveTvPart, importLiveTv, type LiveTvImportOptions } from '../../src/livetv/index.js';
import {
  createRequestHandler,
  createTokenCodec,
  generateKeyRing,
  type Logger,
  type RequestHandler,
  type ServerOptions,
} from '../../src/server/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { fixture, NOW } from '../fixtures/livetv/setup.js';

export { NOW };

export const DEMO_LIBRARY = join(import.meta.dirname, '..', '..', 'examples', 'library', 'library.json');

export interface Site {
  readonly dir: string;
  readonly store: Store;
  /** Source files in `dir`, as imported. */
  readonly files: {
    readonly playlist: string;
    readonly guide: string;
    readonly extra: string;
    readonly library: string;
  };
  /** The live-TV import options the site was built with. */
  readonly livetv: LiveTvImportOptions;
  /** The add-on as the store holds it now (rebuilt after each committed import). */
  addon(): Addon;
  handler(options?: ServerOptions): RequestHandler;
  close(): void;
}

/** Builds the site: imports both backends; `store` at `dbFile` when given (e.g. on a tiny tmpfs). */
export async function createSite(dbFile?: string): Promise<Site> {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-reliability-'));
  const files = {
    playlist: join(dir, 'channels.m3u'),
    guide: join(dir, 'guide.xml'),
    extra: join(dir, 'guide-extra.xml'),
    library: join(dir, 'library.json'),
  };
  copyFileSync(fixture('channels.m3u'), files.playlist);
  copyFileSync(fixture('guide.xml'), files.guide);
  copyFileSync(fixture('guide-extra.xml'), files.extra);
  copyFileSync(DEMO_LIBRARY, files.library);
  const store = openStore(dbFile ?? join(dir, 'marquee.db'));
  const livetv: LiveTvImportOptions = {
    playlists: [{ location: files.playlist }],
    guides: [{ location: files.guide }, { location: files.extra }],
    guideOverrides: { 'local.tv': 'regional.tv' },
    now: NOW,
  };
  await importLiveTv(store, livetv);
  await importLibrary(store, { files: [files.library] });

  const id = 'org.marquee.reliability';
  const codec = createTokenCodec(generateKeyRing(), id);
  const build = () =>
    composeAddon(
      {
        id,
        version: '1.0.0',
        name: 'Reliability',
        description: 'Live TV and a library under attack',
        config: [{ key: 'groups', type: 'text', title: 'Channel groups' }, ADULT_CONFIG_FIELD],
        behaviorHints: { configurable: true },
      },
      [createLiveTvPart(store, { now: () => NOW }), createLibraryPart(store)],
      { configCodec: codec, dataVersion: () => store.dataVersion(), validateResponses: true },
    );
  let addon = build();
  let version = store.dataVersion();
  const current = () => {
    if (store.dataVersion() !== version) {
      version = store.dataVersion();
      addon = build();
    }
    return addon;
  };
  return {
    dir,
    store,
    files,
    livetv,
    addon: current,
    handler: (options) => createRequestHandler(current, options),
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A logger that keeps every record, for greps. */
export function memoryLogger(): Logger & { readonly records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  return {
    records,
    info: (r) => records.push({ level: 'info', ...r }),
    error: (r) => records.push({ level: 'error', ...r }),
  };
}
