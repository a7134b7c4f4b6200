/**
 * Control characters in what sources name things: an ESC or BEL in a channel name reaches every
 * terminal and log that shows it (and a NUL in a URL reaches a player). Readers remove them from
 * names, titles and descriptions at import; URLs holding them are refused by their readers.
 */

/** C0 controls except tab, line feed and carriage return; DEL; C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const CONTROL_ALL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** The same, and tab and line breaks too: a one-line name has none. */
const LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LINE_CONTROL_ALL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * `text` without control characters (tabs and line breaks kept: descriptions have them).
 * @example cleanText('News\u001b[31m') // 'News[31m'
 */
export function cleanText(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROL_ALL, '') : text;
}

/**
 * A one-line name without control characters; tabs and line breaks become spaces.
 * @example cleanName('BBC\u0007 One') // 'BBC One'
 */
export function cleanName(text: string): string {
  if (!LINE_CONTROL.test(text)) return text;
  return text.replace(/[\t\n\r]+/g, ' ').replace(LINE_CONTROL_ALL, '');
}

/** Does `text` hold a control character (tab and line breaks included)? For URLs. */
export function hasControl(text: string): boolean {
  return LINE_CONTROL.test(text);
}

/**
 * `text` with its control characters shown as `\xNN`, for a warning that quotes a URL.
 * @example showControls('https://x/a\u0000.m3u8') // 'https://x/a\\x00.m3u8'
 */
export function showControls(text: string): string {
  return text.replace(LINE_CONTROL_ALL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
