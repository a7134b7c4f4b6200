import { isIsoDay, isRfc3339 } from '../../protocol/common.js';

/**
 * Release dates as library authors write them: a year (`2008`, as a string or a number), a day
 * (`2008-04-10`) or a full RFC 3339 date-time. The client rejects a whole `meta` response whose
 * `released` is not a full date-time, so every form is normalised to one.
 */

/** The shapes accepted; the calendar check (`2021-02-30`) is `isReleased`. */
export const RELEASED_PATTERN = /^\d{4}(?:-\d{2}-\d{2}(?:[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2}))?)?$/;

export const RELEASED_MESSAGE =
  'must be a year (2008), a day (2008-04-10) or an RFC 3339 date-time (2008-04-10T00:00:00Z)';

/** True for a year, a real calendar day or a valid RFC 3339 date-time: `isReleased('2008')`. */
export function isReleased(value: string | number): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1000 && value <= 9999;
  if (/^\d{4}$/.test(value)) return Number(value) >= 1000;
  if (value.length === 10) return isIsoDay(value);
  return isRfc3339(value);
}

/** Normalise to a UTC RFC 3339 date-time: `toDateTime('2008')` → `2008-01-01T00:00:00.000Z`. */
export function toDateTime(value: string | number): string {
  const text = String(value);
  if (text.length === 4) return `${text}-01-01T00:00:00.000Z`;
  if (text.length === 10) return `${text}T00:00:00.000Z`;
  return new Date(text).toISOString();
}
