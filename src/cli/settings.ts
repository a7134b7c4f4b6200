import { readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import * as v from 'valibot';
import { MIN_ANSWER_BYTES } from '../addon/index.js';
import { MarqueeError } from '../errors.js';
import { jsonPath, schemaIssues, UrlSchema } from '../protocol/index.js';
import { isPageUrl } from '../server/page.js';
import { closestKey } from './closest-key.js';
import { knownKeys, unknownKeys } from './settings-keys.js';
import { resolvePaths } from './settings-paths.js';
import { flatten, jsonLine, type LineOf, yamlLine, yamlParser } from './settings-where.js';

export { closestKey };

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

/** A count or length limit (issue 48): a whole number of at least 1. */
const Count = v.pipe(v.number(), v.integer(), v.minValue(1));

/** A playlist: its path or URL, or that with options. */
const Playlist = v.union([
  v.pipe(v.string(), v.minLength(1)),
  v.strictObject({
    url: v.pipe(v.string(), v.minLength(1)),
    shiftHours: v.optional(v.pipe(v.number(), v.minValue(-24), v.maxValue(24))),
    /** Connections its provider allows at once: the relay never opens more (docs/relay.md). */
    maxConnections: v.optional(Count),
  }),
]);

/** A URL that reaches a page (the landing page's icon and header, the install link): http(s) only. */
const PageUrl = v.pipe(UrlSchema, v.check(isPageUrl, 'must be an http(s) URL: it reaches the landing page'));

const Names = v.array(v.pipe(v.string(), v.minLength(1)));

/** An Xtream Codes account: its URL (any of the three shapes providers hand out), or the URL with options. */
const Xtream = v.union([
  v.pipe(v.string(), v.minLength(1)),
  v.strictObject({
    url: v.pipe(v.string(), v.minLength(1)),
    username: v.optional(v.pipe(v.string(), v.minLength(1))),
    password: v.optional(v.pipe(v.string(), v.minLength(1))),
    live: v.optional(v.boolean()),
    movies: v.optional(v.boolean()),
    series: v.optional(v.boolean()),
    includeCategories: v.optional(Names),
    excludeCategories: v.optional(Names),
    /** Higher is offered first among a channel's streams; equal keeps the settings order. */
    priority: v.optional(v.pipe(v.number(), v.integer(), v.minValue(-1000), v.maxValue(1000))),
    /** Connections the account allows at once; default the panel's `user_info.max_connections`. */
    maxConnections: v.optional(Count),
    /** The User-Agent the panel expects from players: sent with the account's requests and its relayed streams. */
    userAgent: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512))),
  }),
]);

export const SettingsSchema = v.strictObject({
  port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535))),
  host: v.optional(v.pipe(v.string(), v.minLength(1))),
  db: v.optional(v.pipe(v.string(), v.minLength(1))),
  publicUrl: v.optional(PageUrl),
  basePath: v.optional(v.pipe(v.string(), v.regex(/^(\/[A-Za-z0-9._~-]+)*$/, 'must look like /tv (or be empty)'))),
  addon: v.optional(
    v.strictObject({
      id: v.optional(
        v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be dot-separated, e.g. org.example.tv')),
      ),
      name: v.optional(v.pipe(v.string(), v.minLength(1))),
      description: v.optional(v.string()),
      version: v.optional(v.string()),
      logo: v.optional(PageUrl),
      background: v.optional(PageUrl),
      contactEmail: v.optional(v.string()),
      /**
       * Bytes of an answer built from the store (a catalog or guide page, a meta), at most: a page
       * ends early (the client asks the next from there), a meta's videos are cut. Default 4 MiB.
       */
      maxAnswerBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(MIN_ANSWER_BYTES))),
    }),
  ),
  livetv: v.optional(
    v.strictObject({
      playlists: v.optional(v.array(Playlist)),
      guides: v.optional(v.array(Source)),
      includeGroups: v.optional(v.array(v.string())),
      excludeGroups: v.optional(v.array(v.string())),
      /**
       * Playlist channel (tvg-id, tvg-name or name) → guide channel id when automatic matching is
       * wrong, or `null` when the channel has no guide.
       */
      guideOverrides: v.optional(v.record(v.string(), v.nullable(v.string()))),
      /** The scored stage of matching (docs/livetv.md, "Matching by score"). */
      matching: v.optional(
        v.strictObject({
          scored: v.optional(v.boolean()),
          threshold: v.optional(v.pipe(v.number(), v.minValue(0.5), v.maxValue(1))),
          margin: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(0.5))),
          decoration: v.optional(v.boolean()),
        }),
      ),
      placeholders: v.optional(
        v.strictObject({
          enabled: v.boolean(),
          blockMinutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(15), v.maxValue(1440))),
        }),
      ),
      retentionDays: v.optional(Hours),
      horizonDays: v.optional(Hours),
      languages: v.optional(v.array(v.string())),
      /** Streams served per channel; the rest are counted in the import report, never stored. Default 50. */
      maxStreamsPerChannel: v.optional(Count),
      /** Characters of a programme's title, sub-title or category; longer is cut and counted. Default 300. */
      maxProgrammeTitleLength: v.optional(Count),
      /** Characters of a programme's description; longer is cut and counted. Default 4,000. */
      maxDescriptionLength: v.optional(Count),
      /** Programmes one guide channel keeps per UTC day (the earliest); the rest are counted, never stored. Default 1,440. */
      maxProgrammesPerDay: v.optional(Count),
      /** Characters of a channel logo (URL or inline image); a longer one is left out with a warning. Default 8,192. */
      maxLogoLength: v.optional(Count),
    }),
  ),
  library: v.optional(
    v.strictObject({
      files: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
      /** Items of the library files together, and titles of each Xtream movie or series list; more fails. Default 100,000. */
      maxItems: v.optional(Count),
      /** Episodes one series keeps (the first in file order); the rest are left out with a warning. Default 10,000. */
      maxEpisodesPerSeries: v.optional(Count),
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
  xtream: v.optional(v.array(Xtream)),
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
  /** Re-imports every `intervalHours` (default 6; 0 turns them off). */
  refresh: v.optional(v.strictObject({ intervalHours: v.optional(v.pipe(v.number(), v.minValue(0))) })),
  /**
   * The longest `serve` takes to stop on SIGINT/SIGTERM: requests in flight get up to 10 s, and
   * whatever still runs at this bound is cut and the process exits 1. Default 15.
   */
  shutdownSeconds: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(3600))),
  /** How an import (`marquee import`, a refresh of `serve`) waits for another writer of the database. */
  import: v.optional(v.strictObject({ lockTimeoutSeconds: v.optional(v.pipe(v.number(), v.minValue(0))) })),
  sources: v.optional(
    v.strictObject({
      timeoutSeconds: v.optional(v.pipe(v.number(), v.minValue(1))),
      maxMegabytes: v.optional(v.pipe(v.number(), v.minValue(1))),
      /** Entries of one playlist, or of one Xtream account's live streams (once per format); more fails the source. Default 500,000. */
      maxEntries: v.optional(Count),
      /** Channels one guide declares; more fails the guide. Default 100,000. */
      maxGuideChannels: v.optional(Count),
      /** Characters of a name (channel, tvg-name, group, guide display name, library title); longer is cut with a warning. Default 300. */
      maxNameLength: v.optional(Count),
      /** The shrink guard: a source yielding less than this share of its last good import is kept. 0 turns it off. */
      minYieldRatio: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
      /**
       * May URLs that sources name themselves (a playlist's `url-tvg`) reach loopback, private and
       * link-local addresses? `true`, or the URLs allowed. The operator's own settings always may.
       */
      allowPrivate: v.optional(v.union([v.boolean(), v.array(v.pipe(v.string(), v.minLength(1)))])),
    }),
  ),
  /** Stream health checks (docs/health.md): passes that order backups and retire dead channels. */
  health: v.optional(
    v.strictObject({
      /** `serve` runs a pass after each import and every `intervalHours`. Default off. */
      enabled: v.optional(v.boolean()),
      /** Hours between passes; 0: only after each import. Default 6. */
      intervalHours: v.optional(Hours),
      concurrency: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(256))),
      /** Connections to one host at once. Default 2. */
      perHost: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(16))),
      timeoutSeconds: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(120))),
      /** The playlists and Xtream accounts checked, as configured; default every playlist, no account. */
      sources: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
      failuresBeforeDead: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
      hideDead: v.optional(v.boolean()),
      hideDeadChannels: v.optional(v.boolean()),
      /** Requests of one pass at most. Default 50,000. */
      maxRequests: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    }),
  ),
  security: v.optional(
    v.strictObject({
      /** File holding the key ring that encrypts user configuration; default beside the database. */
      configKeyFile: v.optional(v.string()),
      /** Requests per minute per client address; 0 turns the limit off (the default, for local use). */
      rateLimitPerMinute: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
      trustProxy: v.optional(v.boolean()),
      /** Connections one client address may hold open; 0 turns the cap off. Default 64. */
      maxConnectionsPerAddress: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    }),
  ),
  /** The relay (docs/relay.md): streams played through Marquee's own origin, one upstream per channel. */
  relay: v.optional(
    v.strictObject({
      /** `auto` (the default) relays what a browser cannot play as it is; `true` every stream; `false` none. */
      enabled: v.optional(v.union([v.literal('auto'), v.boolean()])),
      /** Also list the direct URLs after the relayed ones (desktop apps play them). Default false. */
      keepDirect: v.optional(v.boolean()),
      /** An upstream is closed this long after its last viewer left. Default 10. */
      idleSeconds: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(3600))),
      /** An upstream without bytes this long has failed: the relay moves to the channel's next stream. Default 6. */
      stallSeconds: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(120))),
      /** Upstream connections at once, in all. Default 16. */
      maxUpstreams: v.optional(Count),
      /** Viewers at once, in all. Default 256. */
      maxViewers: v.optional(Count),
      /** Megabytes of live segments kept per channel (each variant). Default 48. */
      bufferMegabytes: v.optional(v.pipe(v.number(), v.minValue(4), v.maxValue(1024))),
    }),
  ),
  /** `marquee serve --hosted`: one public instance, each user with their own sources (docs/hosted.md). */
  hosted: v.optional(
    v.strictObject({
      enabled: v.optional(v.boolean()),
      /** Folder of the source sets' stores and their registry; default `<db>.hosted` beside the database. */
      dir: v.optional(v.pipe(v.string(), v.minLength(1))),
      concurrentImports: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(64))),
      maxSourceSets: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      diskBudgetMegabytes: v.optional(v.pipe(v.number(), v.minValue(1))),
      /** A source set used this recently is never evicted to make room for a new one. Default 60. */
      minKeepMinutes: v.optional(v.pipe(v.number(), v.minValue(0))),
      waitSeconds: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(60))),
      /** Imports one install link (source set), or one address through the configure form, may start a minute. */
      importsPerMinute: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      /** Relay users' streams (off by default): `true`, or each source set's caps. */
      relay: v.optional(
        v.union([v.boolean(), v.strictObject({ maxUpstreams: v.optional(Count), maxViewers: v.optional(Count) })]),
      ),
    }),
  ),
  log: v.optional(
    v.strictObject({ format: v.optional(v.picklist(['json', 'pretty'])), requests: v.optional(v.boolean()) }),
  ),
  /** HTTPS served by Marquee itself (docs/https.md): certificate and key files, read again when they change. */
  tls: v.optional(
    v.strictObject({
      cert: v.optional(v.pipe(v.string(), v.minLength(1))),
      key: v.optional(v.pipe(v.string(), v.minLength(1))),
      /** A plain-HTTP port that redirects every request to https (`0` picks a free one). */
      redirectPort: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535))),
    }),
  ),
});

export type Settings = v.InferOutput<typeof SettingsSchema>;

/** Read and check a settings file; every problem is reported with its path (and line) in one error. */
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
  const yaml = ['.yaml', '.yml'].includes(extname(file).toLowerCase());
  let data: unknown;
  let lineOf: LineOf;
  try {
    if (yaml) {
      const { LineCounter, parseDocument } = yamlParser();
      const lines = new LineCounter();
      const doc = parseDocument(text, { lineCounter: lines });
      if (doc.errors.length > 0) throw doc.errors[0];
      data = doc.toJS({ maxAliasCount: 100 });
      lineOf = (path) => yamlLine(doc, lines, path);
    } else {
      data = JSON.parse(text);
      lineOf = (path) => jsonLine(text, path);
    }
  } catch (error) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `${file} is not valid ${yaml ? 'YAML' : 'JSON'}: ${(error as Error).message}`,
    );
  }
  return checkSettings(data ?? {}, file, lineOf);
}

export function checkSettings(data: unknown, where: string, lineOf: LineOf = () => undefined): Settings {
  const result = v.safeParse(SettingsSchema, data, { abortEarly: false });
  if (!result.success) {
    const name = basename(where);
    const at = (line: number | undefined) => (line === undefined ? `in ${name}` : `in ${name} line ${line}`);
    // Every unknown key, not only the first of each object (the schema stops there), each with its guess.
    const unknownAt = (path: (string | number)[]) => {
      const key = String(path.at(-1));
      const guess = closestKey(key, knownKeys(SettingsSchema, path.slice(0, -1)));
      const line = lineOf(path);
      return {
        path,
        guess,
        line,
        text: `unknown key \`${key}\` ${at(line)}${guess ? `; did you mean \`${guess}\`?` : ''}`,
      };
    };
    const unknown = unknownKeys(SettingsSchema, data).map(unknownAt);
    const pathText = (path: readonly (string | number)[]) => path.join('\u0000');
    const reported = new Set(unknown.map((u) => pathText(u.path)));
    // A key misspelt is not also missing: `intervalHour` for `intervalHours` is one problem, said once.
    const guessed = new Set(unknown.flatMap((u) => (u.guess ? [pathText([...u.path.slice(0, -1), u.guess])] : [])));
    const problems = unknown.map(({ line, text }) => ({ line, text }));
    for (const { issue, path } of flatten(result.issues, [])) {
      if (issue.type === 'strict_object' && issue.expected === 'never') {
        if (!reported.has(pathText(path))) problems.push(unknownAt(path));
        continue;
      }
      const missing = issue.received === 'undefined' && issue.expected?.startsWith('"');
      if (missing && guessed.has(pathText(path))) continue;
      const line = lineOf(path);
      const [described] = schemaIssues([{ ...issue, path: undefined }], path.reduce<string>(jsonPath, '$'));
      problems.push({ line, text: `${described?.path}: ${described?.message} (${at(line)})` });
    }
    // In the order of the file, so they can be fixed from the top.
    const texts = problems.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity)).map((p) => p.text);
    throw new MarqueeError(
      'INVALID_SETTINGS',
      texts.length === 1
        ? texts[0]!
        : `${where} has ${texts.length} problems:\n${texts.map((p) => `  ${p}`).join('\n')}`,
      { details: { issues: schemaIssues(result.issues, '$') } },
    );
  }
  return resolvePaths(result.output, dirname(resolve(where)));
}
