/**
 * XMLTV time parsing. The DTD says `YYYYMMDDhhmmss +HHMM` with any trailing part omitted; guides in
 * the wild add `Z`/`GMT`/`UTC`, `+HH:MM`, no space before the offset, or no offset at all. This is
 * hand-rolled on char codes because it runs twice per programme on guides of millions of them.
 */
import { MarqueeError } from '../../errors.js';

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
/** Real offsets run from -12:00 to +14:00; anything past ±18:00 (ISO 8601's bound) is garbage. */
const MAX_OFFSET_MINUTES = 18 * 60;
/** tvg-shift and operator shifts are a few hours; more is a typo we refuse rather than honour. */
const MAX_SHIFT_HOURS = 48;

/** Options of one guide source: the offset for times written without one, and an operator shift. */
export interface XmltvTimeOptions {
  /** Minutes east of UTC assumed for times with no offset (default 0: UTC). */
  readonly defaultOffsetMinutes?: number;
  /** Hours added to every time of the source, fractional or negative (`tvg-shift`, operator setting). */
  readonly shiftHours?: number;
}

/**
 * Parses one XMLTV time to UTC epoch milliseconds; `undefined` when it is not a time.
 *
 * @example parseXmltvTime('20240301203000 +0100') === Date.UTC(2024, 2, 1, 19, 30)
 */
export function parseXmltvTime(text: string, defaultOffsetMinutes = 0): number | undefined {
  const end = text.length;
  let i = skipSpaces(text, 0);
  const digitsStart = i;
  while (i < end && isDigit(text.charCodeAt(i))) i++;
  const digits = i - digitsStart;
  // The DTD allows truncating from the right: YYYY, YYYYMM, YYYYMMDD, ...hh, ...hhmm, ...hhmmss.
  if (digits < 4 || digits > 14 || digits % 2 !== 0) return undefined;
  const year = number(text, digitsStart, 4);
  const month = digits >= 6 ? number(text, digitsStart + 4, 2) : 1;
  const day = digits >= 8 ? number(text, digitsStart + 6, 2) : 1;
  const hour = digits >= 10 ? number(text, digitsStart + 8, 2) : 0;
  const minute = digits >= 12 ? number(text, digitsStart + 10, 2) : 0;
  const second = digits >= 14 ? number(text, digitsStart + 12, 2) : 0;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  // 24:00:00 is how some grabbers write the midnight that ends a day; a leap second 60 is kept as is.
  if (hour > 24 || minute > 59 || second > 60 || (hour === 24 && (minute > 0 || second > 0))) return undefined;

  i = skipSpaces(text, i);
  let offset = defaultOffsetMinutes;
  if (i < end) {
    const afterZone = readZone(text, i);
    if (afterZone < 0) return undefined;
    const namedUtc = afterZone !== i;
    i = afterZone;
    if (i < end && (text.charCodeAt(i) === PLUS || text.charCodeAt(i) === MINUS)) {
      const parsed = readOffset(text, i);
      if (parsed === undefined) return undefined;
      offset = parsed.minutes;
      i = parsed.next;
    } else if (namedUtc) {
      offset = 0;
    } else {
      return undefined;
    }
    if (skipSpaces(text, i) !== end) return undefined;
  }
  const secondsOfDay = (hour * 60 + minute) * 60 + second;
  return daysFromCivil(year, month, day) * MS_PER_DAY + secondsOfDay * 1000 - offset * MS_PER_MINUTE;
}

/**
 * Builds the time parser of one source: its default offset and operator shift applied to every time.
 * Throws INVALID_SETTINGS for an offset or shift out of range (an operator mistake, not guide data).
 *
 * @example createXmltvTimeParser({ shiftHours: -1.5 })('20240301120000 +0000') === Date.UTC(2024, 2, 1, 10, 30)
 */
export function createXmltvTimeParser(options: XmltvTimeOptions = {}): (text: string) => number | undefined {
  const offset = options.defaultOffsetMinutes ?? 0;
  const shiftHours = options.shiftHours ?? 0;
  if (!Number.isInteger(offset) || Math.abs(offset) > MAX_OFFSET_MINUTES) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `defaultOffsetMinutes must be a whole number of minutes within ±${MAX_OFFSET_MINUTES}, got ${offset}`,
    );
  }
  if (!Number.isFinite(shiftHours) || Math.abs(shiftHours) > MAX_SHIFT_HOURS) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `the guide time shift must be a number of hours within ±${MAX_SHIFT_HOURS}, got ${shiftHours}`,
    );
  }
  const shiftMs = Math.round(shiftHours * 3_600_000);
  // A programme's stop is usually the next one's start, and many guides give every channel the
  // same slots: remembering the last two times written saves most of the parsing, and a bounded
  // table of the times seen saves most of the rest (the 370 MB benchmark guide has 336 distinct
  // times across 1.3 million; a real one a few thousand). Each entry is what parsing its text gave.
  let lastText = '';
  let lastTime: number | undefined;
  let olderText = '';
  let olderTime: number | undefined;
  const seen = new Map<string, number | undefined>();
  return (text) => {
    if (text === lastText) return lastTime;
    if (text === olderText) return olderTime;
    let time = seen.get(text);
    if (time === undefined && !seen.has(text)) {
      const parsed = parseXmltvTime(text, offset);
      time = parsed === undefined ? undefined : parsed + shiftMs;
      if (seen.size >= SEEN_TIMES) seen.clear();
      if (text.length <= 64) seen.set(text, time);
    }
    olderText = lastText;
    olderTime = lastTime;
    lastText = text;
    lastTime = time;
    return time;
  };
}

/** Times remembered per source before the table starts again. */
const SEEN_TIMES = 4096;

const PLUS = 43;
const MINUS = 45;
const COLON = 58;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function skipSpaces(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i++;
  }
  return i;
}

/** The decimal value of `length` digits at `start` (the caller checked they are digits). */
function number(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

/** Skips `Z`, `GMT`, `UTC` or `UT` (any case) and following spaces; -1 when some other word stands there. */
function readZone(text: string, i: number): number {
  let j = i;
  while (j < text.length && isLetter(text.charCodeAt(j))) j++;
  if (j === i) return i;
  const word = text.slice(i, j).toUpperCase();
  if (word !== 'Z' && word !== 'GMT' && word !== 'UTC' && word !== 'UT') return -1;
  return skipSpaces(text, j);
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Reads `+HHMM`, `+HH:MM` or `+HH` at `i`. */
function readOffset(text: string, i: number): { minutes: number; next: number } | undefined {
  const sign = text.charCodeAt(i) === MINUS ? -1 : 1;
  let j = i + 1;
  const start = j;
  while (j < text.length && isDigit(text.charCodeAt(j))) j++;
  let hours: number;
  let minutes = 0;
  if (j - start === 4) {
    hours = number(text, start, 2);
    minutes = number(text, start + 2, 2);
  } else if (j - start === 2) {
    hours = number(text, start, 2);
    if (j < text.length && text.charCodeAt(j) === COLON) {
      const m = j + 1;
      if (m + 2 > text.length || !isDigit(text.charCodeAt(m)) || !isDigit(text.charCodeAt(m + 1))) return undefined;
      minutes = number(text, m, 2);
      j = m + 2;
    }
  } else {
    return undefined;
  }
  const total = hours * 60 + minutes;
  if (minutes > 59 || total > MAX_OFFSET_MINUTES) return undefined;
  return { minutes: sign * total, next: j };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm; no Date object needed). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * A time as XMLTV writes it, in UTC: what the guides Marquee writes (the demo's, an Xtream
 * account's short EPG read as a guide) and the tests' guides use.
 * @example formatXmltvTime(Date.UTC(2026, 0, 1, 12)) === '20260101120000 +0000'
 */
export function formatXmltvTime(ms: number): string {
  return `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)} +0000`;
}
