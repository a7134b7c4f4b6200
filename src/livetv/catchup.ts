/**
 * Catch-up: playing a programme that already aired from its start. A playlist entry says how its
 * source builds such a URL with the `catchup`, `catchup-source`, `catchup-days`,
 * `catchup-correction` attributes (the modes and placeholders Kodi's IPTV Simple and TiviMate
 * read), plus Marquee's `catchup-timezone` for sources whose URLs take local times. `catchupPlan`
 * checks an entry's attributes once, at import; `catchupUrl` fills the plan's template for one
 * programme, per request (`{offset}` and `{lutc}` depend on the time it is asked).
 */

import { hasControl, showControls } from '../sources/clean.js';
import { zoneFormatter } from '../sources/zone.js';

const SECOND = 1000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Days a source keeps when it names a mode but no `catchup-days`. */
export const DEFAULT_CATCHUP_DAYS = 5;
/** The longest archive honoured: programmes are kept this long for it (docs/catchup.md). */
export const MAX_CATCHUP_DAYS = 60;

/** What a catch-up entry resolves to: a URL template and its archive window. */
export interface CatchupPlan {
  /** `default`, `append`, `shift`, `flussonic` or `xc`: how `template` was made. */
  readonly mode: string;
  /** The catch-up URL with `{…}` / `${…}` placeholders. */
  readonly template: string;
  /** How far back programmes can be played, ms. */
  readonly archiveMs: number;
  /** Hours added to the programme's times before they are written (`catchup-correction`). */
  readonly correctionMs: number;
  /** IANA zone of `{Y}`…`{S}` and format strings (`catchup-timezone`); UTC when absent. */
  readonly timezone?: string;
}

export type CatchupResult =
  | { readonly plan: CatchupPlan; readonly problems: readonly string[] }
  | { readonly plan?: undefined; readonly problems: readonly string[] };

const MODE_ALIASES: Readonly<Record<string, string>> = {
  default: 'default',
  append: 'append',
  shift: 'shift',
  timeshift: 'shift',
  flussonic: 'flussonic',
  'flussonic-hls': 'flussonic',
  'flussonic-ts': 'flussonic',
  fs: 'flussonic',
  xc: 'xc',
};

const PLACEHOLDER = /\$?\{([A-Za-z-]+)(?::([^{}]*))?\}/g;
const TIMES = new Set(['utc', 'start', 'utcend', 'end', 'lutc', 'now', 'timestamp']);
const PARTS = new Set(['Y', 'm', 'd', 'H', 'M', 'S']);
const SPANS = new Set(['duration', 'offset']);
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The catch-up plan of a stream from its entry's catch-up attributes, or why it has none.
 * Attributes without a `catchup` mode (and no legacy `timeshift` days) mean no catch-up, quietly.
 * @example catchupPlan('http://tv.example/live/u/p/7.ts', { catchup: 'xc', 'catchup-days': '7' }).plan?.template
 *   // 'http://tv.example/timeshift/u/p/{duration:60}/{Y}-{m}-{d}:{H}-{M}/7.ts'
 */
export function catchupPlan(streamUrl: string, attributes: Readonly<Record<string, string>>): CatchupResult {
  const problems: string[] = [];
  const given = (attributes.catchup ?? attributes['catchup-type'] ?? '').trim().toLowerCase();
  if (given === '' || given === 'disabled' || given === 'none') return { problems };
  const mode = MODE_ALIASES[given];
  if (mode === undefined) return { problems: [`catchup mode "${clip(given)}" is not supported; no catch-up`] };

  const daysText = (attributes['catchup-days'] ?? '').trim();
  let days = DEFAULT_CATCHUP_DAYS;
  if (daysText !== '') {
    const n = Number(daysText);
    if (!/^\d+(\.\d+)?$/.test(daysText) || !(n > 0)) {
      return { problems: [`catchup-days "${clip(daysText)}" is not a positive number of days; no catch-up`] };
    }
    days = n;
    if (n > MAX_CATCHUP_DAYS) {
      problems.push(`catchup-days ${daysText} is more than ${MAX_CATCHUP_DAYS}; ${MAX_CATCHUP_DAYS} days are offered`);
      days = MAX_CATCHUP_DAYS;
    }
  }

  let correctionMs = 0;
  const correction = (attributes['catchup-correction'] ?? '').trim();
  if (correction !== '') {
    const hours = Number(correction);
    if (/^[+-]?\d+(\.\d+)?$/.test(correction) && Math.abs(hours) <= 24) correctionMs = Math.round(hours * HOUR);
    else problems.push(`catchup-correction "${clip(correction)}" is not a number of hours between -24 and 24; ignored`);
  }

  let timezone: string | undefined;
  const zone = (attributes['catchup-timezone'] ?? '').trim();
  if (zone !== '' && zone.toUpperCase() !== 'UTC') {
    if (zoneFormatter(zone) === undefined) {
      problems.push(`catchup-timezone "${clip(zone)}" is not a time zone; times are written in UTC`);
    } else timezone = zone;
  }

  const source = (attributes['catchup-source'] ?? '').trim();
  let template: string | undefined;
  if (mode === 'default') {
    if (source === '') return { problems: [...problems, 'catchup="default" needs a catchup-source; no catch-up'] };
    // A query written as default (`?utc={utc}`) is meant to be appended, as players read it.
    template = ABSOLUTE.test(source) ? source : streamUrl + source;
  } else if (mode === 'append') {
    if (source === '') return { problems: [...problems, 'catchup="append" needs a catchup-source; no catch-up'] };
    template = streamUrl + source;
  } else if (mode === 'shift') {
    template = `${streamUrl}${streamUrl.includes('?') ? '&' : '?'}utc={utc}&lutc={lutc}`;
  } else if (source !== '' && ABSOLUTE.test(source)) {
    // flussonic or xc with the URL given: the source says best.
    template = source;
  } else if (mode === 'flussonic') {
    template = flussonicTemplate(streamUrl);
    if (template === undefined) {
      return { problems: [...problems, 'catchup="flussonic": the stream URL is not a Flussonic one; no catch-up'] };
    }
  } else {
    template = xtreamTemplate(streamUrl);
    if (template === undefined) {
      return {
        problems: [
          ...problems,
          'catchup="xc": the stream URL is not an Xtream Codes /live/USER/PASS/ID one; no catch-up',
        ],
      };
    }
  }

  // A control character would reach the player's URL (a NUL cuts it short): refused, as a stream
  // URL holding one is.
  if (hasControl(template)) {
    const what =
      source !== '' && hasControl(source) ? `catchup-source "${clip(showControls(source))}"` : 'the catch-up URL';
    return { problems: [...problems, `${what} holds a control character; no catch-up`] };
  }
  for (const [, name, arg] of template.matchAll(PLACEHOLDER)) {
    const known = TIMES.has(name!) || PARTS.has(name!) || SPANS.has(name!);
    if (!known)
      return { problems: [...problems, `catchup-source placeholder {${clip(name!)}} is not supported; no catch-up`] };
    if (SPANS.has(name!) && arg !== undefined && !/^[1-9]\d*$/.test(arg)) {
      return {
        problems: [...problems, `catchup-source {${name}:${clip(arg)}} needs a whole number of seconds; no catch-up`],
      };
    }
  }
  if (!/^https?:\/\//i.test(template) && !ABSOLUTE.test(template)) {
    return { problems: [...problems, 'catchup-source does not make an absolute URL; no catch-up'] };
  }
  return {
    plan: { mode, template, archiveMs: Math.round(days * DAY), correctionMs, ...(timezone ? { timezone } : {}) },
    problems,
  };
}

/**
 * Whether a programme [start, stop) can be played from its start at `now`: it has started and
 * started within the archive window.
 */
export function catchupAvailable(plan: CatchupPlan, start: number, stop: number, now: number): boolean {
  return stop > start && start <= now && start >= now - plan.archiveMs;
}

/**
 * The catch-up URL of the programme [start, stop) asked at `now`.
 * @example catchupUrl(plan, Date.parse('2026-03-01T20:00Z'), Date.parse('2026-03-01T21:30Z'), Date.now())
 *   // 'http://tv.example/timeshift/u/p/90/2026-03-01:20-00/7.ts'
 */
export function catchupUrl(plan: CatchupPlan, start: number, stop: number, now: number): string {
  const from = start + plan.correctionMs;
  const to = stop + plan.correctionMs;
  const seconds = (ms: number) => String(Math.floor(ms / SECOND));
  return plan.template.replace(PLACEHOLDER, (_match, name: string, arg: string | undefined) => {
    if (PARTS.has(name)) return timeParts(from, plan.timezone)[name as Part];
    if (name === 'duration') {
      const divisor = arg === undefined ? 1 : Number(arg);
      return String(Math.ceil((to - from) / SECOND / divisor));
    }
    if (name === 'offset') {
      const divisor = arg === undefined ? 1 : Number(arg);
      return String(Math.max(0, Math.floor((now - start) / SECOND / divisor)));
    }
    const at = name === 'utc' || name === 'start' ? from : name === 'utcend' || name === 'end' ? to : now;
    if (arg === undefined || arg === '') return seconds(at);
    const parts = timeParts(at, plan.timezone);
    return arg.replace(/[YmdHMS]/g, (letter) => parts[letter as Part]);
  });
}

type Part = 'Y' | 'm' | 'd' | 'H' | 'M' | 'S';

function timeParts(ms: number, zone: string | undefined): Record<Part, string> {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  if (zone === undefined) {
    const d = new Date(ms);
    return {
      Y: pad(d.getUTCFullYear(), 4),
      m: pad(d.getUTCMonth() + 1),
      d: pad(d.getUTCDate()),
      H: pad(d.getUTCHours()),
      M: pad(d.getUTCMinutes()),
      S: pad(d.getUTCSeconds()),
    };
  }
  const out: Record<Part, string> = { Y: '', m: '', d: '', H: '', M: '', S: '' };
  for (const part of zoneFormatter(zone)!.formatToParts(ms)) {
    if (part.type === 'year') out.Y = part.value.padStart(4, '0');
    else if (part.type === 'month') out.m = part.value;
    else if (part.type === 'day') out.d = part.value;
    else if (part.type === 'hour') out.H = part.value;
    else if (part.type === 'minute') out.M = part.value;
    else if (part.type === 'second') out.S = part.value;
  }
  return out;
}

/**
 * Flussonic's archive URLs from its live ones: `…/NAME/mpegts` plays `…/NAME/timeshift_abs-{utc}.ts`,
 * `…/NAME/LIST.m3u8` plays `…/NAME/LIST-{utc}-{duration}.m3u8` (the query kept).
 */
function flussonicTemplate(url: string): string | undefined {
  const m = /^(https?:\/\/[^/]+)\/(.+)\/([^/?]*?)(mpegts|\.m3u8)(\?.*)?$/i.exec(url);
  if (!m) return undefined;
  const [, host, name, list, kind, query = ''] = m;
  if (kind!.toLowerCase() === 'mpegts') return `${host}/${name}/timeshift_abs-{utc}.ts${query}`;
  return `${host}/${name}/${list || 'index'}-{utc}-{duration}.m3u8${query}`;
}

/** Xtream Codes' timeshift URL from a live one: `…/live/USER/PASS/ID.ext` (or without `live/`). */
function xtreamTemplate(url: string): string | undefined {
  const m = /^(https?:\/\/[^/?#]+(?:\/[^?#]*?)??)\/(?:live\/)?([^/?#]+)\/([^/?#]+)\/(\d+)(\.m3u8|\.ts)?$/i.exec(url);
  if (!m) return undefined;
  const [, base, user, pass, id, ext] = m;
  return `${base}/timeshift/${user}/${pass}/{duration:60}/{Y}-{m}-{d}:{H}-{M}/${id}${ext ?? '.ts'}`;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
