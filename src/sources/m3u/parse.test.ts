import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import { parseM3u } from './parse.js';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/m3u/${name}`, import.meta.url), 'utf8');

describe('parseM3u on a well-formed playlist', () => {
  const playlist = parseM3u(fixture('well-formed.m3u'), 'well-formed.m3u');

  it('reads the header: guide URLs split and merged, tvg-shift', () => {
    expect(playlist.header.guideUrls).toEqual([
      'http://guide.example/a.xml.gz',
      'http://guide.example/b.xml',
      'http://guide.example/c.xml',
    ]);
    expect(playlist.header.tvgShift).toBe(1);
    expect(playlist.warnings).toEqual([]);
  });

  it('reads every mapped EXTINF attribute', () => {
    expect(playlist.entries[0]).toEqual({
      line: 3,
      name: 'BBC One HD',
      url: 'http://streams.example/bbc1.m3u8',
      tvgId: 'bbc1.uk',
      tvgName: 'BBC One',
      tvgLogo: 'http://logo.example/bbc1.png',
      group: 'UK',
      channelNumber: 101,
      tvgShift: 1,
      catchup: { catchup: 'default', 'catchup-days': '7', 'catchup-source': '?utc={utc}' },
      attributes: {
        'tvg-id': 'bbc1.uk',
        'tvg-name': 'BBC One',
        'tvg-logo': 'http://logo.example/bbc1.png',
        'group-title': 'UK',
        'tvg-chno': '101',
        catchup: 'default',
        'catchup-days': '7',
        'catchup-source': '?utc={utc}',
      },
    });
  });

  it('keeps duplicate tvg-ids as separate entries with their own VLC options', () => {
    const bbc = playlist.entries.filter((e) => e.tvgId === 'bbc1.uk');
    expect(bbc.map((e) => e.url)).toEqual(['http://streams.example/bbc1.m3u8', 'http://backup.example/bbc1.ts']);
    expect(bbc[1]?.userAgent).toBe('Mozilla/5.0 (Marquee test)');
    expect(bbc[1]?.referrer).toBe('http://portal.example/');
    expect(bbc[0]?.userAgent).toBeUndefined();
  });

  it('reads user-agent, entry tvg-shift, EXTGRP and KODIPROP', () => {
    const cnn = playlist.entries[2];
    expect(cnn?.userAgent).toBe('VLC/3.0');
    expect(cnn?.tvgShift).toBe(-5);
    expect(cnn?.group).toBe('News');
    expect(cnn?.kodiProps).toEqual({
      'inputstream.adaptive.manifest_type': 'hls',
      'inputstream.adaptive.license_type': 'com.widevine.alpha',
    });
    // #EXTGRP stays in force until the next one; options do not leak to the next entry.
    expect(playlist.entries[3]).toMatchObject({ name: 'Arte', group: 'News', channelNumber: 7 });
    expect(playlist.entries[3]?.kodiProps).toBeUndefined();
  });
});

describe('parseM3u on a wild playlist', () => {
  const playlist = parseM3u(fixture('wild.m3u'), 'wild.m3u');

  it('reads past BOM, CRLF and blank lines, with commas and quotes in names and values', () => {
    expect(playlist.entries.map((e) => [e.line, e.name, e.group])).toEqual([
      [3, 'News One, "Live" 24/7', 'News, World'],
      [6, 'Film "Two", the channel', 'Movies'],
      [8, 'Sport 3', 'Sports'],
      [10, 'News One (alt)', undefined],
      [13, 'Five', undefined],
      [15, 'http://s.example/orphan.ts', undefined],
    ]);
    expect(playlist.entries[1]?.tvgName).toBe('Film "Two"');
    expect(playlist.entries[2]?.tvgId).toBe('sport.three');
    expect(playlist.entries.filter((e) => e.tvgId === 'news.one')).toHaveLength(2);
  });

  it('reports each problem with source and line', () => {
    expect(playlist.warnings).toEqual([
      { source: 'wild.m3u', line: 1, message: 'missing #EXTM3U header; reading as a playlist anyway' },
      { source: 'wild.m3u', line: 8, message: 'tvg-chno "ABC" is not a number; ignored' },
      { source: 'wild.m3u', line: 12, message: '#EXTINF has no URL after it; skipped' },
      { source: 'wild.m3u', line: 15, message: 'URL without #EXTINF; kept with the URL as its name' },
      { source: 'wild.m3u', line: 16, message: '#EXTINF has no URL after it; skipped' },
    ]);
  });

  it('reads CR-only line ends', () => {
    const text = '#EXTM3U\r#EXTINF:-1,A\rhttp://a\r#EXTINF:-1,B\rhttp://b\r';
    const result = parseM3u(text, 'cr.m3u');
    expect(result.entries.map((e) => [e.line, e.name, e.url])).toEqual([
      [2, 'A', 'http://a'],
      [4, 'B', 'http://b'],
    ]);
  });
});

describe('parseM3u edge cases', () => {
  it("takes the header's catch-up attributes as every entry's defaults, and the SIPTV timeshift form", () => {
    const text = [
      '#EXTM3U catchup="append" catchup-source="?utc={utc}" catchup-days="3" catchup-correction="-1"',
      '#EXTINF:-1,Header mode',
      'http://a',
      '#EXTINF:-1 catchup-days="7",Own days',
      'http://b',
      '#EXTINF:-1 catchup="shift",Own mode',
      'http://c',
      '#EXTM3U',
      '#EXTINF:-1 timeshift="4",Legacy',
      'http://d',
    ].join('\n');
    const { entries } = parseM3u(text, 'p.m3u');
    const head = { catchup: 'append', 'catchup-source': '?utc={utc}', 'catchup-days': '3', 'catchup-correction': '-1' };
    expect(entries.map((e) => e.catchup)).toEqual([
      head,
      { ...head, 'catchup-days': '7' },
      { ...head, catchup: 'shift' },
      { ...head, catchup: 'shift', 'catchup-days': '4' },
    ]);
  });

  it('falls back to tvg-name, then the URL, when the title is missing', () => {
    const text = '#EXTM3U\n#EXTINF:-1 tvg-name="Named",\nhttp://a\n#EXTINF:-1 tvg-id="x"\nhttp://b\n';
    const { entries, warnings } = parseM3u(text, 'p.m3u');
    expect(entries.map((e) => e.name)).toEqual(['Named', 'http://b']);
    expect(warnings).toEqual([
      { source: 'p.m3u', line: 4, message: '#EXTINF has no title and no tvg-name; named by its URL' },
    ]);
  });

  it('reads an EXTINF without duration and a value with an unterminated quote', () => {
    const text = '#EXTM3U\n#EXTINF:tvg-id="a" group-title="Broken,Title here\nhttp://a\n';
    const { entries, warnings } = parseM3u(text, 'p.m3u');
    expect(entries[0]).toMatchObject({ tvgId: 'a', group: 'Broken', name: 'Title here' });
    expect(warnings).toEqual([{ source: 'p.m3u', line: 2, message: 'unterminated quote in attribute "group-title"' }]);
  });

  it('rejects out-of-range or non-numeric tvg-shift with a warning', () => {
    const text = '#EXTM3U tvg-shift="90"\n#EXTINF:-1 tvg-shift=two,A\nhttp://a\n';
    const { header, entries, warnings } = parseM3u(text, 'p.m3u');
    expect(header.tvgShift).toBeUndefined();
    expect(entries[0]?.tvgShift).toBeUndefined();
    expect(warnings.map((w) => w.line)).toEqual([1, 2]);
  });

  it('skips overlong lines with a warning', () => {
    const long = `#EXTINF:-1 tvg-logo="${'x'.repeat(200)}",Long`;
    const text = `#EXTM3U\n${long}\nhttp://a\n#EXTINF:-1,B\nhttp://b\n`;
    const { entries, warnings } = parseM3u(text, 'p.m3u', { maxLineLength: 100 });
    expect(entries.map((e) => e.name)).toEqual(['http://a', 'B']);
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [2, 'line is longer than 100 characters; skipped'],
      [3, 'URL without #EXTINF; kept with the URL as its name'],
    ]);
  });

  it('fails a playlist past maxEntries as soon as the entry past it is read, naming the line and the setting', () => {
    const text = `#EXTM3U\n#EXTINF:-1,A\nhttp://a\n#EXTINF:-1,B\nhttp://b\n#EXTINF:-1,C\nhttp://c\n`;
    expect(parseM3u(text, 'p.m3u', { maxEntries: 3 }).entries).toHaveLength(3);
    let error: unknown;
    try {
      parseM3u(text, 'p.m3u', { maxEntries: 2 });
    } catch (e) {
      error = e;
    }
    expect(isMarqueeError(error, 'SOURCE_TOO_LARGE')).toBe(true);
    expect((error as Error).message).toBe('p.m3u:7: more than 2 entries (sources.maxEntries)');
  });

  it('cuts names, tvg-names and groups past maxNameLength, with a warning naming the line', () => {
    const name = 'N'.repeat(500);
    const text =
      `#EXTM3U\n#EXTINF:-1 tvg-name="${'T'.repeat(400)}" group-title="${'G'.repeat(301)}",${name}\nhttp://a\n` +
      `#EXTGRP:${'S'.repeat(320)}\n#EXTINF:-1,Short\nhttp://b\n#EXTINF:-1,\nhttp://c/${'u'.repeat(400)}\n`;
    const { entries, warnings } = parseM3u(text, 'p.m3u', { maxNameLength: 300 });
    expect(entries[0]).toMatchObject({ name: 'N'.repeat(300), tvgName: 'T'.repeat(300), group: 'G'.repeat(300) });
    expect(entries[1]).toMatchObject({ name: 'Short', group: 'S'.repeat(300) });
    expect(entries[2]!.name).toHaveLength(300);
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [2, 'name is 500 characters long; cut to 300 (sources.maxNameLength)'],
      [2, 'tvg-name is 400 characters long; cut to 300 (sources.maxNameLength)'],
      [2, 'group-title is 301 characters long; cut to 300 (sources.maxNameLength)'],
      [4, '#EXTGRP is 320 characters long; cut to 300 (sources.maxNameLength)'],
      [7, '#EXTINF has no title and no tvg-name; named by its URL'],
    ]);
    // The default is 300 as well.
    expect(parseM3u(text, 'p.m3u').entries[0]!.name).toHaveLength(300);
  });

  it('bounds the number of listed warnings', () => {
    const text = Array.from({ length: 50 }, (_, i) => `http://s/${i}`).join('\n');
    const { entries, warnings } = parseM3u(text, 'p.m3u', { maxWarnings: 10 });
    expect(entries).toHaveLength(50);
    expect(warnings).toHaveLength(11);
    expect(warnings[10]).toEqual({ source: 'p.m3u', message: '41 more warnings not listed' });
  });

  it('returns no entries and no header warning for an empty text', () => {
    expect(parseM3u('\uFEFF\n\n', 'empty.m3u')).toEqual({
      header: { guideUrls: [], attributes: {} },
      entries: [],
      warnings: [],
    });
  });
});

describe('parseM3u at scale', () => {
  it('parses a generated 50,000-entry playlist correctly and fast', () => {
    const count = 50_000;
    const parts = ['#EXTM3U url-tvg="http://g/guide.xml"'];
    for (let i = 0; i < count; i++) {
      parts.push(
        `#EXTINF:-1 tvg-id="ch${i}.example" tvg-name="Channel ${i}" tvg-logo="http://logo/${i}.png" group-title="Group ${i % 40}" tvg-chno="${i + 1}",Channel ${i}, "HD"`,
        `http://streams.example/live/${i}.m3u8`,
      );
    }
    const text = parts.join('\r\n');
    const started = performance.now();
    const playlist = parseM3u(text, 'big.m3u');
    const elapsed = performance.now() - started;

    expect(playlist.warnings).toEqual([]);
    expect(playlist.entries).toHaveLength(count);
    const last = playlist.entries[count - 1];
    expect(last).toMatchObject({
      line: 2 * count,
      name: `Channel ${count - 1}, "HD"`,
      tvgId: `ch${count - 1}.example`,
      channelNumber: count,
      group: `Group ${(count - 1) % 40}`,
      url: `http://streams.example/live/${count - 1}.m3u8`,
    });
    // Typically ~100 ms on the 2-core test machine; the bound leaves room for a loaded CI box.
    expect(elapsed).toBeLessThan(1_000);
  });
});
