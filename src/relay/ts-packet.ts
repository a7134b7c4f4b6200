/**
 * MPEG transport stream packets (ISO/IEC 13818-1 §2.4.3): 188 bytes, each opening with the sync
 * byte 0x47, a 13-bit PID, the payload-unit-start flag and an optional adaptation field (which
 * carries the random-access indicator, the discontinuity indicator and the PCR). Read in place, at
 * an offset into a larger buffer: a relay reads tens of thousands of packets a second and makes no
 * object per packet.
 */

export const PACKET = 188;
export const SYNC = 0x47;
/** Packets that are padding only. */
export const NULL_PID = 0x1fff;
/** The 90 kHz clock wraps at 2^33 ticks (about 26.5 hours). */
export const CLOCK_WRAP = 2 ** 33;
export const CLOCK_HZ = 90_000;

/** The packet's PID. */
export function pidOf(b: Uint8Array, o: number): number {
  return ((b[o + 1]! & 0x1f) << 8) | b[o + 2]!;
}

/** True when a PES packet or a PSI section starts in this packet. */
export function unitStarts(b: Uint8Array, o: number): boolean {
  return (b[o + 1]! & 0x40) !== 0;
}

/** True when the packet has an adaptation field of at least one byte of flags. */
function hasFlags(b: Uint8Array, o: number): boolean {
  return (b[o + 3]! & 0x20) !== 0 && b[o + 4]! > 0;
}

/** Where the payload starts, or -1 when the packet carries none (or its adaptation field is broken). */
export function payloadOffset(b: Uint8Array, o: number): number {
  const control = (b[o + 3]! >> 4) & 0x03;
  if ((control & 0x01) === 0) return -1;
  if (control === 0x01) return o + 4;
  const start = o + 5 + b[o + 4]!;
  return start < o + PACKET ? start : -1;
}

/** The adaptation field's random-access indicator: the next PES of this PID starts where decoding can begin. */
export function randomAccess(b: Uint8Array, o: number): boolean {
  return hasFlags(b, o) && (b[o + 5]! & 0x40) !== 0;
}

/** The adaptation field's discontinuity indicator: the clock of this PID starts again. */
export function discontinuityFlag(b: Uint8Array, o: number): boolean {
  return hasFlags(b, o) && (b[o + 5]! & 0x80) !== 0;
}

/** The packet's PCR base in 90 kHz ticks, when it carries one. */
export function pcrOf(b: Uint8Array, o: number): number | undefined {
  if (!hasFlags(b, o) || (b[o + 5]! & 0x10) === 0 || b[o + 4]! < 7) return undefined;
  // 33 bits: more than an int32 holds, so built with multiplication.
  return b[o + 6]! * 2 ** 25 + b[o + 7]! * 2 ** 17 + b[o + 8]! * 2 ** 9 + b[o + 9]! * 2 + (b[o + 10]! >> 7);
}

/**
 * The offset of the first packet boundary at or after `from`: a sync byte followed by sync bytes
 * one and two packets later (as far as the buffer goes), so a 0x47 inside a payload is not taken
 * for one. -1 when there is none.
 * @example syncOffset(Buffer.concat([Buffer.from([1, 2]), packets]), 0) // 2
 */
export function syncOffset(b: Uint8Array, from = 0): number {
  for (let o = from; o < b.length; o++) {
    if (b[o] !== SYNC) continue;
    let ok = true;
    for (let k = 1; k <= 2 && o + k * PACKET < b.length; k++) {
      if (b[o + k * PACKET] !== SYNC) {
        ok = false;
        break;
      }
    }
    if (ok) return o;
  }
  return -1;
}

/**
 * The signed difference `a - b` of two 90 kHz clock values, across the 33-bit wrap.
 * @example clockDiff(10, CLOCK_WRAP - 80) // 90
 */
export function clockDiff(a: number, b: number): number {
  let d = (a - b) % CLOCK_WRAP;
  if (d > CLOCK_WRAP / 2) d -= CLOCK_WRAP;
  else if (d < -CLOCK_WRAP / 2) d += CLOCK_WRAP;
  return d;
}
