/**
 * A small MPEG transport stream built by its specification (ISO/IEC 13818-1) for unit tests of the
 * relay's segmenter: PAT, PMT (H.264 video on PID 0x100 carrying the PCR, AAC audio on 0x101),
 * then one video PES per frame (PTS, an H.264 access unit: AUD, and SPS + IDR on keyframes or a
 * non-IDR slice) and an audio PES every other frame. Keyframes may set the random-access
 * indicator or not, and the clock may jump, as real streams do.
 */

const PACKET = 188;

function crc32mpeg(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

function section(bytes: number[]): Buffer {
  const out = Buffer.alloc(bytes.length + 4);
  Buffer.from(bytes).copy(out);
  out.writeUInt32BE(crc32mpeg(Buffer.from(bytes)), bytes.length);
  return out;
}

export const VIDEO_PID = 0x100;
export const AUDIO_PID = 0x101;
export const PMT_PID = 0x1000;

const counters = new Map<number, number>();
function counter(pid: number): number {
  const n = counters.get(pid) ?? 0;
  counters.set(pid, (n + 1) & 0x0f);
  return n;
}

function psiPacket(pid: number, body: Buffer): Buffer {
  const packet = Buffer.alloc(PACKET, 0xff);
  packet[0] = 0x47;
  packet[1] = 0x40 | (pid >> 8);
  packet[2] = pid & 0xff;
  packet[3] = 0x10 | counter(pid);
  packet[4] = 0;
  body.copy(packet, 5);
  return packet;
}

export function patPacket(): Buffer {
  return psiPacket(
    0,
    section([0x00, 0xb0, 0x0d, 0x00, 0x01, 0xc1, 0x00, 0x00, 0x00, 0x01, 0xe0 | (PMT_PID >> 8), PMT_PID & 0xff]),
  );
}

/** The PMT; `audioType` 0x0f (AAC), or 0x81 (AC-3) and so on. */
export function pmtPacket(audioType = 0x0f, version = 0): Buffer {
  const body = [
    0x02,
    0xb0,
    0x17,
    0x00,
    0x01,
    0xc1 | (version << 1),
    0x00,
    0x00,
    0xe0 | (VIDEO_PID >> 8),
    VIDEO_PID & 0xff,
    0xf0,
    0x00,
    0x1b,
    0xe0 | (VIDEO_PID >> 8),
    VIDEO_PID & 0xff,
    0xf0,
    0x00,
    audioType,
    0xe0 | (AUDIO_PID >> 8),
    AUDIO_PID & 0xff,
    0xf0,
    0x00,
  ];
  return psiPacket(PMT_PID, section(body));
}

function ptsBytes(pts: number): number[] {
  return [
    0x21 | ((Math.floor(pts / 2 ** 30) & 0x07) << 1),
    Math.floor(pts / 2 ** 22) & 0xff,
    ((Math.floor(pts / 2 ** 15) & 0x7f) << 1) | 1,
    Math.floor(pts / 2 ** 7) & 0xff,
    ((pts & 0x7f) << 1) | 1,
  ];
}

/** A PES packet cut into transport packets; the first may carry an adaptation field. */
function pesPackets(
  pid: number,
  streamId: number,
  pts: number,
  es: Buffer,
  adaptation?: { rai?: boolean; pcr?: number; discontinuity?: boolean },
): Buffer[] {
  const pes = Buffer.concat([Buffer.from([0, 0, 1, streamId, 0, 0, 0x80, 0x80, 5, ...ptsBytes(pts)]), es]);
  const packets: Buffer[] = [];
  let at = 0;
  let first = true;
  while (at < pes.length) {
    const packet = Buffer.alloc(PACKET, 0xff);
    packet[0] = 0x47;
    packet[1] = (first ? 0x40 : 0) | (pid >> 8);
    packet[2] = pid & 0xff;
    let head = 4;
    const field: number[] = [];
    if (first && adaptation) {
      let flags = 0;
      if (adaptation.discontinuity) flags |= 0x80;
      if (adaptation.rai) flags |= 0x40;
      const pcrBytes: number[] = [];
      if (adaptation.pcr !== undefined) {
        flags |= 0x10;
        const base = adaptation.pcr;
        pcrBytes.push(
          Math.floor(base / 2 ** 25) & 0xff,
          Math.floor(base / 2 ** 17) & 0xff,
          Math.floor(base / 2 ** 9) & 0xff,
          Math.floor(base / 2) & 0xff,
          ((base & 1) << 7) | 0x7e,
          0,
        );
      }
      field.push(flags, ...pcrBytes);
    }
    const room = PACKET - 4 - (field.length > 0 ? 1 + field.length : 0);
    const take = Math.min(room, pes.length - at);
    // Short last packets are padded with adaptation-field stuffing.
    const stuffing = room - take;
    if (field.length > 0 || stuffing > 0) {
      const adaptationLength = field.length > 0 ? field.length + stuffing : Math.max(0, stuffing - 1);
      packet[3] = 0x30 | counter(pid);
      packet[4] = adaptationLength;
      if (adaptationLength > 0) {
        if (field.length > 0) Buffer.from(field).copy(packet, 5);
        else packet[5] = 0x00;
      }
      head = 5 + adaptationLength;
    } else {
      packet[3] = 0x10 | counter(pid);
    }
    pes.copy(packet, head, at, at + (PACKET - head));
    at += PACKET - head;
    packets.push(packet);
    first = false;
  }
  return packets;
}

export interface StreamOptions {
  /** Frames at 25 per second. */
  readonly frames: number;
  /** A keyframe every this many frames. Default 25 (one a second). */
  readonly gop?: number;
  /** Keyframes set the random-access indicator. Default true. */
  readonly rai?: boolean;
  /** The first frame's PTS (90 kHz). Default 900000 (10 s). */
  readonly startPts?: number;
  /** At this frame the clock jumps by `jumpTicks`. */
  readonly jumpAt?: number;
  readonly jumpTicks?: number;
  /** PAT and PMT every this many frames. Default 10. */
  readonly psiEvery?: number;
  readonly audioType?: number;
}

/**
 * A whole stream as one buffer.
 * @example tsStream({ frames: 100 }).length % 188 // 0
 */
export function tsStream(options: StreamOptions): Buffer {
  const gop = options.gop ?? 25;
  const out: Buffer[] = [];
  let pts = options.startPts ?? 900_000;
  for (let frame = 0; frame < options.frames; frame++) {
    if (frame === options.jumpAt) pts += options.jumpTicks ?? 0;
    if (frame % (options.psiEvery ?? 10) === 0) out.push(patPacket(), pmtPacket(options.audioType));
    const key = frame % gop === 0;
    const au = key
      ? [0, 0, 0, 1, 0x09, 0x10, 0, 0, 0, 1, 0x67, 0x42, 0x00, 0x1e, 0, 0, 1, 0x65, 0x88, 0x84]
      : [0, 0, 0, 1, 0x09, 0x30, 0, 0, 1, 0x41, 0x9a, 0x02];
    const es = Buffer.concat([Buffer.from(au), Buffer.alloc(400 + (key ? 1200 : 0), frame & 0xff)]);
    out.push(...pesPackets(VIDEO_PID, 0xe0, pts, es, { rai: key && options.rai !== false, pcr: pts - 9000 }));
    if (frame % 2 === 0) out.push(...pesPackets(AUDIO_PID, 0xc0, pts, Buffer.alloc(300, 0xaa)));
    pts += 3600;
  }
  return Buffer.concat(out);
}
