/**
 * Real media for the relay's browser tests and benchmark, made by ffmpeg at test time (nothing
 * vendored): a live-style MPEG-TS clip of testsrc2 video and a sine tone (H.264 baseline, AAC,
 * a keyframe a second, PAT/PMT repeated), and the same clip cut into 2 s HLS segments.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Clips {
  /** The whole clip as one MPEG-TS. */
  readonly ts: Buffer;
  /** Its HLS cut: each segment's file name, duration and bytes. */
  readonly segments: readonly { readonly name: string; readonly duration: number; readonly bytes: Buffer }[];
}

export interface ClipOptions {
  readonly seconds?: number;
  /** Video bitrate, e.g. `400k`, `7M`. */
  readonly videoBitrate?: string;
  readonly size?: string;
}

/**
 * Makes the clips in `dir` (about a second of CPU for 24 s of 320x180).
 * @example const { ts, segments } = makeClips(dir, { seconds: 24 })
 */
export function makeClips(dir: string, options: ClipOptions = {}): Clips {
  const seconds = String(options.seconds ?? 24);
  const bitrate = options.videoBitrate ?? '400k';
  const ffmpeg = (args: string[]) =>
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { cwd: dir, stdio: 'pipe' });
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${options.size ?? '320x180'}:rate=25`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    seconds,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-profile:v',
    'baseline',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '25',
    '-keyint_min',
    '25',
    '-sc_threshold',
    '0',
    '-b:v',
    bitrate,
    '-maxrate',
    bitrate,
    '-bufsize',
    bitrate,
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-ac',
    '2',
    '-f',
    'mpegts',
    '-mpegts_flags',
    '+resend_headers',
    'clip.ts',
  ]);
  ffmpeg([
    '-i',
    'clip.ts',
    '-c',
    'copy',
    '-f',
    'hls',
    '-hls_time',
    '2',
    '-hls_list_size',
    '0',
    '-hls_segment_filename',
    'seg%d.ts',
    'index.m3u8',
  ]);
  const playlist = readFileSync(join(dir, 'index.m3u8'), 'utf8').split('\n');
  const segments: { name: string; duration: number; bytes: Buffer }[] = [];
  for (let i = 0; i < playlist.length; i++) {
    const extinf = /^#EXTINF:([\d.]+)/.exec(playlist[i]!);
    if (extinf) {
      const name = playlist[i + 1]!.trim();
      segments.push({ name, duration: Number(extinf[1]), bytes: readFileSync(join(dir, name)) });
    }
  }
  if (segments.length === 0) throw new Error(`ffmpeg made no HLS segments in ${dir}: ${readdirSync(dir).join(', ')}`);
  return { ts: readFileSync(join(dir, 'clip.ts')), segments };
}
