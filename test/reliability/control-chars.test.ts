/**
 * Control characters in sources (issue 18): a stream URL holding one is skipped with a warning
 * naming the file and line; names, titles and descriptions lose them at import; and whatever a
 * source says reaches the terminal with its control characters escaped, never as raw bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLibrary } from '../../src/library/index.js';
import { importLiveTv } from '../../src/livetv/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';

const ESC = '\u001b';
const BEL = '\u0007';
const NOW = Date.parse('2026-03-01T12:00:00Z');
let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-control-'));
  store = openStore(join(dir, 'marquee.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const PLAYLIST = [
  '#EXTM3U',
  `#EXTINF:-1 tvg-id="a.xx" group-title="News${BEL}",A${ESC}[31m One${BEL}`,
  'https://streams.example/a.m3u8',
  '#EXTINF:-1 tvg-id="b.xx",B',
  'https://streams.example/b\u0000.m3u8',
  '#EXTINF:-1 tvg-id="c.xx",C',
  `https://streams.example/c${ESC}.m3u8`,
  '',
].join('\n');

const GUIDE = `<?xml version="1.0" encoding="UTF-8"?>
<tv><channel id="a.xx"><display-name>Guide&#x7;A</display-name></channel>
<programme start="20260301110000 +0000" stop="20260301130000 +0000" channel="a.xx"><title>News${ESC}[2J at noon</title><desc>Line one${BEL}
line two</desc></programme>
</tv>
`;

describe('control characters in sources', () => {
  it('skip a stream URL holding one, naming the file and line, and leave names, titles and descriptions without them', async () => {
    writeFileSync(join(dir, 'tv.m3u'), PLAYLIST);
    writeFileSync(join(dir, 'guide.xml'), GUIDE);
    const result = await importLiveTv(store, {
      playlists: [{ location: join(dir, 'tv.m3u') }],
      guides: [{ location: join(dir, 'guide.xml') }],
      now: NOW,
    });
    expect(result.counts.channels).toBe(1);
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        {
          source: join(dir, 'tv.m3u'),
          line: 4,
          message: expect.stringMatching(/b\\x00\.m3u8" holds a control character; entry skipped/),
        },
        {
          source: join(dir, 'tv.m3u'),
          line: 6,
          message: expect.stringMatching(/c\\x1b\.m3u8" holds a control character; entry skipped/),
        },
      ]),
    );
    const [channel] = store.listChannels();
    expect(channel).toMatchObject({ name: 'A[31m One', group: 'News' });
    const programmes = store.programmesAround('mq-tv:a.xx', NOW - 3_600_000, NOW + 3_600_000);
    expect(programmes[0]?.video).toMatchObject({ title: 'News[2J at noon', overview: 'Line one\nline two' });
    const text = JSON.stringify(store.listChannels()) + JSON.stringify(programmes);
    expect(text).not.toMatch(/\\u001b|\\u0007/);
  });

  it('leave library names and descriptions without them', async () => {
    writeFileSync(
      join(dir, 'films.json'),
      JSON.stringify([
        { id: 'tt1', type: 'movie', name: `Film${BEL}${ESC}]0;pwned${BEL}`, description: `A${ESC}[1m bold\tstory` },
      ]),
    );
    await importLibrary(store, { files: [join(dir, 'films.json')] });
    expect(store.libraryMeta('movie', 'tt1')).toMatchObject({ name: 'Film]0;pwned', description: 'A[1m bold\tstory' });
  });

  it('refuse a catch-up template holding one, naming the file and line, as a stream URL holding one is', async () => {
    const archive = [
      '#EXTM3U',
      '#EXTINF:-1 tvg-id="a.xx" catchup="default" catchup-days="3" catchup-source="https://arch.example/{utc}\u0000x",A',
      'https://streams.example/a.m3u8',
      '#EXTINF:-1 tvg-id="b.xx" catchup="append" catchup-source="?start={utc}&x=\u001b[2J",B',
      'https://streams.example/b.m3u8',
      '#EXTINF:-1 tvg-id="c.xx" catchup="default" catchup-source="https://arch.example/c/{utc}",C',
      'https://streams.example/c.m3u8',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'tv.m3u'), archive);
    writeFileSync(join(dir, 'guide.xml'), GUIDE);
    const result = await importLiveTv(store, {
      playlists: [{ location: join(dir, 'tv.m3u') }],
      guides: [{ location: join(dir, 'guide.xml') }],
      now: NOW,
    });
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        {
          source: join(dir, 'tv.m3u'),
          line: 2,
          message: 'catchup-source "https://arch.example/{utc}\\x00x" holds a control character; no catch-up',
        },
        {
          source: join(dir, 'tv.m3u'),
          line: 4,
          message: 'catchup-source "?start={utc}&x=\\x1b[2J" holds a control character; no catch-up',
        },
      ]),
    );
    // The channels play live; only C plays past programmes.
    expect(store.getChannel('mq-tv:a.xx')?.catchupStreams).toBeUndefined();
    expect(store.getChannel('mq-tv:b.xx')?.catchupStreams).toBeUndefined();
    expect(store.getChannel('mq-tv:c.xx')?.catchupStreams).toHaveLength(1);
  });

  it('reach the terminal escaped', async () => {
    writeFileSync(join(dir, 'tv.m3u'), PLAYLIST);
    const { stdout, stderr } = await runCli(['import', '--playlist', 'tv.m3u', '--db', 'cli.db'], { cwd: dir });
    expect(stdout + stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(stdout).toContain('b\\x00.m3u8');
  });
});
