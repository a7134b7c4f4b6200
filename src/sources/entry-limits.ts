/**
 * The counts and lengths a source controls (issue 48). Byte limits (input/limits.ts) bound what
 * is read, but the cost of an import grows with the number of entries and the length of names as
 * well: 300,000 tiny entries fit in 17 MB, a 100,000-character name in one line. Each limit here
 * is a setting, with a default generous for real sources, checked where the input is read and
 * named (by its setting) in the error or warning it causes:
 *
 * - entries: a playlist's entries, an account's live streams (once per output format, as each
 *   becomes a stream), a guide's channels; past the limit the source fails (and its last good data
 *   is kept, as for any failure), before anything past it is kept;
 * - names: a channel's name, tvg-name and group, a guide channel's display names, an account's
 *   stream and category names: cut, with a warning naming the line, before matching and storage;
 * - programme texts: titles, sub-titles and categories, descriptions: cut, counted in the report.
 */
import { MarqueeError } from '../errors.js';

export interface EntryLimits {
  /** Entries of one playlist, or of one account's live streams (a stream counts once per output format). */
  readonly maxEntries: number;
  /** Channels one guide declares. */
  readonly maxGuideChannels: number;
  /** Characters of a name; longer is cut with a warning. */
  readonly maxNameLength: number;
  /** Characters of a programme's title, sub-title or category; longer is cut and counted. */
  readonly maxProgrammeTitleLength: number;
  /** Characters of a programme's description; longer is cut and counted. */
  readonly maxDescriptionLength: number;
}

/** The defaults: far above real sources (the largest names of the corpus are under 100 characters). */
export const DEFAULT_ENTRY_LIMITS: EntryLimits = Object.freeze({
  maxEntries: 500_000,
  maxGuideChannels: 100_000,
  maxNameLength: 300,
  maxProgrammeTitleLength: 300,
  maxDescriptionLength: 4_000,
});

/** The setting of each limit, as messages name it. */
export const ENTRY_LIMIT_SETTINGS: Readonly<Record<keyof EntryLimits, string>> = Object.freeze({
  maxEntries: 'sources.maxEntries',
  maxGuideChannels: 'sources.maxGuideChannels',
  maxNameLength: 'sources.maxNameLength',
  maxProgrammeTitleLength: 'livetv.maxProgrammeTitleLength',
  maxDescriptionLength: 'livetv.maxDescriptionLength',
});

/**
 * The defaults with `overrides`, each checked to be a positive whole number.
 * @example entryLimits({ maxNameLength: 120 }).maxEntries // 500000
 */
export function entryLimits(overrides: Partial<EntryLimits> = {}): EntryLimits {
  const limits: { -readonly [K in keyof EntryLimits]: number } = { ...DEFAULT_ENTRY_LIMITS };
  for (const [name, value] of Object.entries(overrides) as [keyof EntryLimits, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new MarqueeError(
        'INVALID_SETTINGS',
        `${ENTRY_LIMIT_SETTINGS[name]} must be a positive whole number, got ${String(value)}`,
      );
    }
    limits[name] = value;
  }
  return limits;
}

/**
 * The error of a source with more entries than `max`: SOURCE_TOO_LARGE naming the source, what
 * it counted and the setting (`sources.maxEntries` unless told), and `note` after it.
 * @example tooManyEntries('list.m3u', 500000, 'entries').message // 'list.m3u: more than 500000 entries (sources.maxEntries)'
 */
export function tooManyEntries(
  label: string,
  max: number,
  what: string,
  options: { readonly setting?: string; readonly note?: string } = {},
): MarqueeError {
  const setting = options.setting ?? ENTRY_LIMIT_SETTINGS.maxEntries;
  const note = options.note === undefined ? '' : `; ${options.note}`;
  return new MarqueeError('SOURCE_TOO_LARGE', `${label}: more than ${max} ${what} (${setting}${note})`, {
    details: { source: label, limit: max, setting },
  });
}

/**
 * `text` cut to `max` UTF-16 units without splitting a surrogate pair (and trimmed at the cut).
 * @example cutText('Channel One', 7) // 'Channel'
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max).trimEnd();
}

/**
 * The warning of a name cut: what it was (`name`, `tvg-name`, `group-title`...; empty when the
 * warning names the field already), its length and the limit with its setting.
 * @example nameCut('name', 60000, 300) // 'name is 60000 characters long; cut to 300 (sources.maxNameLength)'
 */
export function nameCut(what: string, length: number, max: number): string {
  return `${what === '' ? '' : `${what} `}is ${length} characters long; cut to ${max} (${ENTRY_LIMIT_SETTINGS.maxNameLength})`;
}
