import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import { apiUrl, parseXtreamAccount, streamUrl } from './account.js';

describe('parseXtreamAccount', () => {
  it('reads the three shapes providers hand out as one account', () => {
    const shapes = [
      'http://me%40home:p%26ss@tv.example:8080',
      'http://tv.example:8080/get.php?username=me%40home&password=p%26ss&type=m3u_plus&output=ts',
      'http://tv.example:8080/player_api.php?username=me%40home&password=p%26ss',
    ].map((url) => parseXtreamAccount(url));
    for (const a of shapes) {
      expect(a).toMatchObject({
        base: 'http://tv.example:8080',
        username: 'me@home',
        password: 'p&ss',
        host: 'tv.example:8080',
      });
      expect(a.location).toBe(shapes[0]!.location);
      expect(a.id).toBe(shapes[0]!.id);
    }
    expect(shapes[0]!.label).toBe('me…@tv.example:8080');
  });

  it('keeps a path prefix, takes separate credentials, and keeps the id through a new password', () => {
    const a = parseXtreamAccount('https://tv.example/panel/get.php', { username: 'bob', password: 'one' });
    expect(a.base).toBe('https://tv.example/panel');
    expect(a.label).toBe('b…@tv.example/panel');
    expect(parseXtreamAccount('https://bob:two@tv.example/panel').id).toBe(a.id);
    expect(parseXtreamAccount('https://bob:two@tv.example/other').id).not.toBe(a.id);
    expect(apiUrl(a, 'xmltv.php')).toBe('https://tv.example/panel/xmltv.php?username=bob&password=one');
    expect(streamUrl(a, 'movie', '42', 'mkv')).toBe('https://tv.example/panel/movie/bob/one/42.mkv');
  });

  it('refuses a URL without credentials or not http(s), without repeating a secret', () => {
    for (const url of ['http://tv.example/get.php?username=carol', 'ftp://carol:hunter2@tv.example/', 'not a url']) {
      try {
        parseXtreamAccount(url);
        expect.unreachable(url);
      } catch (error) {
        expect(isMarqueeError(error, 'INVALID_SETTINGS')).toBe(true);
        expect((error as Error).message).not.toMatch(/carol|hunter2/);
      }
    }
  });
});
