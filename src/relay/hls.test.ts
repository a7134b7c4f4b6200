import { describe, expect, it } from 'vitest';
import { attribute, type MasterPlaylist, type MediaPlaylist, parseAttributes, parseHls } from './hls-parse.js';
import { mediaPlaylist, rewriteMaster, singleVariant } from './hls-write.js';

const MASTER = `#EXTM3U
#EXT-X-VERSION:4
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/en.m3u8?token=s3cret"
#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.4d401f,mp4a.40.2",AUDIO="aud"
hd/index.m3u8?token=s3cret
#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,AUDIO="aud"
http://cdn2.example/sd/index.m3u8
`;

const MEDIA = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:6
#EXT-X-MEDIA-SEQUENCE:1200
#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k?id=1",IV=0x0123
#EXTINF:6.006,
seg1200.ts
#EXT-X-DISCONTINUITY
#EXT-X-PROGRAM-DATE-TIME:2030-01-01T00:00:00Z
#EXTINF:5.5,
/abs/seg1201.ts
#EXT-X-KEY:METHOD=NONE
#EXT-X-BYTERANGE:1000@0
#EXTINF:6,
all.ts
#EXT-X-BYTERANGE:500
#EXTINF:6,
all.ts
`;

describe('reading upstream playlists', () => {
  it('reads attribute lists with quoted commas', () => {
    const list = parseAttributes('BANDWIDTH=800000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360');
    expect(attribute(list, 'CODECS')).toBe('avc1.4d401f,mp4a.40.2');
    expect(attribute(list, 'RESOLUTION')).toBe('640x360');
  });

  it('reads a master playlist, URIs made absolute', () => {
    const master = parseHls(MASTER, 'http://tv.example/live/ch1/master.m3u8') as MasterPlaylist;
    expect(master.kind).toBe('master');
    expect(master.variants.map((v) => [v.uri, v.bandwidth])).toEqual([
      ['http://tv.example/live/ch1/hd/index.m3u8?token=s3cret', 2_500_000],
      ['http://cdn2.example/sd/index.m3u8', 800_000],
    ]);
    expect(master.renditions.map((r) => [r.type, r.uri])).toEqual([
      ['AUDIO', 'http://tv.example/live/ch1/audio/en.m3u8?token=s3cret'],
      ['CLOSED-CAPTIONS', undefined],
    ]);
  });

  it('reads a media playlist: sequence numbers, keys, discontinuities and byte ranges', () => {
    const media = parseHls(MEDIA, 'http://tv.example/live/ch1/hd/index.m3u8') as MediaPlaylist;
    expect(media.targetDuration).toBe(6);
    expect(media.ended).toBe(false);
    expect(media.segments.map((s) => [s.seq, s.uri, s.duration, s.discontinuity])).toEqual([
      [1200, 'http://tv.example/live/ch1/hd/seg1200.ts', 6.006, false],
      [1201, 'http://tv.example/abs/seg1201.ts', 5.5, true],
      [1202, 'http://tv.example/live/ch1/hd/all.ts', 6, false],
      [1203, 'http://tv.example/live/ch1/hd/all.ts', 6, false],
    ]);
    expect(media.segments[0]!.key?.uri).toBe('https://keys.example/k?id=1');
    expect(media.segments[1]!.key?.method).toBe('AES-128');
    expect(media.segments[1]!.dateTime).toBe('2030-01-01T00:00:00Z');
    expect(media.segments[2]!.key).toBeUndefined();
    expect(media.segments[2]!.range).toEqual({ length: 1000, offset: 0 });
    expect(media.segments[3]!.range).toEqual({ length: 500, offset: 1000 });
  });

  it('is not fooled by what is not a playlist', () => {
    expect(parseHls('<html>buy a plan</html>', 'http://x/')).toBeUndefined();
    expect(parseHls('', 'http://x/')).toBeUndefined();
  });
});

describe('writing the relay playlists', () => {
  it('rewrites a master playlist so that every URI is the relay track', () => {
    const master = parseHls(MASTER, 'http://tv.example/live/ch1/master.m3u8') as MasterPlaylist;
    const text = rewriteMaster(master, (track) => `v7/t${track}.m3u8`);
    expect(text).not.toMatch(/tv\.example|cdn2|s3cret|token/);
    expect(text).toContain(
      '#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.4d401f,mp4a.40.2",AUDIO="aud"\nv7/t0.m3u8',
    );
    expect(text).toContain('\nv7/t1.m3u8');
    expect(text).toContain('URI="v7/t2.m3u8"');
    expect(text).toContain('#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"');
    expect(text).toContain('#EXT-X-INDEPENDENT-SEGMENTS');
    // Read back, it has the same shape.
    const again = parseHls(text, 'https://relay.example/relay/t/index.m3u8') as MasterPlaylist;
    expect(again.variants).toHaveLength(2);
    expect(again.renditions).toHaveLength(2);
  });

  it('writes a live media playlist with discontinuities, keys and a discontinuity sequence', () => {
    const text = mediaPlaylist(
      [
        { seq: 10, duration: 2.002, discontinuity: true, uri: 't0/10.ts' },
        {
          seq: 11,
          duration: 1.5,
          discontinuity: false,
          uri: 't0/11.ts',
          keyTag: '#EXT-X-KEY:METHOD=AES-128,URI="k0.key"',
        },
        { seq: 12, duration: 2, discontinuity: true, uri: 't0/12.ts' },
      ],
      { discontinuitySequence: 3, ended: false },
    );
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:3',
        '#EXT-X-MEDIA-SEQUENCE:10',
        '#EXT-X-DISCONTINUITY-SEQUENCE:3',
        '#EXT-X-DISCONTINUITY',
        '#EXTINF:2.002,',
        't0/10.ts',
        '#EXT-X-KEY:METHOD=AES-128,URI="k0.key"',
        '#EXTINF:1.500,',
        't0/11.ts',
        '#EXT-X-DISCONTINUITY',
        '#EXT-X-KEY:METHOD=NONE',
        '#EXTINF:2.000,',
        't0/12.ts',
        '',
      ].join('\n'),
    );
    const media = parseHls(text, 'https://relay.example/relay/t/v1/t0.m3u8') as MediaPlaylist;
    expect(media.segments.map((s) => s.seq)).toEqual([10, 11, 12]);
  });

  it('writes a one-variant master for an MPEG-TS channel', () => {
    expect(singleVariant('v1/t0.m3u8', 4e6)).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=4000000\nv1/t0.m3u8\n',
    );
  });
});
