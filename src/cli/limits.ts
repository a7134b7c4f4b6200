/**
 * The count and length limits of the settings (issue 48: `sources.maxEntries`,
 * `sources.maxGuideChannels`, `sources.maxNameLength`, `livetv.maxStreamsPerChannel`,
 * `livetv.maxProgrammeTitleLength`, `livetv.maxDescriptionLength`, `livetv.maxProgrammesPerDay`,
 * `livetv.maxLogoLength`, `library.maxItems`, `library.maxEpisodesPerSeries`), as the
 * importers, the Xtream reader and the live-TV part take them. Unset ones are left to their
 * defaults (sources/entry-limits.ts, livetv's DEFAULT_MAX_STREAMS_PER_CHANNEL, the library's).
 */
import type { EntryLimits } from '../sources/entry-limits.js';
import type { Settings } from './settings.js';

/** Every limit of the settings, as plain data (it crosses into import threads). */
export interface ImportLimits extends Partial<EntryLimits> {
  readonly maxStreamsPerChannel?: number;
  readonly maxProgrammesPerDay?: number;
  readonly maxLogoLength?: number;
  readonly maxItems?: number;
  readonly maxEpisodesPerSeries?: number;
}

/**
 * @example importLimits({ sources: { maxNameLength: 120 } }) // { maxNameLength: 120 }
 */
export function importLimits(settings: Settings): ImportLimits {
  const s = settings.sources;
  const l = settings.livetv;
  const limits: { -readonly [K in keyof ImportLimits]: number | undefined } = {
    maxEntries: s?.maxEntries,
    maxGuideChannels: s?.maxGuideChannels,
    maxNameLength: s?.maxNameLength,
    maxProgrammeTitleLength: l?.maxProgrammeTitleLength,
    maxDescriptionLength: l?.maxDescriptionLength,
    maxStreamsPerChannel: l?.maxStreamsPerChannel,
    maxProgrammesPerDay: l?.maxProgrammesPerDay,
    maxLogoLength: l?.maxLogoLength,
    maxItems: settings.library?.maxItems,
    maxEpisodesPerSeries: settings.library?.maxEpisodesPerSeries,
  };
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as ImportLimits;
}

/** The entry limits alone (for `importLiveTv`'s `limits` and the Xtream reader). */
export function entryLimitsOf(limits: ImportLimits): Partial<EntryLimits> {
  const {
    maxStreamsPerChannel: _streams,
    maxProgrammesPerDay: _programmes,
    maxLogoLength: _logo,
    maxItems: _items,
    maxEpisodesPerSeries: _episodes,
    ...entry
  } = limits;
  return entry;
}
