import { readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import * as v from 'valibot';
import { parse as parseYaml } from 'yaml';
import { MarqueeError } from '../errors.js';
import { schemaIssues, UrlSchema } from '../protocol/index.js';

/**
 * The operator's configuration file (JSON or YAML). One schema, unknown keys refused (a typo is
 * an error with its path, not a silently ignored setting). Flags and MARQUEE_* variables
 * override it; `resolveSettings` applies that order: defaults < file < environment < flags.
 */

const Source = v.union([
  v.pipe(v.string(), v.minLength(1)),
  v.strictObject({
    url: v.pipe(v.string(), v.minLength(1)),
    /** Hours added to every time of this source (guides) or channel (playlists). */
    shiftHours: v.optional(v.pipe(v.number(), v.minValue(-24), v.maxValue(24))),
  }),
]);

const Hours = v.pipe(v.number(), v.minValue(0));

export const SettingsSchema = v.strictObject({
  port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535))),
  host: v.optional(v.pipe(v.string(), v.minLength(1))),
  db: v.optional(v.pipe(v.string(), v.minLength(1))),
  publicUrl: v.optional(UrlSchema),
  basePath: v.optional(v.pipe(v.string(), v.regex(/^(\/[A-Za-z0-9._~-]+)*$/, 'must look like /tv (or be empty)'))),
  addon: v.optional(
    v.strictObject({
      id: v.optional(
        v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be dot-separated, e.g. org.example.tv')),
      ),
      name: v.optional(v.pipe(v.string(), v.minLength(1))),
      description: v.optional(v.string()),
      version: v.optional(v.string()),
      logo: v.optional(UrlSchema),
      background: v.optional(UrlSchema),
      contactEmail: v.optional(v.string()),
    }),
  ),
  livetv: v.optional(
    v.strictObject({
      playlists: v.optional(v.array(Source)),
      guides: v.optional(v.array(Source)),
      includeGroups: v.optional(v.array(v.string())),
      excludeGroups: v.optional(v.array(v.string())),
      /** Playlist channel (tvg-id, else name) → guide channel id, when automatic matching is wrong. */
      guideOverrides: v.optional(v.record(v.string(), v.string())),
      placeholders: v.optional(
        v.strictObject({
          enabled: v.boolean(),
          blockMinutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(15), v.maxValue(1440))),
        }),
      ),
      retentionDays: v.optional(Hours),
      horizonDays: v.optional(Hours),
      languages: v.optional(v.array(v.string())),
    }),
  ),
  library: v.optional(
    v.strictObject({
      files: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
      catalogs: v.optional(
        v.array(
          v.strictObject({
            type: v.pipe(v.string(), v.minLength(1)),
            id: v.pipe(v.string(), v.minLength(1)),
            name: v.pipe(v.string(), v.minLength(1)),
            extras: v.optional(v.array(v.picklist(['search', 'genre', 'skip']))),
            sort: v.optional(v.picklist(['newest', 'oldest', 'name', 'rating'])),
          }),
        ),
      ),
    }),
  ),
  addonCatalogs: v.optional(
    v.array(
      v.strictObject({
        type: v.pipe(v.string(), v.minLength(1)),
        id: v.pipe(v.string(), v.minLength(1)),
        name: v.pipe(v.string(), v.minLength(1)),
        addons: v.array(UrlSchema),
      }),
    ),
  ),
  refresh: v.optional(v.strictObject({ intervalHours: v.pipe(v.number(), v.minValue(0)) })),
  sources: v.optional(
    v.strictObject({
      timeoutSeconds: v.optional(v.pipe(v.number(), v.minValue(1))),
      maxMegabytes: v.optional(v.pipe(v.number(), v.minValue(1))),
      /** The shrink guard: a source yielding less than this share of its last good import is kept. 0 turns it off. */
      minYieldRatio: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
    }),
  ),
  security: v.optional(
    v.strictObject({
      /** File holding the key ring that encrypts user configuration; default beside the database. */
      configKeyFile: v.optional(v.string()),
      /** Requests per minute per client address; 0 turns the limit off (the default, for local use). */
      rateLimitPerMinute: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
      trustProxy: v.optional(v.boolean()),
    }),
  ),
  log: v.optional(
    v.strictObject({ format: v.optional(v.picklist(['json', 'pretty'])), requests: v.optional(v.boolean()) }),
  ),
});

export type Settings = v.InferOutput<typeof SettingsSchema>;

/** Read and check a settings file; every problem is reported with its path in one error. */
export function loadSettingsFile(file: string): Settings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `cannot read the configuration file ${file}: ${(error as Error).message}`,
    );
  }
  let data: unknown;
  try {
    data = ['.yaml', '.yml'].includes(extname(file).toLowerCase())
      ? parseYaml(text, { maxAliasCount: 100 })
      : JSON.parse(text);
  } catch (error) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `${file} is not valid ${extname(file) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
  return checkSettings(data ?? {}, file);
}

export function checkSettings(data: unknown, where: string): Settings {
  const result = v.safeParse(SettingsSchema, data, { abortEarly: false });
  if (!result.success) {
    const issues = schemaIssues(result.issues, '$');
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `${where} has ${issues.length} problem(s):\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`,
      { details: { issues } },
    );
  }
  return resolvePaths(result.output, dirname(resolve(where)));
}

/** Relative file paths in a settings file are relative to that file, not to the working directory. */
function resolvePaths(settings: Settings, base: string): Settings {
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
    ...(settings.security?.configKeyFile
      ? { security: { ...settings.security, configKeyFile: local(settings.security.configKeyFile) } }
      : {}),
  };
}
