import * as v from 'valibot';

/**
 * Shared field rules. They mirror what the real client accepts: an absolute URL is what the
 * client's URL parser takes (any scheme, `data:` included), a date-time is full RFC 3339.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Full RFC 3339 date-time with a zone: `2026-11-22T18:00:00Z`. `2020-01-01` and numbers fail. */
export function isRfc3339(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m;
  // Date.parse rolls 2026-02-30 over to March 2; the client's RFC 3339 parser rejects it.
  const daysInMonth = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > daysInMonth) return false;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return false;
  return !Number.isNaN(Date.parse(value));
}

/** An absolute URL, as the client parses it (`https://…`, `data:…`); a relative path fails. */
export function isAbsoluteUrl(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return false;
  return URL.canParse(value);
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day in `YYYY-MM-DD` form (2026-02-30 fails). */
export function isIsoDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Strict semver 2.0.0, as the client requires (`1.0` is rejected). */
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export const UrlSchema = v.pipe(
  v.string(),
  v.check(isAbsoluteUrl, 'must be an absolute URL (the client drops the item otherwise)'),
);

export const DateTimeSchema = v.pipe(
  v.string(),
  v.check(isRfc3339, 'must be a full RFC 3339 date-time such as 2026-01-31T20:00:00Z'),
);

export const StringListSchema = v.array(v.string());
