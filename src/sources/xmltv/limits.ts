/**
 * Bounds on what one guide may make the reader hold or do. A guide is someone else's file: every
 * size it controls is capped here, with defaults generous enough for the largest real guides.
 */
import { MarqueeError } from '../../errors.js';
import { DEFAULT_ENTRY_LIMITS, type EntryLimits } from '../entry-limits.js';
import { Field } from './draft.js';

export interface XmltvLimits {
  /** Deepest element nesting accepted (XMLTV needs 4); deeper is an error. */
  readonly maxDepth: number;
  /** Longest attribute value, in characters; longer is an error. */
  readonly maxAttributeLength: number;
  /** Longest text of one element (a description); longer is truncated with a warning. */
  readonly maxTextLength: number;
  /**
   * Longest piece of markup the parser must hold before it can report it: one tag, comment, CDATA
   * section or declaration, in characters; longer is an error. Keep it above maxTextLength so a
   * CDATA description can reach the truncation above.
   */
  readonly maxMarkupLength: number;
  /** Channels one guide declares; more is an error naming `sources.maxGuideChannels`. */
  readonly maxChannels: number;
  readonly maxProgrammes: number;
  /** Longest display name; longer is cut with a warning at its line (`sources.maxNameLength`). */
  readonly maxNameLength: number;
  /** Longest programme title, sub-title or category; longer is cut and counted (`livetv.maxProgrammeTitleLength`). */
  readonly maxTitleLength: number;
  /** Longest programme description; longer is cut and counted (`livetv.maxDescriptionLength`). */
  readonly maxDescriptionLength: number;
  /** Most titles, descriptions, categories, actors... kept per record; the rest are dropped with a warning. */
  readonly maxValuesPerList: number;
  /** Most warnings listed for one guide; the rest are counted in a final warning. */
  readonly maxWarnings: number;
}

/** Defaults: a 2,000-channel, 14-day guide is about 1 million programmes. */
export const DEFAULT_XMLTV_LIMITS: XmltvLimits = Object.freeze({
  maxDepth: 64,
  maxAttributeLength: 64 * 1024,
  maxTextLength: 1024 * 1024,
  maxMarkupLength: 4 * 1024 * 1024,
  maxChannels: DEFAULT_ENTRY_LIMITS.maxGuideChannels,
  maxProgrammes: 10_000_000,
  maxNameLength: DEFAULT_ENTRY_LIMITS.maxNameLength,
  maxTitleLength: DEFAULT_ENTRY_LIMITS.maxProgrammeTitleLength,
  maxDescriptionLength: DEFAULT_ENTRY_LIMITS.maxDescriptionLength,
  maxValuesPerList: 100,
  maxWarnings: 1_000,
});

/**
 * Fills the defaults in and checks every limit is a positive whole number.
 *
 * @example resolveXmltvLimits({ maxProgrammes: 1000 }).maxDepth === 64
 */
export function resolveXmltvLimits(overrides: Partial<XmltvLimits> = {}): XmltvLimits {
  const limits = { ...DEFAULT_XMLTV_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new MarqueeError('INVALID_SETTINGS', `XMLTV limit ${name} must be a positive whole number, got ${value}`);
    }
  }
  return limits;
}

/**
 * The reader's limits of the import's entry limits (entry-limits.ts).
 * @example xmltvLimitsOf(entryLimits({ maxNameLength: 120 })).maxNameLength // 120
 */
export function xmltvLimitsOf(limits: EntryLimits): Partial<XmltvLimits> {
  return {
    maxChannels: limits.maxGuideChannels,
    maxNameLength: limits.maxNameLength,
    maxTitleLength: limits.maxProgrammeTitleLength,
    maxDescriptionLength: limits.maxDescriptionLength,
  };
}
/**
 * The characters a field keeps: a display name, a programme's title, sub-title, category and
 * description have limits of their own (never above maxTextLength); any other text maxTextLength.
 */
export function fieldLimit(limits: XmltvLimits, field: Field): number {
  switch (field) {
    case Field.DisplayName:
      return Math.min(limits.maxNameLength, limits.maxTextLength);
    case Field.Title:
    case Field.SubTitle:
    case Field.Category:
      return Math.min(limits.maxTitleLength, limits.maxTextLength);
    case Field.Desc:
      return Math.min(limits.maxDescriptionLength, limits.maxTextLength);
    default:
      return limits.maxTextLength;
  }
}
