/**
 * The guide when `xmltv.php` fails: `get_short_epg` per channel, written as XMLTV so the live-TV
 * import reads it like any guide. Its titles and descriptions are base64; `start_timestamp` and
 * `stop_timestamp` are UTC epoch seconds, while `start` and `end` are written in the panel's time
 * zone (`server_info.timezone`), used only when the timestamps are missing.
 */
import { MarqueeError } from '../../errors.js';
import type { SourceWarning } from '../records.js';
import { formatXmltvTime } from '../xmltv/time.js';
import { zoneFormatter } from '../zone.js';
import type { XtreamClient } from './client.js';
import type { LiveStream } from './live.js';
import { list, num, obj, str } from './values.js';

/** Channels asked at most (one call each); past it, the rest have no guide from this fallback. */
export const MAX_SHORT_EPG_CHANNELS = 1_000;
/** Programmes asked per channel. */
const LIMIT = 48;
const CONCURRENCY = 6;

/**
 * XMLTV text, a channel at a time, from `get_short_epg` for `streams`.
 * @example for await (const chunk of shortEpgXmltv(client, streams, 'Europe/London', warn)) write(chunk)
 */
export async function* shortEpgXmltv(
  client: XtreamClient,
  streams: readonly LiveStream[],
  timezone: string | undefined,
  warn: (warning: SourceWarning) => void,
  /** Distinct channels in all, when `streams` are only the first ones. */
  total?: number,
): AsyncGenerator<Buffer> {
  const label = client.account.label;
  const channels = new Map<string, LiveStream>();
  for (const s of streams) {
    const key = s.e ?? `xc-${s.i}`;
    if (!channels.has(key)) channels.set(key, s);
  }
  const asked = [...channels.entries()].slice(0, MAX_SHORT_EPG_CHANNELS);
  const all = Math.max(total ?? 0, channels.size);
  if (asked.length < all) {
    warn({
      source: label,
      message: `get_short_epg: ${all - asked.length} channels past the first ${MAX_SHORT_EPG_CHANNELS} get no guide from this fallback`,
    });
  }
  let head = '<?xml version="1.0" encoding="UTF-8"?>\n<tv generator-info-name="Marquee from Xtream get_short_epg">\n';
  for (const [key, s] of asked) {
    head += `<channel id="${xml(key)}"><display-name>${xml(s.n)}</display-name></channel>\n`;
  }
  yield Buffer.from(head);
  let failed = 0;
  let firstFailure = '';
  // A few calls at once, answers written in channel order.
  const pending: Promise<string>[] = [];
  const ask = (key: string, s: LiveStream) =>
    client
      .call('get_short_epg', { stream_id: s.i, limit: String(LIMIT) })
      .then((answer) => programmes(key, answer, timezone))
      .catch((error: Error) => {
        if (error.name === 'AbortError') throw error;
        failed++;
        firstFailure ||= error.message;
        return '';
      });
  let next = 0;
  while (next < asked.length && pending.length < CONCURRENCY) {
    const [key, s] = asked[next++]!;
    pending.push(ask(key, s));
  }
  let answered = 0;
  while (pending.length > 0) {
    const text = await pending.shift()!;
    answered++;
    // A panel that fails every call (it is down) is not asked a thousand more times.
    if (failed === answered && failed >= CONCURRENCY) {
      throw new MarqueeError(
        'SOURCE_UNREADABLE',
        `${label}: get_short_epg failed for the first ${failed} channels: ${firstFailure}`,
      );
    }
    if (next < asked.length) {
      const [key, s] = asked[next++]!;
      pending.push(ask(key, s));
    }
    if (text !== '') yield Buffer.from(text);
  }
  if (failed > 0 && failed === asked.length) {
    throw new MarqueeError('SOURCE_UNREADABLE', `${label}: get_short_epg failed for every channel: ${firstFailure}`);
  }
  if (failed > 0) {
    warn({
      source: label,
      message: `get_short_epg failed for ${failed} of ${asked.length} channels (the first: ${firstFailure})`,
    });
  }
  yield Buffer.from('</tv>\n');
}

/** The `<programme>` elements of one `get_short_epg` answer. */
function programmes(channel: string, answer: unknown, timezone: string | undefined): string {
  let out = '';
  for (const element of list(obj(answer)?.epg_listings)) {
    const p = obj(element);
    if (p === undefined) continue;
    const start = instant(p.start_timestamp, p.start, timezone);
    const stop = instant(p.stop_timestamp, p.end ?? p.stop, timezone);
    const title = text(p.title);
    if (start === undefined || stop === undefined || stop <= start || title === undefined) continue;
    const desc = text(p.description);
    out +=
      `<programme start="${formatXmltvTime(start)}" stop="${formatXmltvTime(stop)}" channel="${xml(channel)}">` +
      `<title>${xml(title)}</title>${desc !== undefined ? `<desc>${xml(desc)}</desc>` : ''}</programme>\n`;
  }
  return out;
}

/** Epoch ms from a UTC timestamp in seconds, else from a `YYYY-MM-DD HH:MM:SS` in the panel's zone. */
export function instant(timestamp: unknown, written: unknown, timezone: string | undefined): number | undefined {
  const seconds = num(timestamp);
  if (seconds !== undefined && seconds > 0) return seconds * 1000;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(str(written, 40) ?? '');
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return zonedToUtc(Date.UTC(y, mo - 1, d, h, mi, s), timezone ?? 'UTC');
}

/** The UTC instant of a wall-clock time (given as if it were UTC) in `zone`. */
export function zonedToUtc(wall: number, zone: string): number {
  const first = wall - offset(wall, zone);
  const second = offset(first, zone);
  return wall - second;
}

/** How far `zone`'s wall clock is ahead of UTC at instant `t`, in ms. */
function offset(t: number, zone: string): number {
  const f = zoneFormatter(zone);
  if (f === undefined) return 0;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(t))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return local - Math.floor(t / 1000) * 1000;
}

/** A base64 text as panels send titles (plain text when it is not base64). */
function text(value: unknown): string | undefined {
  const raw = str(value, 20_000);
  if (raw === undefined) return undefined;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(raw) && raw.length % 4 === 0) {
    const decoded = Buffer.from(raw, 'base64').toString('utf8');
    if (!decoded.includes('\uFFFD')) return str(decoded, 20_000);
  }
  return raw;
}

function xml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}
