import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { MarqueeError } from '../errors.js';
import { parseXtreamAccount } from '../sources/xtream/index.js';
import type { OptionSpec, OptionValues } from './command.js';
import { checkSettings, loadSettingsFile, type Settings } from './settings.js';

/** Names looked for in the working directory when no --config is given. */
export const DEFAULT_SETTINGS_FILES = ['marquee.yaml', 'marquee.yml', 'marquee.json'] as const;

/** Flags every command that reads the store shares. */
export const STORE_OPTIONS = {
  config: {
    type: 'string',
    value: 'FILE',
    env: 'MARQUEE_CONFIG',
    description: `configuration file (JSON or YAML); default the first of ${DEFAULT_SETTINGS_FILES.map((f) => `./${f}`).join(', ')} present`,
  },
  db: {
    type: 'string',
    value: 'FILE',
    env: 'MARQUEE_DB',
    description: 'SQLite database file',
    default: './marquee.db',
  },
} as const satisfies Record<string, OptionSpec>;

/** Source flags of `serve` and `import`: given, they replace the configured lists. */
export const SOURCE_OPTIONS = {
  playlist: {
    type: 'string',
    multiple: true,
    value: 'PATH|URL',
    env: 'MARQUEE_PLAYLIST',
    aka: ['m3u', 'm3u8', 'channels'],
    description: 'M3U playlist (replaces the configured ones)',
  },
  epg: {
    type: 'string',
    multiple: true,
    value: 'PATH|URL',
    env: 'MARQUEE_EPG',
    aka: ['guide', 'guides', 'xmltv', 'tvguide'],
    description: 'XMLTV guide, plain or gzip, in priority order (replaces the configured ones)',
  },
  library: {
    type: 'string',
    multiple: true,
    value: 'PATH|URL',
    env: 'MARQUEE_LIBRARY',
    description: 'library file or folder (JSON, CSV), or an http(s) URL of a library file',
  },
  xtream: {
    type: 'string',
    multiple: true,
    value: 'URL',
    env: 'MARQUEE_XTREAM',
    description:
      'Xtream Codes account: http://USER:PASS@host:port, or its get.php or player_api.php link (replaces the configured ones)',
  },
} as const satisfies Record<string, OptionSpec>;

/** `serve`'s HTTPS flags (docs/https.md). */
export const TLS_OPTIONS = {
  'tls-cert': {
    type: 'string',
    value: 'FILE',
    env: 'MARQUEE_TLS_CERT',
    description: 'serve HTTPS with this PEM certificate (full chain); read again when it changes',
  },
  'tls-key': {
    type: 'string',
    value: 'FILE',
    env: 'MARQUEE_TLS_KEY',
    description: 'the PEM private key of --tls-cert',
  },
  'https-redirect-port': {
    type: 'string',
    value: 'N',
    env: 'MARQUEE_HTTPS_REDIRECT_PORT',
    description: 'with --tls-cert: also listen on this plain-HTTP port, redirecting every request to https',
  },
} as const satisfies Record<string, OptionSpec>;

function number(value: unknown, flag: string, check: (n: number) => boolean, what: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || !check(n))
    throw new MarqueeError(
      'INVALID_SETTINGS',
      // The value may come from the flag or its variable; name both so either can be found.
      `--${flag} (or MARQUEE_${flag.toUpperCase().replaceAll('-', '_')}) must be ${what}, got "${String(value)}"`,
    );
  return n;
}

/**
 * defaults < configuration file < MARQUEE_* variables < flags (parseCommandArgs already folded
 * the variables into `values`). Relative paths in flags are relative to the working directory.
 */
export function resolveSettings(values: OptionValues, cwd: string): { settings: Settings; file?: string } {
  let file = typeof values.config === 'string' ? resolve(cwd, values.config) : undefined;
  if (!file) file = DEFAULT_SETTINGS_FILES.map((name) => join(cwd, name)).find((path) => existsSync(path));
  const base = file ? loadSettingsFile(file) : {};
  const list = (name: string) => (Array.isArray(values[name]) ? (values[name] as string[]) : undefined);
  const path = (p: string) => (/^[a-z]+:\/\//i.test(p) ? p : resolve(cwd, p));
  const flags: Record<string, unknown> = {};
  const port = number(
    values.port,
    'port',
    (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
    'a port number (0-65535)',
  );
  if (port !== undefined) flags.port = port;
  if (typeof values.host === 'string') flags.host = values.host;
  if (typeof values.db === 'string') flags.db = path(values.db);
  if (typeof values['public-url'] === 'string') flags.publicUrl = values['public-url'];
  if (typeof values['base-path'] === 'string') flags.basePath = values['base-path'];
  const merged: Settings = { ...base, ...flags };
  const playlists = list('playlist')?.map(path);
  const guides = list('epg')?.map(path);
  if (playlists || guides) {
    merged.livetv = { ...merged.livetv, ...(playlists ? { playlists } : {}), ...(guides ? { guides } : {}) };
  }
  const library = list('library')?.map(path);
  if (library) merged.library = { ...merged.library, files: library };
  const xtream = list('xtream');
  if (xtream) merged.xtream = xtream;
  const refresh = number(
    values['refresh-hours'],
    'refresh-hours',
    (n) => n >= 0,
    'a number of hours (0 turns refreshing off)',
  );
  if (refresh !== undefined) merged.refresh = { intervalHours: refresh };
  const rate = number(
    values['rate-limit'],
    'rate-limit',
    (n) => Number.isInteger(n) && n >= 0,
    'a whole number of requests per minute',
  );
  if (rate !== undefined) merged.security = { ...merged.security, rateLimitPerMinute: rate };
  if (typeof values['log-format'] === 'string') merged.log = { ...merged.log, format: values['log-format'] as 'json' };
  if (values.hosted === true) merged.hosted = { ...merged.hosted, enabled: true };
  if (values['allow-private-sources'] === true) merged.sources = { ...merged.sources, allowPrivate: true };
  if (typeof values.relay === 'string') merged.relay = { ...merged.relay, enabled: relayMode(values.relay) };
  if (values.quiet === true) merged.log = { ...merged.log, requests: false };
  const redirectPort = number(
    values['https-redirect-port'],
    'https-redirect-port',
    (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
    'a port number (0-65535)',
  );
  if (typeof values['tls-cert'] === 'string' || typeof values['tls-key'] === 'string' || redirectPort !== undefined) {
    merged.tls = {
      ...merged.tls,
      ...(typeof values['tls-cert'] === 'string' ? { cert: path(values['tls-cert']) } : {}),
      ...(typeof values['tls-key'] === 'string' ? { key: path(values['tls-key']) } : {}),
      ...(redirectPort !== undefined ? { redirectPort } : {}),
    };
  }
  // The flags went through the same schema as the file, so a bad flag value reads like a bad setting.
  const settings = checkSettings(merged, file ?? join(cwd, '(flags and environment)'));
  // An account's URL is checked now: a mistake is a settings error (exit 2), said without its secrets.
  for (const x of settings.xtream ?? [])
    parseXtreamAccount(typeof x === 'string' ? x : x.url, typeof x === 'string' ? {} : x);
  const accountsLive = (settings.xtream ?? []).some((x) => typeof x === 'string' || x.live !== false);
  if ((settings.livetv?.guides?.length ?? 0) > 0 && (settings.livetv?.playlists?.length ?? 0) === 0 && !accountsLive) {
    // A guide only adds programmes to a playlist's channels: alone it would import nothing (or, in
    // `serve`, silently serve the demo instead).
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `a guide (${guides ? '--epg' : 'livetv.guides'}) needs a playlist: give --playlist with it, or name playlists in ${
        file ? basename(file) : 'a settings file'
      } (livetv.playlists)`,
    );
  }
  checkTls(settings, file);
  return file ? { settings, file } : { settings };
}

/** `--relay auto|true|false` (on/off and yes/no read as true/false). */
function relayMode(value: string): 'auto' | boolean {
  const v = value.trim().toLowerCase();
  if (v === 'auto') return 'auto';
  if (['true', 'on', 'yes', '1'].includes(v)) return true;
  if (['false', 'off', 'no', '0'].includes(v)) return false;
  throw new MarqueeError(
    'INVALID_SETTINGS',
    `--relay (or MARQUEE_RELAY) must be auto, true or false, got "${value.slice(0, 40)}"`,
  );
}

/** A certificate needs its key and the other way round; the redirect port needs both and a port of its own. */
function checkTls(settings: Settings, file: string | undefined): void {
  const tls = settings.tls;
  if (tls === undefined) return;
  const where = file ? ` (tls.cert and tls.key in ${basename(file)})` : '';
  if (tls.cert !== undefined && tls.key === undefined)
    throw new MarqueeError('INVALID_SETTINGS', `--tls-cert needs its key: give --tls-key FILE as well${where}`);
  if (tls.key !== undefined && tls.cert === undefined)
    throw new MarqueeError('INVALID_SETTINGS', `--tls-key needs its certificate: give --tls-cert FILE as well${where}`);
  if (tls.redirectPort !== undefined && tls.cert === undefined)
    throw new MarqueeError(
      'INVALID_SETTINGS',
      '--https-redirect-port redirects to https: give --tls-cert and --tls-key as well (tls.cert, tls.key)',
    );
  if (tls.redirectPort !== undefined && tls.redirectPort !== 0 && tls.redirectPort === (settings.port ?? 7000))
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `--https-redirect-port ${tls.redirectPort} is the port HTTPS listens on (--port): choose another, e.g. 80 or 7080`,
    );
}
