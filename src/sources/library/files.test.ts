import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import { readLibrary, readLibraryFile, readLibraryFolder } from './files.js';

const fixtures = new URL('../../../test/fixtures/library/', import.meta.url).pathname;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'marquee-library-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isMarqueeError(error) ? `${error.code}: ${error.message}` : String(error);
  }
}

describe('readLibraryFolder', () => {
  it('reads one item per .json file in name order; a broken file is a warning with its line and column', async () => {
    const folder = join(dir, 'items');
    await cp(join(fixtures, 'folder'), folder, { recursive: true });
    // Kept out of the fixtures so the repository's JSON stays valid for the linter.
    await writeFile(join(folder, 'broken.json'), '{\n  "type": "movie",\n  "name": "Broken",\n}\n');
    const { items, warnings } = await readLibraryFolder(folder);
    expect(items.map((i) => i.name)).toEqual(['Big Buck Bunny', 'Tears of Steel']);
    expect(items[0]!.id).toBe('tt1254207');
    expect(warnings).toEqual([
      {
        source: join(folder, 'broken.json'),
        line: 4,
        message: `${join(folder, 'broken.json')}:4:1: invalid JSON: trailing comma before }; file skipped`,
      },
      {
        source: join(folder, 'sintel.json'),
        line: 1,
        field: 'poster',
        message: 'item "Sintel": poster: must be an absolute URL (the client drops the item otherwise); item skipped',
      },
    ]);
  });

  it('reports a duplicate id across files with both file names', async () => {
    await writeFile(join(dir, 'a.json'), '{"id": "tt1", "type": "movie", "name": "A"}');
    await writeFile(join(dir, 'b.json'), '{"id": "tt1", "type": "movie", "name": "B"}');
    const { items, warnings } = await readLibrary(dir);
    expect(items.map((i) => i.name)).toEqual(['A']);
    expect(warnings).toMatchObject([
      {
        source: join(dir, 'b.json'),
        line: 1,
        message: expect.stringContaining(`first defined at ${join(dir, 'a.json')}:1`),
      },
    ]);
  });

  it('bounds the number of files and the size of each', async () => {
    for (const n of [1, 2, 3]) await writeFile(join(dir, `${n}.json`), `{"type": "movie", "name": "M${n}"}`);
    expect(await code(readLibraryFolder(dir, { maxItems: 2 }))).toMatch(/^SOURCE_TOO_LARGE: .*3 item files/);
    await writeFile(join(dir, '4.json'), `{"type": "movie", "name": "Long", "description": "${'x'.repeat(200)}"}`);
    const { items, warnings } = await readLibraryFolder(dir, { maxFileBytes: 100 });
    expect(items).toHaveLength(3);
    expect(warnings).toMatchObject([
      { source: join(dir, '4.json'), message: expect.stringContaining('larger than the limit of 100 bytes') },
    ]);
  });
});

describe('readLibraryFile', () => {
  it('reads JSON, CSV and TSV by extension', async () => {
    expect((await readLibraryFile(join(fixtures, 'series.csv'))).items).toHaveLength(1);
    await writeFile(join(dir, 'l.tsv'), 'type\tname\nmovie\tSpring\n');
    expect((await readLibraryFile(join(dir, 'l.tsv'))).items.map((i) => i.name)).toEqual(['Spring']);
    await writeFile(join(dir, 'l.json'), '[{"type": "movie", "name": "Charge"}]');
    const { items } = await readLibrary(join(dir, 'l.json'));
    expect(items.map((i) => i.id)).toEqual(['mq:movie-charge']);
  });

  it('names the file in warnings', async () => {
    const path = join(fixtures, 'malformed.csv');
    const { warnings } = await readLibraryFile(path);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.every((w) => w.source === path)).toBe(true);
  });

  it('fails clearly on a missing file, an unknown extension, a file too large and text that is not UTF-8', async () => {
    expect(await code(readLibraryFile(join(dir, 'missing.json')))).toMatch(
      /^SOURCE_UNREADABLE: .*missing\.json: file not found$/,
    );
    expect(await code(readLibrary(join(dir, 'missing')))).toMatch(/^SOURCE_UNREADABLE: /);
    await writeFile(join(dir, 'lib.xml'), '<x/>');
    expect(await code(readLibraryFile(join(dir, 'lib.xml')))).toMatch(
      /^SOURCE_INVALID: .*ends in \.json, \.csv or \.tsv/,
    );
    await writeFile(join(dir, 'big.json'), `[${'{"type":"movie","name":"x"},'.repeat(100)}1]`);
    expect(await code(readLibraryFile(join(dir, 'big.json'), { maxFileBytes: 1000 }))).toMatch(
      /^SOURCE_TOO_LARGE: .*big\.json: larger than the limit of 1000 bytes/,
    );
    await writeFile(join(dir, 'latin1.csv'), Buffer.from('type,name\nmovie,Am\xe9lie\n', 'latin1'));
    expect(await code(readLibraryFile(join(dir, 'latin1.csv')))).toMatch(/^SOURCE_INVALID: .*not UTF-8 text/);
  });
});
