/**
 * Is a text an IPTV playlist at all? Decided on content, before parsing: a provider that fails
 * often answers 200 with an HTML error page, a login form or `#EXTM3U` alone, and parsing those
 * as M3U "succeeds" with one or no channel. Such a text is refused with the reason, so the
 * importer keeps what the playlist last held.
 */

/** How far into the text the `<` check looks past whitespace and a BOM. */
const HEAD = 256;
const HTML = /^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;
const EXTINF = /^[ \t]*#EXTINF[:\s]/im;

/**
 * Why `text` is not an IPTV playlist, or undefined when it is one.
 * @example notAPlaylist('<!DOCTYPE html><html>…') // 'is an HTML page, not a playlist'
 * @example notAPlaylist('#EXTM3U\n') // 'holds no #EXTINF entry: not an IPTV playlist'
 */
export function notAPlaylist(text: string): string | undefined {
  const head = text.slice(0, HEAD).replace(/^[\uFEFF\s]+/, '');
  if (head.startsWith('<')) {
    return HTML.test(head)
      ? 'is an HTML page, not a playlist'
      : 'starts with "<" (an XML or HTML document), not a playlist';
  }
  if (!EXTINF.test(text)) {
    // No entry, and NUL characters: an encoding that was not recognised (UTF-32, or UTF-16 of mostly non-Latin text).
    if (text.slice(0, 1024).includes('\u0000')) {
      return 'holds no #EXTINF entry, and NUL characters: it is likely saved as UTF-16 or UTF-32; save it as UTF-8';
    }
    return head === '' ? 'is empty: not an IPTV playlist' : 'holds no #EXTINF entry: not an IPTV playlist';
  }
  return undefined;
}
