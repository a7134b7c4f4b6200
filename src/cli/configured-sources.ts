import { statSync } from 'node:fs';
import { sep } from 'node:path';
import { redactLocation } from '../sources/input/index.js';
import { type SourceState, sourceKey } from '../store/index.js';
import { configuredGuideLocations, livePlaylists, xtreamSources } from './app.js';
import type { Settings } from './settings.js';

/**
 * The sources the settings name, as `marquee status` lists them: a source that never had an
 * attempt recorded (a new one, or one whose import failed before anything could be written: the
 * database locked, the disk full) is still shown, as never imported, so a health check fails.
 */

export interface ConfiguredSource {
  /** The import kind that owns it (`livetv`, `library`), as in the source states. */
  readonly area: string;
  /** `playlist`, `guide`, `library`, `xtream`. */
  readonly kind: string;
  /** Safe to show: credentials redacted. */
  readonly label: string;
  /** Is this stored state (one of) this source's? A library folder has one per file. */
  owns(state: SourceState): boolean;
}

/**
 * Every source the settings name, in import order, keyed as the importers record them.
 *
 * @example configuredSources({ livetv: { playlists: ['/srv/tv.m3u'] } })[0].label // '/srv/tv.m3u'
 */
export function configuredSources(settings: Settings): ConfiguredSource[] {
  const byKey = (area: string, kind: string, key: string, label: string): ConfiguredSource => ({
    area,
    kind,
    label,
    owns: (state) => state.key === key,
  });
  const accounts = xtreamSources(settings);
  const out: ConfiguredSource[] = livePlaylists(settings, accounts).map((p) =>
    byKey(
      'livetv',
      p.reader ? 'xtream' : 'playlist',
      sourceKey('playlist', p.location),
      p.reader?.label ?? redactLocation(p.location),
    ),
  );
  for (const location of configuredGuideLocations(settings, accounts)) {
    out.push(byKey('livetv', 'guide', sourceKey('guide', location), redactLocation(location)));
  }
  for (const path of settings.library?.files ?? []) {
    const folder = isFolder(path);
    const prefix = path.endsWith(sep) ? path : `${path}${sep}`;
    const key = sourceKey('library', path);
    out.push({
      area: 'library',
      kind: 'library',
      label: path,
      // A folder's files are recorded one by one; a folder that could not be listed, as itself.
      owns: (state) => state.key === key || (folder && state.area === 'library' && state.label.startsWith(prefix)),
    });
  }
  for (const account of accounts) {
    if (account.library) {
      const reader = account.library;
      out.push(byKey('library', reader.kind, sourceKey(reader.kind, reader.location), reader.label));
    }
  }
  return out;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
