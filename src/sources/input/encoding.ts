/**
 * The encoding of a text source: UTF-8, or UTF-16 with or without a byte-order mark. Windows
 * tools ("Unicode" in Notepad, PowerShell's `Out-File` before version 6) write UTF-16LE, some
 * without a BOM; read as UTF-8 such a playlist is "#\0E\0X\0T\0M\0" and holds no entry at all. Text
 * that is mostly ASCII (playlists, guides, library files) has a zero byte in every other place in
 * UTF-16, which UTF-8 text never has.
 */

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** Bytes looked at to tell UTF-16 without a BOM. */
const SAMPLE = 4096;

/**
 * @example textEncodingOf(Buffer.from('#EXTM3U\n', 'utf16le')) // 'utf-16le'
 */
export function textEncodingOf(bytes: Uint8Array): TextEncoding {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const length = Math.min(bytes.length, SAMPLE) & ~1;
  if (length < 4) return 'utf-8';
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = length / 2;
  // Most characters ASCII: their high byte is zero, the other one almost never.
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return 'utf-8';
}
