/**
 * One configured Xtream account as the sources the two backends read: its live channels as a
 * playlist-like source (read → a snapshot text, the copy; parse → playlist records), its
 * `xmltv.php` as a guide source, and its movies and series as a library source (read → library
 * JSON text). The account is checked once per import, whichever part reads first.
 */
import { type EntryLimits, entryLimits } from '../entry-limits.js';
import type { SourceOptions, SourceStream } from '../input/index.js';
import type { Playlist, SourceWarning } from '../records.js';
import { apiUrl, parseXtreamAccount, type XtreamAccount, type XtreamCredentials } from './account.js';
import { checkAccount, type XtreamServer } from './auth.js';
import { createXtreamClient } from './client.js';
import { type GuideChannels, openXtreamGuide } from './guide.js';
import { type LibraryParts, MAX_LIST_TITLES, readLibrary } from './library.js';
import { type CategoryFilter, livePlaylist, readLive } from './live.js';

/** One account as the settings give it (`xtream: [{ url, ... }]`). */
export interface XtreamSettings extends XtreamCredentials, CategoryFilter {
  readonly url: string;
  /** Read its live channels (default true). */
  readonly live?: boolean;
  /** Read its movies (default true). */
  readonly movies?: boolean;
  /** Read its series (default true). */
  readonly series?: boolean;
  /** Higher is offered first among a channel's streams; equal keeps the settings order. Default 0. */
  readonly priority?: number;
  /** The User-Agent the panel expects from players (sent with every request to it). */
  readonly userAgent?: string;
}

/** The live channels of an account, read like a playlist (the live-TV import's `PlaylistSource.reader`). */
export interface XtreamLiveReader {
  readonly kind: 'xtream';
  readonly label: string;
  /** The snapshot text of its categories and live streams: what `parse` reads, and the copy kept. */
  read(options: SourceOptions): Promise<string>;
  parse(text: string): Playlist;
  /** `xmltv.php`, with the short-guide fallback. */
  readonly guides: readonly XtreamGuideSource[];
}

export interface XtreamGuideSource {
  /** `xmltv.php` with the credentials (the source's key is made from it; never shown). */
  readonly location: string;
  open(options: SourceOptions, warn: (warning: SourceWarning) => void): Promise<SourceStream>;
}

/** The movies and series of an account as a library text source (the library import's `sources`). */
export interface XtreamLibraryReader {
  readonly kind: 'xtream';
  /** The account's API address (holds the credentials: the key is made from it; never shown). */
  readonly location: string;
  readonly label: string;
  /** A library JSON text of its movies and series, and what was odd in the panel's answers. */
  read(signal?: AbortSignal): Promise<{ text: string; warnings: SourceWarning[] }>;
}

export interface XtreamSource {
  readonly account: XtreamAccount;
  readonly priority: number;
  readonly live?: XtreamLiveReader;
  readonly library?: XtreamLibraryReader;
}

/** The counts and lengths an account's lists are read with (entry-limits.ts, and the library's items). */
export interface XtreamLimits extends Partial<EntryLimits> {
  /** Titles of one movie or series list (`library.maxItems`); default 100,000. */
  readonly maxItems?: number;
}

/**
 * The sources of one account. `options` are the read limits (`allowPrivateAddresses` is set: the
 * operator configured the account); the live read takes the import's own. `limits` bound the
 * counts and lengths of its lists.
 * @example const { live, library } = xtreamSource({ url: 'http://me:pw@tv.example:8080' }, { timeoutMs: 60_000 })
 */
export function xtreamSource(
  settings: XtreamSettings,
  options: SourceOptions = {},
  limits: XtreamLimits = {},
): XtreamSource {
  const account = parseXtreamAccount(settings.url, settings);
  const entry = entryLimits(limits);
  const base: SourceOptions = {
    ...options,
    allowPrivateAddresses: true,
    ...(settings.userAgent !== undefined ? { userAgent: settings.userAgent } : {}),
  };
  let checked: Promise<XtreamServer> | undefined;
  let channels: GuideChannels | undefined;
  const server = (opts: SourceOptions) => {
    checked ??= checkAccount(createXtreamClient(account, opts));
    return checked;
  };
  const live: XtreamLiveReader | undefined =
    settings.live === false
      ? undefined
      : {
          kind: 'xtream',
          label: account.label,
          async read(opts) {
            const read = { ...base, ...opts, allowPrivateAddresses: true };
            const client = createXtreamClient(account, read);
            return readLive(client, await server(read), entry);
          },
          parse(text) {
            const { playlist, guide } = livePlaylist(text, account, settings, account.label);
            channels = guide;
            return playlist;
          },
          guides: [
            {
              location: apiUrl(account, 'xmltv.php'),
              open: (opts, warn) =>
                openXtreamGuide(
                  createXtreamClient(account, { ...base, ...opts, allowPrivateAddresses: true }),
                  () => channels,
                  { ...base, ...opts, allowPrivateAddresses: true },
                  warn,
                ),
            },
          ],
        };
  const parts: LibraryParts = {
    maxItems: limits.maxItems ?? MAX_LIST_TITLES,
    ...(settings.movies !== undefined ? { movies: settings.movies } : {}),
    ...(settings.series !== undefined ? { series: settings.series } : {}),
    ...(settings.includeCategories ? { includeCategories: settings.includeCategories } : {}),
    ...(settings.excludeCategories ? { excludeCategories: settings.excludeCategories } : {}),
  };
  const library: XtreamLibraryReader | undefined =
    settings.movies === false && settings.series === false
      ? undefined
      : {
          kind: 'xtream',
          location: account.location,
          label: account.label,
          async read(signal) {
            const read = { ...base, ...(signal ? { signal } : {}) };
            await server(read);
            const result = await readLibrary(createXtreamClient(account, read), parts);
            return {
              text: result.text,
              warnings: result.warnings.map((message) => ({ source: account.label, message })),
            };
          },
        };
  return {
    account,
    priority: settings.priority ?? 0,
    ...(live ? { live } : {}),
    ...(library ? { library } : {}),
  };
}
