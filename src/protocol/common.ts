import * as v from 'valibot';

/**
 * Shared field rules. They mirror what the real client accepts: an absolute URL is what the
 * client's URL parser takes (any scheme, `data:` included), a date-time is full RFC 3339.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Full RFC 3339 date-time with a zone: `2026-11-22T18:00:00Z`. `2020-01-01`, numbers and
 * impossible days (`2026-02-30`, which Date.parse rolls over to March) fail, as in the client.
 * Plain arithmetic, no Date: response validation calls this three times per programme.
 */
export function isRfc3339(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0)) return false;
  // Leap seconds (:60) are refused: nothing we serve needs them and Date.parse cannot read them.
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return false;
  return m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
}

/** An absolute URL, as the client parses it (`https://…`, `data:…`); a relative path fails. */
export function isAbsoluteUrl(value: string): boolean {
  if (PLAIN_HTTP_URL.test(value)) return true;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return false;
  return LATIN1.test(value) ? parsesAsUrl(value) : URL.canParse(value);
}

/**
 * A character of U+0080-U+00FF. Node 20's `URL.canParse`, once V8 has optimised its caller (its
 * fast API call), reads such a string's Latin-1 bytes as UTF-8 and refuses valid URLs with one in
 * the host: `https://españa.es/` was refused 97,070 times out of 100,000 in a hot loop, accepted
 * while cold. `new URL` has no such path.
 */
const LATIN1 = /[\u0080-\u00ff]/;

function parsesAsUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The common shape of an http(s) URL that `URL.canParse` always accepts: a host of dot-separated
 * labels whose last starts with a letter (so it is never read as an IPv4 address), no port, no
 * query, a path of URL characters. An import checks hundreds of thousands of programme icons:
 * on the 370 MB benchmark guide's 672,000 this test takes 34 ms where `URL.canParse` takes 142 ms
 * (of a 6.7 s import). Every other value still goes to `URL.canParse`; common.test.ts holds the
 * two to the same answer on generated strings.
 */
const PLAIN_HTTP_URL = /^https?:\/\/(?:[A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*(?:\/[!$&'()*+,;=:@%A-Za-z0-9._~/-]*)?$/;

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
