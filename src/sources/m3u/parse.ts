/**
 * Our own M3U/M3U8 playlist reader (the IPTV parsers on npm hang or cut names; see issue 3).
 * It takes the whole text (readSourceText bounds its size), never throws on bad content and
 * reports every problem as a warning with the source and the 1-based line. Its counts are bounded
 * too (entry-limits.ts): more entries than `maxEntries` fail the playlist (SOURCE_TOO_LARGE, the
 * setting named) as soon as the entry past it is read, and a name, tvg-name or group longer than
 * `maxNameLength` is cut, with a warning at its line, before anything matches or stores it.
 *
 * Decisions worth knowing:
 * - A location line without `#EXTINF` is kept, named by its URL, with a warning: plain M3U
 *   files are only lists of URLs, and dropping them would lose channels.
 * - `#EXTVLCOPT`, `#KODIPROP` and `#EXTGRP` lines belong to the entry whose URL follows them,
 *   whether they stand before or after its `#EXTINF`. `#EXTGRP` also stays in force for the
 *   entries after it until the next one (the M3U meaning of a group), while `group-title` wins.
 * - `#EXTVLCOPT:http-user-agent` wins over an EXTINF `user-agent` attribute: it is what players apply.
 * - Duplicate tvg-ids are kept: several entries of one channel are several streams of it.
 */

import { cleanName } from '../clean.js';
import { cutText, DEFAULT_ENTRY_LIMITS, nameCut, tooManyEntries } from '../entry-limits.js';
import type { Playlist, PlaylistEntry, PlaylistHeader, SourceWarning } from '../records.js';
import { scanAttributes } from './attributes.js';

export interface ParseM3uOptions {
  /** More entries than this fail the playlist (SOURCE_TOO_LARGE naming `sources.maxEntries`). Default 500,000. */
  readonly maxEntries?: number;
  /** Names, tvg-names and groups longer than this are cut with a warning (`sources.maxNameLength`). Default 300. */
  readonly maxNameLength?: number;
  /** Lines longer than this many characters are skipped with a warning. Default 65,536. */
  readonly maxLineLength?: number;
  /** Warnings beyond this are counted in one final warning instead of listed. Default 1,000. */
  readonly maxWarnings?: number;
}

const GUIDE_URL_ATTRIBUTES = ['url-tvg', 'x-tvg-url', 'tvg-url'];
const CHANNEL_NUMBER = /^\d+(?:\.\d+)?$/;
const SHIFT = /^[+-]?\d+(?:\.\d+)?$/;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Options lines seen since the last URL; they belong to the next entry. */
interface PendingOptions {
  userAgent?: string;
  referrer?: string;
  kodiProps?: Record<string, string>;
}

interface PendingExtinf {
  line: number;
  title: string | undefined;
  attributes: Record<string, string>;
}

/**
 * Parse an M3U/M3U8 playlist. `source` names the file or URL in warnings.
 * @example parseM3u('#EXTM3U\n#EXTINF:-1 tvg-id="bbc1.uk",BBC One\nhttp://x/1.m3u8\n', 'list.m3u').entries[0].tvgId // 'bbc1.uk'
 */
export function parseM3u(text: string, source: string, options: ParseM3uOptions = {}): Playlist {
  const maxEntries = options.maxEntries ?? DEFAULT_ENTRY_LIMITS.maxEntries;
  const maxName = options.maxNameLength ?? DEFAULT_ENTRY_LIMITS.maxNameLength;
  const maxLineLength = options.maxLineLength ?? 65_536;
  const maxWarnings = options.maxWarnings ?? 1_000;

  const warnings: SourceWarning[] = [];
  let suppressed = 0;
  const warn = (line: number, message: string): void => {
    if (warnings.length < maxWarnings) warnings.push({ source, line, message });
    else suppressed++;
  };

  const headerAttributes: Record<string, string> = {};
  const guideUrls: string[] = [];
  let headerShift: number | undefined;
  const entries: PlaylistEntry[] = [];

  let sawContent = false;
  let sawHlsTag = false;
  let pending: PendingExtinf | undefined;
  let opts: PendingOptions = {};
  let stickyGroup: string | undefined;

  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index++) {
    const lineNo = index + 1;
    const raw = lines[index] as string;
    if (raw.length > maxLineLength) {
      warn(lineNo, `line is longer than ${maxLineLength} characters; skipped`);
      continue;
    }
    const line = raw.trim();
    if (line === '') continue;

    if (!sawContent) {
      sawContent = true;
      if (!startsWithIgnoreCase(line, '#EXTM3U')) warn(lineNo, 'missing #EXTM3U header; reading as a playlist anyway');
    }

    if (line.charCodeAt(0) !== 35 /* # */) {
      if (entries.length >= maxEntries) throw tooManyEntries(`${source}:${lineNo}`, maxEntries, 'entries');
      entries.push(buildEntry(line, lineNo));
      pending = undefined;
      opts = {};
      continue;
    }

    if (startsWithIgnoreCase(line, '#EXTINF:')) {
      if (pending) {
        warn(pending.line, '#EXTINF has no URL after it; skipped');
        opts = {};
      }
      const scanned = scanAttributes(line.slice(8), true);
      for (const problem of scanned.problems) warn(lineNo, problem);
      pending = { line: lineNo, title: scanned.title, attributes: scanned.attributes };
    } else if (startsWithIgnoreCase(line, '#EXTM3U')) {
      readHeader(line.slice(7), lineNo);
    } else if (startsWithIgnoreCase(line, '#EXTVLCOPT:')) {
      const [key, value] = splitOption(line.slice(11));
      if (key === 'http-user-agent') opts.userAgent = value;
      else if (key === 'http-referrer' || key === 'http-referer') opts.referrer = value;
    } else if (startsWithIgnoreCase(line, '#KODIPROP:')) {
      const body = line.slice(10);
      if (!body.includes('=')) warn(lineNo, `#KODIPROP without "key=value": "${clip(body)}"; ignored`);
      else {
        const [key, value] = splitOption(body);
        opts.kodiProps ??= {};
        opts.kodiProps[key] = value;
      }
    } else if (startsWithIgnoreCase(line, '#EXTGRP:')) {
      const group = named(cleanName(line.slice(8)).trim(), '#EXTGRP', lineNo);
      stickyGroup = group === '' ? undefined : group;
    } else if (
      !sawHlsTag &&
      (startsWithIgnoreCase(line, '#EXT-X-STREAM-INF') || startsWithIgnoreCase(line, '#EXT-X-TARGETDURATION'))
    ) {
      sawHlsTag = true;
      warn(lineNo, 'this looks like an HLS stream playlist, not a channel list');
    }
    // Any other `#` line is a comment or a tag we do not use.
  }
  if (pending) warn(pending.line, '#EXTINF has no URL after it; skipped');
  if (suppressed > 0) warnings.push({ source, message: `${suppressed} more warnings not listed` });

  const header: Mutable<PlaylistHeader> = { guideUrls, attributes: headerAttributes };
  if (headerShift !== undefined) header.tvgShift = headerShift;
  return { header, entries, warnings };

  function readHeader(body: string, lineNo: number): void {
    const scanned = scanAttributes(body, false);
    for (const problem of scanned.problems) warn(lineNo, problem);
    // A second #EXTM3U (concatenated playlists) adds to the first; guide URLs are merged.
    Object.assign(headerAttributes, scanned.attributes);
    for (const name of GUIDE_URL_ATTRIBUTES) {
      for (const url of (scanned.attributes[name] ?? '').split(',')) {
        const trimmed = url.trim();
        if (trimmed !== '' && !guideUrls.includes(trimmed)) guideUrls.push(trimmed);
      }
    }
    const shift = scanned.attributes['tvg-shift'];
    if (shift !== undefined) headerShift = readShift(shift, lineNo) ?? headerShift;
  }

  function buildEntry(url: string, urlLine: number): PlaylistEntry {
    if (!pending) warn(urlLine, `URL without #EXTINF; kept with the URL as its name`);
    const lineNo = pending?.line ?? urlLine;
    const attributes = pending?.attributes ?? {};
    const entry: Mutable<PlaylistEntry> = {
      line: lineNo,
      name: named(cleanName(pending?.title ?? ''), 'name', lineNo),
      url,
      attributes,
    };

    const tvgId = nonEmpty(attributes['tvg-id']);
    const tvgName = nonEmpty(named(cleanName(attributes['tvg-name'] ?? ''), 'tvg-name', lineNo));
    if (entry.name === '') {
      if (tvgName !== undefined) entry.name = tvgName;
      else {
        entry.name = cutText(url, maxName);
        if (pending) warn(lineNo, '#EXTINF has no title and no tvg-name; named by its URL');
      }
    }
    if (tvgId !== undefined) entry.tvgId = tvgId;
    if (tvgName !== undefined) entry.tvgName = tvgName;
    const logo = nonEmpty(attributes['tvg-logo']);
    if (logo !== undefined) entry.tvgLogo = logo;
    const group = nonEmpty(named(cleanName(attributes['group-title'] ?? ''), 'group-title', lineNo)) ?? stickyGroup;
    if (group !== undefined) entry.group = group;

    const chno = nonEmpty(attributes['tvg-chno']);
    if (chno !== undefined) {
      if (CHANNEL_NUMBER.test(chno)) entry.channelNumber = Number(chno);
      else warn(lineNo, `tvg-chno "${clip(chno)}" is not a number; ignored`);
    }
    const shiftText = attributes['tvg-shift'];
    const shift = shiftText === undefined ? undefined : readShift(shiftText, lineNo);
    if (shift !== undefined) entry.tvgShift = shift;
    else if (headerShift !== undefined) entry.tvgShift = headerShift;

    // The header's catch-up attributes are every entry's defaults; the entry's own win. The
    // older SIPTV form `timeshift="DAYS"` means catchup="shift" for that many days.
    let own: Record<string, string> | undefined;
    for (const name in attributes) {
      if (name.startsWith('catchup')) {
        own ??= {};
        own[name] = attributes[name] as string;
      }
    }
    const timeshift = nonEmpty(attributes.timeshift ?? '');
    if (timeshift !== undefined && own?.catchup === undefined) {
      own = { ...own, catchup: 'shift', 'catchup-days': timeshift };
    }
    let catchup: Record<string, string> | undefined;
    for (const name in headerAttributes) {
      if (name.startsWith('catchup')) {
        catchup ??= {};
        catchup[name] = headerAttributes[name] as string;
      }
    }
    if (own !== undefined) catchup = { ...catchup, ...own };
    if (catchup) entry.catchup = catchup;

    const userAgent = opts.userAgent ?? nonEmpty(attributes['user-agent'] ?? attributes['http-user-agent']);
    if (userAgent !== undefined) entry.userAgent = userAgent;
    const referrer = opts.referrer ?? nonEmpty(attributes['http-referrer'] ?? attributes['http-referer']);
    if (referrer !== undefined) entry.referrer = referrer;
    if (opts.kodiProps) entry.kodiProps = opts.kodiProps;
    return entry;
  }

  /** `text` within `maxNameLength`, with a warning at `lineNo` when it is cut. */
  function named(text: string, what: string, lineNo: number): string {
    if (text.length <= maxName) return text;
    warn(lineNo, nameCut(what, text.length, maxName));
    return cutText(text, maxName);
  }

  function readShift(text: string, lineNo: number): number | undefined {
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    const hours = SHIFT.test(trimmed) ? Number(trimmed) : Number.NaN;
    // Offsets beyond a day are typos (minutes written as hours), not time zones.
    if (Number.isFinite(hours) && Math.abs(hours) <= 24) return hours;
    warn(lineNo, `tvg-shift "${clip(trimmed)}" is not a number of hours between -24 and 24; ignored`);
    return undefined;
  }
}

function startsWithIgnoreCase(line: string, prefix: string): boolean {
  return line.length >= prefix.length && line.slice(0, prefix.length).toUpperCase() === prefix;
}

/** `key=value` with the key lower-cased and the value unquoted. */
function splitOption(body: string): [string, string] {
  const equals = body.indexOf('=');
  const key = (equals === -1 ? body : body.slice(0, equals)).trim().toLowerCase();
  let value = equals === -1 ? '' : body.slice(equals + 1).trim();
  const first = value.charAt(0);
  if (value.length >= 2 && (first === '"' || first === "'") && value.endsWith(first)) value = value.slice(1, -1);
  return [key, value];
}

function nonEmpty(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Keeps warnings readable when the offending value is huge. */
function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
