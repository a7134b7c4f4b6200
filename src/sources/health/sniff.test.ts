import { describe, expect, it } from 'vitest';
import { flvHeader, mp4Init, tsPackets } from '../../../test/fixtures/media.js';
import { hlsPlaylist, sniff } from './sniff.js';

describe('sniff: media by its own marks', () => {
  it('knows MPEG-TS from three sync bytes 188 apart, also from an offset and as M2TS', () => {
    expect(sniff(tsPackets(4), false)).toEqual({ kind: 'media', format: 'MPEG-TS' });
    // A live stream joined mid-packet: the packets start 100 bytes in.
    expect(sniff(Buffer.concat([Buffer.alloc(100, 0xaa), tsPackets(4)]), false)).toEqual({
      kind: 'media',
      format: 'MPEG-TS',
    });
    const m2ts = Buffer.concat([0, 1, 2, 3].map((i) => Buffer.concat([Buffer.from([0, 0, 0, i]), tsPackets(1)])));
    expect(sniff(m2ts, false)).toEqual({ kind: 'media', format: 'MPEG-TS' });
  });

  it('waits for more bytes while a sync byte may start a transport stream', () => {
    expect(sniff(tsPackets(1), false)).toEqual({ kind: 'undecided' });
    // A body that ended with whole packets is a (short) stream; one stray 0x47 byte is not.
    expect(sniff(tsPackets(2), true)).toEqual({ kind: 'media', format: 'MPEG-TS' });
    expect(sniff(Buffer.from([0x47, 1, 2, 3]), true).kind).toBe('not-media');
  });

  it('knows MP4 and fMP4 boxes, FLV, Matroska, MPEG-PS, Ogg, ADTS and ID3 audio', () => {
    expect(sniff(mp4Init(), false)).toEqual({ kind: 'media', format: 'MP4' });
    const styp = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('stypmsdh'), Buffer.alloc(12)]);
    expect(sniff(styp, false)).toEqual({ kind: 'media', format: 'MP4' });
    expect(sniff(flvHeader(), false)).toEqual({ kind: 'media', format: 'FLV' });
    expect(sniff(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]), false).kind).toBe('media');
    expect(sniff(Buffer.from([0, 0, 1, 0xba, 0x44, 0, 4, 0]), false)).toEqual({ kind: 'media', format: 'MPEG-PS' });
    expect(sniff(Buffer.from('OggS\0\u0002\0\0'), false).kind).toBe('media');
    expect(sniff(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]), false)).toEqual({
      kind: 'media',
      format: 'AAC (ADTS)',
    });
    expect(sniff(Buffer.from('ID3\u0004\0\0\0\0\0\u0023'), false).kind).toBe('media');
  });

  it('takes a DASH manifest as playable, an XML or HTML page not', () => {
    const mpd = '<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic">';
    expect(sniff(Buffer.from(mpd), false)).toEqual({ kind: 'media', format: 'DASH manifest' });
    expect(sniff(Buffer.from('<!DOCTYPE html><html><title>Buy a plan</title>'), false)).toEqual({
      kind: 'not-media',
      what: 'an HTML page',
    });
    expect(sniff(Buffer.from('\uFEFF  <html lang="en">'), false).kind).toBe('not-media');
    expect(sniff(Buffer.from('<?xml version="1.0"?><error>expired</error>'), true)).toEqual({
      kind: 'not-media',
      what: 'an XML document',
    });
  });

  it('calls JSON, text, empty and unknown bytes not media', () => {
    expect(sniff(Buffer.from('{"error":"token expired"}'), false)).toEqual({
      kind: 'not-media',
      what: 'a JSON answer',
    });
    expect(sniff(Buffer.from('Forbidden'), true)).toEqual({ kind: 'not-media', what: 'text' });
    expect(sniff(Buffer.alloc(0), true)).toEqual({ kind: 'not-media', what: 'an empty answer' });
    expect(sniff(Buffer.alloc(0), false)).toEqual({ kind: 'undecided' });
    const noise = Buffer.alloc(1000, 0).fill(0x13, 0, 1000);
    expect(sniff(noise, false).kind).toBe('not-media');
  });
});

describe('HLS playlists', () => {
  it('reads a media playlist as it comes from a packager, with CRLF and tags between', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-TARGETDURATION:6',
      '#EXT-X-MEDIA-SEQUENCE:48213',
      '#EXTINF:6.006,',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-24T14:02:00.000Z',
      'seg48213.ts',
      '#EXTINF:6.006,',
      'seg48214.ts?token=abc',
      '',
    ].join('\r\n');
    expect(sniff(Buffer.from(text), true)).toEqual({ kind: 'hls-media', segments: 2 });
    // Undecided until the whole playlist is in.
    expect(sniff(Buffer.from(text), false)).toEqual({ kind: 'undecided' });
  });

  it('lists a master playlist variants in order, and says when there is neither', () => {
    const master =
      '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2800000,RESOLUTION=1280x720\nhi/index.m3u8\n' +
      '#EXT-X-STREAM-INF:BANDWIDTH=800000\nhttps://cdn.example/lo.m3u8\n';
    expect(hlsPlaylist(master)).toEqual({
      kind: 'hls-master',
      variants: ['hi/index.m3u8', 'https://cdn.example/lo.m3u8'],
    });
    expect(hlsPlaylist('#EXTM3U\n#EXT-X-ENDLIST\n')).toEqual({
      kind: 'not-media',
      what: 'an HLS playlist without segments or variants',
    });
  });
});
