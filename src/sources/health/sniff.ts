/**
 * What the first bytes of a stream's answer are: media a player can open (by the container's own
 * marks, never by a name or a Content-Type, which lie), an HLS playlist (media, with segments, or
 * master, with variants), or something else (an HTML "buy a plan" page answered with 200, JSON, an
 * empty body). Pure: bytes in, a verdict out; `undecided` while more bytes could still change it.
 */

export type Sniffed =
  | { readonly kind: 'media'; readonly format: string }
  | { readonly kind: 'hls-media'; readonly segments: number }
  | { readonly kind: 'hls-master'; readonly variants: readonly string[] }
  | { readonly kind: 'not-media'; readonly what: string }
  | { readonly kind: 'undecided' };

/** MPEG-TS packets are 188 bytes, each starting with 0x47; three in a row leave little doubt. */
const TS_PACKET = 188;
/** Bytes needed to look for three packets from any offset within the first one. */
const TS_NEED = 3 * TS_PACKET + TS_PACKET;
/** An XML or HTML answer is judged once this much of it is in (a DASH manifest names `<MPD` early). */
const MARKUP_NEED = 2048;
/** Other text is judged once this much is in. */
const TEXT_NEED = 512;

/** ISO BMFF box types that start an MP4, fMP4 or CMAF stream or segment. */
const MP4_BOXES = new Set([
  'ftyp',
  'styp',
  'moov',
  'moof',
  'sidx',
  'free',
  'skip',
  'mdat',
  'wide',
  'pdin',
  'emsg',
  'prft',
]);

/**
 * Judge the start of an answer; `final` once no more bytes will come (the body ended, or the read
 * stopped at its limit).
 * @example sniff(Buffer.from('#EXTM3U\n#EXTINF:6,\nseg1.ts\n'), true) // { kind: 'hls-media', segments: 1 }
 */
export function sniff(head: Buffer, final: boolean): Sniffed {
  if (head.length === 0) return final ? { kind: 'not-media', what: 'an empty answer' } : { kind: 'undecided' };
  const binary = container(head, final);
  if (binary !== undefined) return binary;
  const text = textStart(head);
  if (text.startsWith('#EXTM3U')) {
    // A playlist is judged whole (or as far as the read limit let it in).
    return final ? hlsPlaylist(head.toString('utf8')) : { kind: 'undecided' };
  }
  if (text.startsWith('{') || text.startsWith('[')) return { kind: 'not-media', what: 'a JSON answer' };
  if (text.startsWith('<')) {
    const start = head.subarray(0, MARKUP_NEED).toString('latin1');
    if (start.includes('<MPD')) return { kind: 'media', format: 'DASH manifest' };
    if (/<!doctype html|<html|<head|<body/i.test(start)) return { kind: 'not-media', what: 'an HTML page' };
    if (final || head.length >= MARKUP_NEED) return { kind: 'not-media', what: 'an XML document' };
    return { kind: 'undecided' };
  }
  if (isText(head.subarray(0, TEXT_NEED))) {
    return final || head.length >= TEXT_NEED ? { kind: 'not-media', what: 'text' } : { kind: 'undecided' };
  }
  if (!final && head.length < TS_NEED) return { kind: 'undecided' };
  return { kind: 'not-media', what: 'content of no known media format' };
}

/** A media container recognised by its first bytes, `undecided` while MPEG-TS may yet show, or undefined. */
function container(b: Buffer, final: boolean): Sniffed | undefined {
  const ascii = (from: number, to: number) => b.subarray(from, to).toString('latin1');
  const media = (format: string): Sniffed => ({ kind: 'media', format });
  if (b.length >= 8 && MP4_BOXES.has(ascii(4, 8))) {
    const size = b.readUInt32BE(0);
    if (size === 0 || size === 1 || size >= 8) return media('MP4');
  }
  if (b.length >= 4 && ascii(0, 3) === 'FLV' && b[3] === 1) return media('FLV');
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) return media('Matroska/WebM');
  if (b.length >= 4 && b.readUInt32BE(0) === 0x000001ba) return media('MPEG-PS');
  if (b.length >= 4 && b.readUInt32BE(0) === 0x000001b3) return media('MPEG video');
  if (b.length >= 4 && ascii(0, 4) === 'OggS') return media('Ogg');
  if (b.length >= 4 && ascii(0, 4) === 'fLaC') return media('FLAC');
  if (b.length >= 3 && ascii(0, 3) === 'ID3') return media('MPEG audio (ID3)');
  if (b.length >= 12 && ascii(0, 4) === 'RIFF' && (ascii(8, 12) === 'AVI ' || ascii(8, 12) === 'WAVE')) {
    return media(ascii(8, 12) === 'WAVE' ? 'WAV' : 'AVI');
  }
  if (b.length >= 8 && b.readUInt32BE(0) === 0x3026b275 && b.readUInt32BE(4) === 0x8e66cf11) return media('ASF');
  if (b.length >= 2 && b[0] === 0xff && ((b[1] ?? 0) & 0xf6) === 0xf0) return media('AAC (ADTS)');
  if (b.length >= 2 && b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0 && ((b[1] ?? 0) & 0x06) !== 0) {
    return media('MPEG audio');
  }
  const ts = transportStream(b, final);
  if (ts === true) return media('MPEG-TS');
  if (ts === 'undecided') return { kind: 'undecided' };
  return undefined;
}

/**
 * True when sync bytes repeat every 188 bytes (or every 192, M2TS) for three packets from some
 * offset in the first packet; `undecided` while too few bytes are in and the first byte is a sync
 * byte. A body that ended holding whole packets only is a (short) stream too.
 */
function transportStream(b: Buffer, final: boolean): boolean | 'undecided' {
  for (const packet of [TS_PACKET, 192]) {
    const lead = packet - TS_PACKET;
    for (let offset = 0; offset < packet && offset + 2 * packet < b.length; offset++) {
      if (b[offset] === 0x47 && b[offset + packet] === 0x47 && b[offset + 2 * packet] === 0x47) return true;
    }
    if (final && b.length >= packet && b.length % packet === 0) {
      let all = true;
      for (let at = lead; at < b.length; at += packet) if (b[at] !== 0x47) all = false;
      if (all) return true;
    }
  }
  if (!final && b.length < TS_NEED && (b[0] === 0x47 || b[4] === 0x47)) return 'undecided';
  return false;
}

/** The first characters, without a byte-order mark or leading white space. */
function textStart(b: Buffer): string {
  let text = b.subarray(0, 64).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.trimStart();
}

/** Mostly printable UTF-8 or ASCII: no NUL, few control characters. */
function isText(b: Buffer): boolean {
  let control = 0;
  for (const byte of b) {
    if (byte === 0) return false;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20)) control++;
  }
  return control * 20 < b.length;
}

/**
 * An HLS playlist: master when it lists variants (`#EXT-X-STREAM-INF` and the URI after it), media
 * when it lists segments (`#EXTINF` and the URI after it), neither otherwise.
 * @example hlsPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nhi.m3u8\n') // { kind: 'hls-master', variants: ['hi.m3u8'] }
 */
export function hlsPlaylist(text: string): Sniffed {
  const variants: string[] = [];
  let segments = 0;
  let awaiting: 'variant' | 'segment' | undefined;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      if (line.startsWith('#EXT-X-STREAM-INF')) awaiting = 'variant';
      else if (line.startsWith('#EXTINF')) awaiting = 'segment';
      continue;
    }
    if (awaiting === 'variant') variants.push(line);
    else if (awaiting === 'segment') segments++;
    awaiting = undefined;
  }
  if (variants.length > 0) return { kind: 'hls-master', variants };
  if (segments > 0) return { kind: 'hls-media', segments };
  return { kind: 'not-media', what: 'an HLS playlist without segments or variants' };
}
