/**
 * Reading the fields of panel answers, which are sloppy: numbers come as strings (`"7"`), missing
 * values as `""` or `null`, lists as `null` or as objects keyed by id. Each reader takes anything
 * and gives a clean value or undefined; it never throws.
 */
import { cleanName, cleanText, hasControl } from '../clean.js';

export type Json = unknown;

/** A record of an answer, or undefined when the value is not an object. */
export function obj(value: Json): Record<string, Json> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, Json>)
    : undefined;
}

/** A non-empty one-line text (numbers become text), without control characters. */
export function str(value: Json, max = 1_000): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const text = cleanName(value).trim();
  return text === '' ? undefined : text.slice(0, max);
}

/** A non-empty multi-line text (a plot), without control characters. */
export function longText(value: Json, max = 16_000): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = cleanText(value).trim();
  return text === '' ? undefined : text.slice(0, max);
}

/** A finite number from a number or a numeric string. */
export function num(value: Json): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : undefined;
}

/** An id (stream, series, episode, category): a positive integer or a short token, as text. */
export function id(value: Json): string | undefined {
  const text =
    typeof value === 'number' ? (Number.isInteger(value) && value >= 0 ? String(value) : undefined) : str(value, 64);
  return text !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(text) ? text : undefined;
}

/** A list: an array as is, the values of an object keyed by id, nothing for anything else. */
export function list(value: Json): Json[] {
  if (Array.isArray(value)) return value;
  const o = obj(value);
  return o ? Object.values(o) : [];
}

/** An http(s) URL without control characters (posters, logos), else undefined. */
export function httpUrl(value: Json): string | undefined {
  const text = typeof value === 'string' ? value.trim() : undefined;
  if (!text || text.length > 2_048 || hasControl(text) || !/^https?:\/\/[^\s]+$/i.test(text)) return undefined;
  try {
    new URL(text);
    return text;
  } catch {
    return undefined;
  }
}

/** The first http(s) URL of a value that is a URL or a list of them (`backdrop_path`). */
export function firstUrl(value: Json): string | undefined {
  return Array.isArray(value) ? value.map(httpUrl).find((u) => u !== undefined) : httpUrl(value);
}

/** Names from a comma, slash or pipe separated text (`"Drama / Comedy"`, `"A, B"`). */
export function names(value: Json, max = 20): string[] {
  const text = str(value, 4_000);
  if (text === undefined) return [];
  return [
    ...new Set(
      text
        .split(/\s*[,/|]\s*/)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ].slice(0, max);
}

/** A file extension as panels give them (`mkv`, `mp4`), else the fallback. */
export function extension(value: Json, fallback: string): string {
  const text = str(value, 16)?.toLowerCase().replace(/^\./, '');
  return text !== undefined && /^[a-z0-9]{1,8}$/.test(text) ? text : fallback;
}

/** A date `YYYY-MM-DD` (or a year) from the forms panels use, else undefined. */
export function date(value: Json): string | undefined {
  const text = str(value, 40);
  if (text === undefined) return undefined;
  const full = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (full) {
    const [, y, m, d] = full;
    const parsed = new Date(`${y}-${m}-${d}T00:00:00Z`);
    return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== `${y}-${m}-${d}` || y === '0000'
      ? undefined
      : `${y}-${m}-${d}`;
  }
  const year = /^(\d{4})$/.exec(text);
  return year && Number(year[1]) >= 1000 ? year[1] : undefined;
}
