/**
 * Scanner for the attribute list of `#EXTINF` and `#EXTM3U` lines: `key="v" key='v' key=v`,
 * then (for EXTINF) a comma and the title. Written as a single forward pass in which every
 * step consumes at least one character, so no input can make it loop: the IPTV parsers on npm
 * hang on single-quoted or unquoted values, which real playlists have.
 */

/** What the scanner read from one line, plus the problems it recovered from. */
export interface ScannedAttributes {
  /** The EXTINF duration token (`-1`, `0`), when there was one. */
  readonly duration?: string;
  /** Attribute names lower-cased; the last of a repeated name wins. */
  readonly attributes: Record<string, string>;
  /** Text after the first comma outside quotes, trimmed; undefined when there is no comma. */
  readonly title?: string;
  readonly problems: string[];
}

const SPACE = 32;
const TAB = 9;
const COMMA = 44;
const EQUALS = 61;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;

function isSpace(code: number): boolean {
  return code === SPACE || code === TAB;
}

/**
 * Scan `text` (what follows `#EXTINF:` or `#EXTM3U`) into duration, attributes and title.
 * @example scanAttributes(`-1 tvg-id="a.b" group-title='News, World',CNN, International`, true)
 *   // → { duration: '-1', attributes: { 'tvg-id': 'a.b', 'group-title': 'News, World' }, title: 'CNN, International' }
 */
export function scanAttributes(text: string, withDuration: boolean): ScannedAttributes {
  const attributes: Record<string, string> = {};
  const problems: string[] = [];
  const end = text.length;
  let pos = 0;
  let duration: string | undefined;

  while (pos < end && isSpace(text.charCodeAt(pos))) pos++;
  if (withDuration) {
    // The duration runs to the first space or comma; a token holding `=` is an attribute
    // (some playlists omit the duration), so it is left for the attribute loop.
    let stop = pos;
    while (stop < end) {
      const code = text.charCodeAt(stop);
      if (isSpace(code) || code === COMMA || code === EQUALS) break;
      stop++;
    }
    if (stop === end || text.charCodeAt(stop) !== EQUALS) {
      if (stop > pos) duration = text.slice(pos, stop);
      pos = stop;
    }
  }

  while (pos < end) {
    const code = text.charCodeAt(pos);
    if (isSpace(code)) {
      pos++;
      continue;
    }
    if (code === COMMA) {
      if (withDuration) return finish(text.slice(pos + 1).trim());
      pos++; // a header has no title; a stray comma is noise
      continue;
    }

    // Attribute name: up to `=`, a space or a comma.
    const nameStart = pos;
    while (pos < end) {
      const c = text.charCodeAt(pos);
      if (c === EQUALS || c === COMMA || isSpace(c)) break;
      pos++;
    }
    const name = text.slice(nameStart, pos).toLowerCase();
    if (pos >= end || text.charCodeAt(pos) !== EQUALS) {
      // A bare word (`#EXTINF:-1 radio ...`): keep it as a flag so nothing is lost silently.
      attributes[name] = '';
      continue;
    }
    pos++; // past `=`
    const value = readValue(name);
    if (name !== '') attributes[name] = value;
  }
  return finish(undefined);

  /** Reads the value that starts at `pos` and leaves `pos` after it. */
  function readValue(name: string): string {
    const quote = pos < end ? text.charCodeAt(pos) : -1;
    if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
      const close = text.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", pos + 1);
      if (close === -1) {
        // Unterminated: the value runs to the next comma, which then starts the title.
        const comma = text.indexOf(',', pos + 1);
        const stop = comma === -1 ? end : comma;
        problems.push(`unterminated quote in attribute "${name}"`);
        const value = text.slice(pos + 1, stop);
        pos = stop;
        return value;
      }
      const value = text.slice(pos + 1, close);
      pos = close + 1;
      return value;
    }
    const valueStart = pos;
    while (pos < end) {
      const c = text.charCodeAt(pos);
      if (c === COMMA || isSpace(c)) break;
      pos++;
    }
    return text.slice(valueStart, pos);
  }

  function finish(title: string | undefined): ScannedAttributes {
    const result: { -readonly [K in keyof ScannedAttributes]: ScannedAttributes[K] } = { attributes, problems };
    if (duration !== undefined) result.duration = duration;
    if (title !== undefined) result.title = title;
    return result;
  }
}
