import { describe, expect, it } from 'vitest';
import { checkedFile, exportFilePath } from './file-path.js';

const catalog = (extra: Array<readonly [string, string]>) => ({ resource: 'catalog', type: 'movie', id: 'top', extra });

describe('exportFilePath', () => {
  it('is the decoded request path, as a decoding static server looks it up', () => {
    expect(exportFilePath(catalog([['genre', 'Rock & Roll']]))).toEqual({
      file: 'catalog/movie/top/genre=Rock & Roll.json',
    });
    expect(exportFilePath({ resource: 'meta', type: 'tv', id: 'mq-tv:bbc', extra: [] })).toEqual({
      file: 'meta/tv/mq-tv:bbc.json',
    });
    expect(
      exportFilePath(
        catalog([
          ['skip', '100'],
          ['genre', 'Comédie 100%'],
        ]),
      ),
    ).toEqual({
      file: 'catalog/movie/top/skip=100&genre=Comédie 100%.json',
    });
  });

  it('turns "/" in a value into folders, and ".." only matters as a whole segment', () => {
    expect(exportFilePath(catalog([['genre', 'AC/DC']]))).toEqual({ file: 'catalog/movie/top/genre=AC/DC.json' });
    expect(exportFilePath({ resource: 'meta', type: 'movie', id: '..', extra: [] })).toEqual({
      file: 'meta/movie/...json',
    });
    expect(exportFilePath(catalog([['genre', 'x/../../y']]))).toEqual({ refused: 'it makes a ".." path segment' });
    expect(exportFilePath({ resource: 'meta', type: 'movie', id: 'a/./b', extra: [] })).toEqual({
      refused: 'it makes a "." path segment',
    });
  });

  it('refuses absolute paths, double slashes, NUL and over-long names', () => {
    const empty = { refused: 'it makes an empty path segment (a leading, trailing or double "/")' };
    expect(exportFilePath({ resource: 'meta', type: 'movie', id: '/etc/passwd', extra: [] })).toEqual(empty);
    expect(exportFilePath({ resource: 'meta', type: 'movie', id: 'a//b', extra: [] })).toEqual(empty);
    expect(exportFilePath({ resource: 'meta', type: 'movie', id: 'a\0b', extra: [] })).toEqual({
      refused: 'it contains a NUL character',
    });
    expect(exportFilePath({ resource: 'meta', type: 'movie', id: 'é'.repeat(128), extra: [] })).toEqual({
      refused: 'a file name would be over 255 bytes',
    });
  });

  it('refuses names Windows cannot hold only when writing on Windows', () => {
    expect(checkedFile('meta/movie/tt1:1:2.json', false)).toEqual({ file: 'meta/movie/tt1:1:2.json' });
    expect(checkedFile('meta/movie/tt1:1:2.json', true)).toEqual({
      refused: '"tt1:1:2.json" is not a valid Windows file name; export on Linux or macOS',
    });
    expect(checkedFile('meta/movie/dots./x.json', true)).toMatchObject({ refused: expect.stringContaining('"dots."') });
  });
});
