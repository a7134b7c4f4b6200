/** Relative paths in a settings file (database, sources, key file, certificates) made absolute, from the file's folder. */
import { isAbsolute, resolve } from 'node:path';
import type { Settings } from './settings.js';

/** Relative file paths in a settings file are relative to that file, not to the working directory. */
export function resolvePaths(settings: Settings, base: string): Settings {
  const local = (p: string) => (/^[a-z]+:\/\//i.test(p) || isAbsolute(p) ? p : resolve(base, p));
  const source = (s: string | { url: string; shiftHours?: number }) =>
    typeof s === 'string' ? local(s) : { ...s, url: local(s.url) };
  return {
    ...settings,
    ...(settings.db ? { db: local(settings.db) } : {}),
    ...(settings.livetv
      ? {
          livetv: {
            ...settings.livetv,
            ...(settings.livetv.playlists ? { playlists: settings.livetv.playlists.map(source) } : {}),
            ...(settings.livetv.guides ? { guides: settings.livetv.guides.map(source) } : {}),
          },
        }
      : {}),
    ...(settings.library?.files ? { library: { ...settings.library, files: settings.library.files.map(local) } } : {}),
    ...(settings.hosted?.dir ? { hosted: { ...settings.hosted, dir: local(settings.hosted.dir) } } : {}),
    ...(settings.health?.sources
      ? { health: { ...settings.health, sources: settings.health.sources.map(local) } }
      : {}),
    ...(settings.security?.configKeyFile
      ? { security: { ...settings.security, configKeyFile: local(settings.security.configKeyFile) } }
      : {}),
    ...(settings.tls
      ? {
          tls: {
            ...settings.tls,
            ...(settings.tls.cert ? { cert: local(settings.tls.cert) } : {}),
            ...(settings.tls.key ? { key: local(settings.tls.key) } : {}),
          },
        }
      : {}),
  };
}
