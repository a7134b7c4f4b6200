/**
 * The start of a PES packet (ISO/IEC 13818-1 §2.4.3.6): its presentation time, and whether the
 * video it opens is a point where decoding can start. The transport stream usually says so itself
 * (the random-access indicator); for a stream that never sets it, the access unit is looked at:
 * an H.264 IDR slice or sequence parameter set (ITU-T H.264 §7.4.1.2), an HEVC IRAP picture or
 * VPS/SPS (ITU-T H.265 §7.4.2.2), an MPEG-2 sequence or GOP header.
 */

/**
 * The PTS (90 kHz) of the PES packet whose header starts at `at`, when it has one.
 * @example pesPts(packet, payloadOffset(packet, 0)) // 126000
 */
export function pesPts(b: Uint8Array, at: number, end = b.length): number | undefined {
  if (at + 14 > end || b[at] !== 0 || b[at + 1] !== 0 || b[at + 2] !== 1) return undefined;
  const id = b[at + 3]!;
  // Streams without the optional header (padding, private 2, ECM/EMM, directory...).
  if (id === 0xbc || id === 0xbe || id === 0xbf || id === 0xf0 || id === 0xf1 || id === 0xff || id === 0xf2)
    return undefined;
  if ((b[at + 6]! & 0xc0) !== 0x80 || (b[at + 7]! & 0x80) === 0) return undefined;
  const p = at + 9;
  return (
    ((b[p]! >> 1) & 0x07) * 2 ** 30 +
    b[p + 1]! * 2 ** 22 +
    ((b[p + 2]! >> 1) & 0x7f) * 2 ** 15 +
    b[p + 3]! * 2 ** 7 +
    ((b[p + 4]! >> 1) & 0x7f)
  );
}

/** Where the elementary stream's bytes start in a PES packet that starts at `at` (-1 when unreadable). */
export function pesPayload(b: Uint8Array, at: number, end = b.length): number {
  if (at + 9 > end || b[at] !== 0 || b[at + 1] !== 0 || b[at + 2] !== 1) return -1;
  if ((b[at + 6]! & 0xc0) !== 0x80) return -1;
  const start = at + 9 + b[at + 8]!;
  return start <= end ? start : -1;
}

/**
 * True when the elementary-stream bytes `b[from..end)` (the first bytes of an access unit) hold a
 * NAL unit or start code where `codec` can start decoding.
 * @example startsDecoding(Buffer.from([0, 0, 0, 1, 0x09, 0xf0, 0, 0, 1, 0x65]), 0, 10, 'h264') // true (IDR)
 */
export function startsDecoding(b: Uint8Array, from: number, end: number, codec: string): boolean {
  for (let i = from; i + 3 < end; i++) {
    if (b[i] !== 0 || b[i + 1] !== 0 || b[i + 2] !== 1) continue;
    const head = b[i + 3]!;
    if (codec === 'h264') {
      const type = head & 0x1f;
      if (type === 5 || type === 7) return true;
      if (type === 1) return false; // a non-IDR slice came first
    } else if (codec === 'hevc') {
      const type = (head >> 1) & 0x3f;
      if ((type >= 16 && type <= 21) || type === 32 || type === 33) return true;
      if (type < 16) return false;
    } else if (codec === 'mpeg2' || codec === 'mpeg1') {
      if (head === 0xb3 || head === 0xb8) return true;
      if (head === 0x00) return false; // a picture before any sequence header
    } else return false;
    i += 3;
  }
  return false;
}
