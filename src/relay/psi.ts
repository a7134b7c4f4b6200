/**
 * Program-specific information (ISO/IEC 13818-1 §2.4.4): the PAT on PID 0 names each program's
 * PMT PID; the PMT lists the program's elementary streams (type and PID) and its PCR PID. A
 * section may span packets; sections are at most 1024 bytes, so gathering one is bounded.
 */
import { PACKET, payloadOffset, unitStarts } from './ts-packet.js';

const MAX_SECTION = 1024;

/** Gathers the sections of one PID from its packets; `push` returns a section once it is complete. */
export class SectionReader {
  #parts: Uint8Array[] = [];
  #length = 0;
  #need = -1;

  /** Feed a packet (at offset `o`); returns the first section that completes in it, if any. */
  push(b: Uint8Array, o: number): Uint8Array | undefined {
    const start = payloadOffset(b, o);
    if (start === -1) return undefined;
    const end = o + PACKET;
    if (unitStarts(b, o)) {
      // The pointer field: bytes of the section before it finish the previous one, ignored here.
      const at = start + 1 + b[start]!;
      if (at >= end) return undefined;
      this.#parts = [];
      this.#length = 0;
      this.#need = -1;
      return this.#add(b.subarray(at, end));
    }
    if (this.#need === -1 && this.#length === 0) return undefined;
    return this.#add(b.subarray(start, end));
  }

  #add(bytes: Uint8Array): Uint8Array | undefined {
    this.#parts.push(bytes);
    this.#length += bytes.length;
    if (this.#need === -1 && this.#length >= 3) {
      const head = this.#length === bytes.length ? bytes : concat(this.#parts, 3);
      if (head[0] === 0xff) return this.#reset(); // stuffing: no section here
      this.#need = 3 + (((head[1]! & 0x0f) << 8) | head[2]!);
      if (this.#need > MAX_SECTION) return this.#reset();
    }
    if (this.#need === -1 || this.#length < this.#need) return undefined;
    const section = concat(this.#parts, this.#need);
    this.#reset();
    return section;
  }

  #reset(): undefined {
    this.#parts = [];
    this.#length = 0;
    this.#need = -1;
    return undefined;
  }
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!.subarray(0, length);
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    const take = Math.min(part.length, length - at);
    out.set(part.subarray(0, take), at);
    at += take;
    if (at >= length) break;
  }
  return out;
}

/**
 * The PMT PID of the first program a PAT section names (program 0 is the network PID, skipped).
 * @example patProgram(section) // 0x1000
 */
export function patProgram(section: Uint8Array): number | undefined {
  if (section[0] !== 0x00 || section.length < 12) return undefined;
  const end = Math.min(section.length, 3 + (((section[1]! & 0x0f) << 8) | section[2]!)) - 4;
  for (let at = 8; at + 4 <= end; at += 4) {
    const program = (section[at]! << 8) | section[at + 1]!;
    if (program !== 0) return ((section[at + 2]! & 0x1f) << 8) | section[at + 3]!;
  }
  return undefined;
}

export type StreamKind = 'video' | 'audio' | 'other';

/** One elementary stream of a PMT. */
export interface ElementaryStream {
  readonly pid: number;
  readonly type: number;
  readonly kind: StreamKind;
  /** `h264`, `hevc`, `mpeg2`, `aac`, `mp3`, `ac3`, `eac3`... or `0x06` for what is not named. */
  readonly codec: string;
}

export interface ProgramMap {
  readonly version: number;
  readonly pcrPid: number;
  readonly streams: readonly ElementaryStream[];
}

const VIDEO: Readonly<Record<number, string>> = {
  1: 'mpeg1',
  2: 'mpeg2',
  16: 'mpeg4',
  27: 'h264',
  36: 'hevc',
  66: 'avs',
};
const AUDIO: Readonly<Record<number, string>> = {
  3: 'mp2',
  4: 'mp2',
  15: 'aac',
  17: 'aac-latm',
  129: 'ac3',
  135: 'eac3',
};
/** Descriptors that make a private (0x06) stream audio (DVB: AC-3, E-AC-3, DTS, AAC). */
const PRIVATE_AUDIO: Readonly<Record<number, string>> = { 106: 'ac3', 122: 'eac3', 123: 'dts', 124: 'aac' };

/**
 * The streams of a PMT section, in its order.
 * @example parsePmt(section)?.streams.map((s) => s.codec) // ['h264', 'aac']
 */
export function parsePmt(section: Uint8Array): ProgramMap | undefined {
  if (section[0] !== 0x02 || section.length < 16) return undefined;
  const end = Math.min(section.length, 3 + (((section[1]! & 0x0f) << 8) | section[2]!)) - 4;
  const version = (section[5]! >> 1) & 0x1f;
  const pcrPid = ((section[8]! & 0x1f) << 8) | section[9]!;
  let at = 12 + (((section[10]! & 0x0f) << 8) | section[11]!);
  const streams: ElementaryStream[] = [];
  while (at + 5 <= end) {
    const type = section[at]!;
    const pid = ((section[at + 1]! & 0x1f) << 8) | section[at + 2]!;
    const infoLength = ((section[at + 3]! & 0x0f) << 8) | section[at + 4]!;
    const info = section.subarray(at + 5, Math.min(end, at + 5 + infoLength));
    streams.push(streamOf(type, pid, info));
    at += 5 + infoLength;
  }
  return { version, pcrPid, streams };
}

function streamOf(type: number, pid: number, info: Uint8Array): ElementaryStream {
  const video = VIDEO[type];
  if (video !== undefined) return { pid, type, kind: 'video', codec: video };
  const audio = AUDIO[type];
  if (audio !== undefined) return { pid, type, kind: 'audio', codec: audio };
  if (type === 0x06) {
    for (let at = 0; at + 2 <= info.length; at += 2 + info[at + 1]!) {
      const named = PRIVATE_AUDIO[info[at]!];
      if (named !== undefined) return { pid, type, kind: 'audio', codec: named };
    }
  }
  return { pid, type, kind: 'other', codec: `0x${type.toString(16).padStart(2, '0')}` };
}
