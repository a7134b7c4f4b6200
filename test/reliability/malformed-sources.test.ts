/**
 * The malformed-source corpus (test/fixtures/malformed/) imported over a working site, each file
 * standing in for the operator's good one under the same name. A file that cannot be used is
 * kept from its last good import (docs/reliability.md): the import's line for it names the file
 * (and the line when the format has one) and why, and every catalog, meta, stream and subtitles
 * answer stays the same, byte for byte, over a real socket. A file that is damaged only in places
 * imports what is usable with warnings that carry the file and line (the operator accepting the
 * shrink); importing the good files again then gives back exactly the answers of before.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLibrary } from '../../src/library/index.js';
import { importLiveTv } from '../../src/livetv/index.js';
import { listen, type RunningServer } from '../../src/server/index.js';
import { fixture } from '../fixtures/livetv/setup.js';
import { servedPaths, type WholeAnswer, wholeAnswers } from './crawl.js';
import { createSite, DEMO_LIBRARY, type Site } from './site.js';

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'malformed');
const MB10 = 10 * 1024 * 1024;

type Kind = 'playlist' | 'guide' | 'library';
/** Where the broken content goes: over the operator's playlist, first guide, or as the library file. */
type Content = { corpus: string } | { generate: () => string; ext: string };
interface Warned {
  readonly line: number;
  readonly message: RegExp;
}

let site: Site;
let server: RunningServer;
let paths: string[];
let before: WholeAnswer[];

beforeAll(async () => {
  site = await createSite();
  // No response cache: every answer after a failed import is built from the store again.
  server = await listen(site.handler({ responseCache: false }), { port: 0 });
  paths = await servedPaths(site.handler({ responseCache: false }));
  before = await wholeAnswers(server.url, paths);
});
afterAll(async () => {
  await server.close();
  site.close();
});

/** Writes the broken content where the operator's file of `kind` was; returns the path imported. */
function place(kind: Kind, content: Content): string {
  const ext = 'corpus' in content ? content.corpus.slice(content.corpus.lastIndexOf('.')) : content.ext;
  const target =
    kind === 'playlist' ? site.files.playlist : kind === 'guide' ? site.files.guide : join(site.dir, `library${ext}`);
  if ('corpus' in content) copyFileSync(join(CORPUS, content.corpus), target);
  else writeFileSync(target, content.generate());
  return target;
}

async function importKind(kind: Kind, file: string, acceptShrink = false) {
  if (kind === 'library') {
    const result = await importLibrary(site.store, { files: [file], acceptShrink });
    return { warnings: result.warnings, sources: result.sources };
  }
  const result = await importLiveTv(site.store, { ...site.livetv, acceptShrink });
  return { warnings: result.warnings, sources: result.sources };
}

/** Puts the good sources back and imports them again. */
async function restore(): Promise<void> {
  copyFileSync(fixture('channels.m3u'), site.files.playlist);
  copyFileSync(fixture('guide.xml'), site.files.guide);
  copyFileSync(DEMO_LIBRARY, site.files.library);
  await importLiveTv(site.store, site.livetv);
  await importLibrary(site.store, { files: [site.files.library] });
}

/** Keeps the file's last good data; its line names the file (and `line` when given); answers stay byte for byte. */
async function expectKept(kind: Kind, content: Content, message: RegExp, line?: number): Promise<void> {
  const file = place(kind, content);
  const { sources } = await importKind(kind, file);
  const source = sources.find((s) => s.location === file);
  expect(source?.outcome, JSON.stringify(sources)).toBe('kept');
  expect(source!.message).toContain(file);
  if (line !== undefined) expect(source!.message).toContain(`line ${line}`);
  expect(source!.message).toMatch(message);
  expect(source!.message).toMatch(/keeping the last good data/);
  expect(await wholeAnswers(server.url, paths)).toEqual(before);
  await restore();
}

/** Imports what is usable with every listed warning located; the good files then give the old answers back. */
async function expectWarned(kind: Kind, content: Content, warned: readonly Warned[]): Promise<void> {
  const file = place(kind, content);
  const { warnings } = await importKind(kind, file, true);
  for (const w of warned) {
    expect(
      warnings.some((got) => got.source === file && got.line === w.line && w.message.test(got.message)),
      `no warning at ${file}:${w.line} matching ${w.message}; got ${JSON.stringify(warnings)}`,
    ).toBe(true);
  }
  await restore();
  expect(await wholeAnswers(server.url, paths)).toEqual(before);
}

describe('the site under test', () => {
  it('serves enough paths that a changed answer would be seen', () => {
    expect(paths.length).toBeGreaterThan(60);
    expect(before.filter((a) => a.status === 200).length).toBeGreaterThan(60);
    expect(paths.some((p) => p.includes('date=2026-03-01'))).toBe(true);
    expect(paths.some((p) => p.startsWith('/stream/series/'))).toBe(true);
  });
});

describe('playlists that cannot be used keep the previous answers byte for byte', () => {
  it.each([
    ['an HTML error page', 'm3u/html-page.m3u', /is an HTML page, not a playlist/],
    ['an empty file', 'm3u/empty.m3u', /is empty: not an IPTV playlist/],
    ['binary garbage', 'm3u/binary.m3u', /holds no #EXTINF entry: not an IPTV playlist/],
    ['entries whose URLs no player can open', 'm3u/only-bad-urls.m3u', /holds no channel to serve \(\d+ entries read/],
  ])('%s', async (_name, corpus, message) => {
    await expectKept('playlist', { corpus }, message);
  });

  it('a 10 MB single line, and nothing else', async () => {
    const started = performance.now();
    await expectKept(
      'playlist',
      { generate: () => `#EXTM3U\n#EXTINF:-1,${'x'.repeat(MB10)}\n`, ext: '.m3u' },
      /no channel to serve/,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('playlists damaged in places import the rest, with each problem located', () => {
  it('broken attributes, an entry without URL, an ftp URL', async () => {
    await expectWarned('playlist', { corpus: 'm3u/broken-entries.m3u' }, [
      { line: 1, message: /tvg-shift "eleven" is not a number/ },
      { line: 2, message: /unterminated quote in attribute "group-title"/ },
      { line: 4, message: /tvg-shift "99"/ },
      { line: 6, message: /#EXTINF has no URL after it; skipped/ },
      { line: 10, message: /"ftp:\/\/streams\.example\/nothing\.ts" is not an http\(s\) or streaming URL/ },
    ]);
  });

  it('a 10 MB line among good entries is skipped at its line', async () => {
    const good = '#EXTINF:-1 tvg-id="arte.fr",Arte\nhttps://streams.example/arte.m3u8\n';
    await expectWarned(
      'playlist',
      {
        generate: () => `#EXTM3U\n${good}#EXTINF:-1,${'y'.repeat(MB10)}\nhttps://x.example/y.m3u8\n${good}`,
        ext: '.m3u',
      },
      [{ line: 4, message: /line is longer than 65536 characters; skipped/ }],
    );
  });
});

describe('guides that cannot be used keep the previous answers byte for byte', () => {
  it('an RSS feed instead of a guide', async () => {
    await expectKept('guide', { corpus: 'xmltv/not-xmltv.xml' }, /the root element is <rss>, not <tv>/, 2);
  });

  it('a 10 MB single line holding one endless attribute', async () => {
    const started = performance.now();
    await expectKept(
      'guide',
      {
        generate: () => `<?xml version="1.0"?><tv><programme channel="${'z'.repeat(MB10)}"></programme></tv>`,
        ext: '.xml',
      },
      /longer than/,
      1,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('guides damaged in places import the rest, with each problem located', () => {
  it('truncated inside a programme', async () => {
    await expectWarned('guide', { corpus: 'xmltv/truncated.xml' }, [
      { line: 7, message: /ends inside this <programme>.*dropped/ },
      { line: 8, message: /ends before <\/tv>.*1 programmes read before are kept/ },
    ]);
  });

  it('Latin-1 bytes in a guide that declares UTF-8', async () => {
    await expectWarned('guide', { corpus: 'xmltv/wrong-encoding.xml' }, [
      { line: 5, message: /not valid utf-8.*encoding is not what it declares/ },
    ]);
  });

  it('tags left open', async () => {
    await expectWarned('guide', { corpus: 'xmltv/unclosed-tags.xml' }, [
      { line: 3, message: /<channel> is not closed before the <programme> at line 4/ },
      { line: 7, message: /<title> is not closed/ },
      { line: 7, message: /<desc> is not closed/ },
    ]);
  });

  it('dates no parser can read', async () => {
    await expectWarned('guide', { corpus: 'xmltv/bad-dates.xml' }, [
      { line: 4, message: /start "yesterday" is not an XMLTV time/ },
      { line: 7, message: /start "20261301120000 \+0000" is not an XMLTV time/ },
      { line: 10, message: /\+9999" is not an XMLTV time/ },
      { line: 13, message: /has no start attribute/ },
    ]);
  });

  it('a stop before or at the start', async () => {
    await expectWarned('guide', { corpus: 'xmltv/stop-before-start.xml' }, [
      { line: 4, message: /"Backwards".*stop .* is not after start .*ends at the next programme's start \(line 7\)/ },
      { line: 7, message: /"Zero Length".*is not after start/ },
    ]);
  });

  it('garbage and an unterminated comment before </tv>', async () => {
    await expectWarned('guide', { corpus: 'xmltv/no-root-close-garbage.xml' }, [
      { line: 6, message: /ends before <\/tv>/ },
    ]);
  });

  it('a channel declared twice', async () => {
    await expectWarned('guide', { corpus: 'xmltv/duplicate-programmes.xml' }, [
      { line: 4, message: /channel "BBCOne.uk" is declared again; the first declaration is kept/ },
    ]);
  });

  it('a 10 MB description on one line is cut to the text bound, with a warning', async () => {
    const guide = () =>
      `<?xml version="1.0"?>\n<tv><channel id="BBCOne.uk"><display-name>B</display-name></channel>\n` +
      `<programme start="20260301120000 +0000" stop="20260301130000 +0000" channel="BBCOne.uk"><title>Long</title><desc>${'d'.repeat(MB10)}</desc></programme>\n</tv>\n`;
    await expectWarned('guide', { generate: guide, ext: '.xml' }, [{ line: 3, message: /longer than|truncated/ }]);
  });
});

describe('duplicate and overlapping programmes in one guide', () => {
  it('keeps one of two equal programmes and counts the other, and keeps overlapping ones as the guide gives them', async () => {
    // Smaller than the site's guide: the operator takes the shrink.
    place('guide', { corpus: 'xmltv/duplicate-programmes.xml' });
    const duplicates = await importLiveTv(site.store, { ...site.livetv, acceptShrink: true });
    expect(duplicates.dropped.duplicate).toBe(1);

    place('guide', { corpus: 'xmltv/overlapping-programmes.xml' });
    const overlapping = await importLiveTv(site.store, { ...site.livetv, acceptShrink: true });
    // Documented behaviour (docs/reliability.md): overlaps inside one guide are not resolved or
    // warned about; only overlaps between guides are, by priority.
    expect(overlapping.dropped.overlapped).toBe(0);
    expect(overlapping.warnings.filter((w) => w.source === site.files.guide)).toEqual([]);
    await restore();
    expect(await wholeAnswers(server.url, paths)).toEqual(before);
  });
});

describe('library files that cannot be used keep the previous answers byte for byte', () => {
  it('JSON with a missing brace, located by line and column', async () => {
    await expectKept('library', { corpus: 'library/bad-json.json' }, /invalid JSON: expected ',' or '}'/, 5);
  });

  it('JSON of another program', async () => {
    await expectKept(
      'library',
      { corpus: 'library/not-a-library.json' },
      /holds no usable item \(the first item skipped: .*type: is required; item skipped\)/,
    );
  });
});

describe('library files damaged in places import the rest, with each problem located', () => {
  it('JSON fields of the wrong type', async () => {
    await expectWarned('library', { corpus: 'library/wrong-types.json' }, [
      { line: 2, message: /name: Invalid type: Expected string but received 42; item skipped/ },
      { line: 3, message: /type: must be "movie" or "series"/ },
      { line: 4, message: /released: must be a year/ },
      { line: 5, message: /genres: Invalid type: Expected Array/ },
      { line: 7, message: /streams\[0\]: a stream needs exactly one source/ },
    ]);
  });

  it('CSV quoting gone wrong', async () => {
    await expectWarned('library', { corpus: 'library/bad-quoting.csv' }, [
      { line: 2, message: /text after the closing quote of field 2; row skipped/ },
      { line: 4, message: /a quoted field is never closed; the rest of the file is lost/ },
    ]);
  });

  it('CSV cells of the wrong type', async () => {
    await expectWarned('library', { corpus: 'library/wrong-types.csv' }, [
      { line: 2, message: /name: is required/ },
      { line: 3, message: /must be "movie" or "series"/ },
      { line: 4, message: /adult|maybe/ },
      { line: 5, message: /released\): must be a year/ },
      { line: 6, message: /season|episode/ },
    ]);
  });
});
