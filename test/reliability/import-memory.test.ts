/**
 * An import's memory bounded per entry as well as per byte (issue 48): 300,000 tiny Xtream live
 * streams (60 bytes each, one output format, a guide naming 900 of them) took `marquee import`
 * to 759 MB on main before this work, and a playlist of 300,000 one-line entries to 737 MB. The
 * playlist alone now peaks at about 330-340 MB. The account, whose guide is matched against all
 * 300,000 names, peaked at 395-408 MB once the import held each entry compactly, and at 360-362 MB
 * since the matcher keeps those names more compactly too (its exact names as hashes, no string
 * of its own per channel number, one object for every channel resolved to nothing): both are
 * held to the 400 MB. So is the playlist given a guide that names 900 of its channels
 * (399 MB before the matcher's change, 351-354 MB since).
 * Peaks are the child process's VmHWM; MARQUEE_MEMORY_LOG=1 prints them (docs/reliability.md).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatXmltvTime } from '../../src/sources/xmltv/index.js';
import { runCli } from '../helpers/cli.js';
import { peakUntilExit } from '../helpers/memory.js';
import { ensureBuilt, startMarquee } from '../helpers/serve-process.js';
import { type Panel, startPanel } from '../helpers/xtream-panel.js';

/** The bound. */
const LIMIT_MB = 400;
const ENTRIES = 300_000;

let dir: string;
let panel: Panel;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'marquee-import-memory-'));
  panel = await startPanel({
    live: ENTRIES,
    liveShape: 'tiny',
    movies: 0,
    series: 0,
    formats: ['ts'],
    guideChannels: 1_000,
  });
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await panel?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `marquee import ARGS` in `cwd` as a child; its exit code, output and peak RSS (MB). */
async function importPeak(args: string[], cwd: string): Promise<{ code: number | null; output: string; peak: number }> {
  const importing = startMarquee(['import', ...args], cwd, children);
  const peak = await peakUntilExit(importing.process);
  const code = await importing.exited;
  if (process.env.MARQUEE_MEMORY_LOG) console.log(`marquee import ${args.join(' ')}: peak ${peak.toFixed(0)} MB`);
  return { code, output: importing.output(), peak };
}

/** The channels a store holds, as `marquee status --json` counts them. */
async function channelsIn(db: string, cwd: string, source: string[]): Promise<number> {
  const status = await runCli(['status', '--db', db, ...source, '--json'], { cwd });
  return JSON.parse(status.stdout).sources[0].lastGood.counts.channels;
}

describe.skipIf(process.platform !== 'linux')('an import of 300,000 tiny entries', () => {
  it('an Xtream account of 300,000 live streams in one format, with its guide, imports them all under 400 MB', async () => {
    const cwd = mkdtempSync(join(dir, 'xtream-'));
    const db = join(cwd, 'xtream.db');
    // Live streams only: the panel lists no films or series, and its guide 900 of the channels.
    writeFileSync(
      join(cwd, 'marquee.json'),
      JSON.stringify({ xtream: [{ url: panel.account, movies: false, series: false }] }),
    );
    const { code, output, peak } = await importPeak(['--db', db], cwd);
    expect(code, output).toBe(0);
    expect(output).toMatch(/900 channels with a guide/);
    expect(await channelsIn(db, cwd, [])).toBe(ENTRIES);
    expect(peak).toBeGreaterThan(0);
    expect(peak, `marquee import peaked at ${peak.toFixed(0)} MB`).toBeLessThan(LIMIT_MB);
  }, 120_000);

  it('a playlist of 300,000 one-line entries imports them all under 400 MB', async () => {
    const cwd = mkdtempSync(join(dir, 'playlist-'));
    const file = join(cwd, 'tv.m3u');
    writeFileSync(file, playlistText());
    const db = join(cwd, 'tv.db');
    const { code, output, peak } = await importPeak(['--db', db, '--playlist', file], cwd);
    expect(code, output).toBe(0);
    expect(await channelsIn(db, cwd, ['--playlist', file])).toBe(ENTRIES);
    expect(peak).toBeGreaterThan(0);
    expect(peak, `marquee import peaked at ${peak.toFixed(0)} MB`).toBeLessThan(LIMIT_MB);
  }, 120_000);

  it('the same playlist with a guide naming 900 of its channels, matched against all 300,000 names, under 400 MB', async () => {
    const cwd = mkdtempSync(join(dir, 'guided-'));
    const file = join(cwd, 'tv.m3u');
    writeFileSync(file, playlistText());
    const guide = join(cwd, 'guide.xml');
    const day = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    const xml = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
    for (let i = 1; i <= 900; i++)
      xml.push(`<channel id="ch${i}.example"><display-name>Channel ${i}</display-name></channel>`);
    for (let i = 1; i <= 900; i++)
      for (let h = 0; h < 24; h++)
        xml.push(
          `<programme start="${formatXmltvTime(day + h * 3_600_000)}" stop="${formatXmltvTime(day + (h + 1) * 3_600_000)}" channel="ch${i}.example"><title>Show ${h}</title></programme>`,
        );
    writeFileSync(guide, `${xml.join('\n')}\n</tv>\n`);
    const db = join(cwd, 'tv.db');
    const { code, output, peak } = await importPeak(['--db', db, '--playlist', file, '--epg', guide], cwd);
    expect(code, output).toBe(0);
    expect(output).toMatch(/900 channels with a guide/);
    expect(await channelsIn(db, cwd, ['--playlist', file, '--epg', guide])).toBe(ENTRIES);
    expect(peak).toBeGreaterThan(0);
    expect(peak, `marquee import peaked at ${peak.toFixed(0)} MB`).toBeLessThan(LIMIT_MB);
  }, 120_000);
});

/** A playlist of ENTRIES one-line entries, each a channel of its own (`Channel 1`...). */
function playlistText(): string {
  const lines = ['#EXTM3U'];
  for (let i = 1; i <= ENTRIES; i++)
    lines.push(`#EXTINF:-1 group-title="News",Channel ${i}`, `http://s.example/live/${1000 + i}.ts`);
  return `${lines.join('\n')}\n`;
}
