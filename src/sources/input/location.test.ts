import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import { parseLocation, redactLocation } from './location.js';

describe('parseLocation', () => {
  it('tells paths, file URLs and http(s) URLs apart', () => {
    expect(parseLocation('/data/list.m3u')).toEqual({ kind: 'file', path: '/data/list.m3u' });
    expect(parseLocation('relative/guide.xml')).toEqual({ kind: 'file', path: 'relative/guide.xml' });
    expect(parseLocation('C:\\guide.xml')).toEqual({ kind: 'file', path: 'C:\\guide.xml' });
    expect(parseLocation('file:///data/guide%20x.xml')).toEqual({ kind: 'file', path: '/data/guide x.xml' });
    const parsed = parseLocation('HTTPS://Example.com/a.m3u');
    expect(parsed.kind === 'url' && parsed.url.href).toBe('https://example.com/a.m3u');
  });

  it('refuses other schemes with SOURCE_FORBIDDEN, naming the redacted location', () => {
    let caught: unknown;
    try {
      parseLocation('ftp://user:secret@files.example/list.m3u');
    } catch (error) {
      caught = error;
    }
    expect(isMarqueeError(caught, 'SOURCE_FORBIDDEN')).toBe(true);
    expect((caught as Error).message).toBe(
      'only http(s) URLs and file paths are read, not ftp: ftp://***@files.example/list.m3u',
    );
  });
});

describe('redactLocation', () => {
  it('hides user info and secret query values, keeping the rest as written', () => {
    expect(redactLocation('http://me:pw@tv.example:8080/get.php?username=me&password=pw&type=m3u_plus&output=ts')).toBe(
      'http://***@tv.example:8080/get.php?username=***&password=***&type=m3u_plus&output=ts',
    );
    expect(redactLocation('https://cdn.example/guide.xml?X-Amz-Signature=abc&api_key=k&a=b%20c#frag')).toBe(
      'https://cdn.example/guide.xml?X-Amz-Signature=***&api_key=***&a=b%20c',
    );
    expect(redactLocation('https://cdn.example/guide.xml')).toBe('https://cdn.example/guide.xml');
  });

  it('redacts even a URL it cannot parse, and leaves paths alone', () => {
    expect(redactLocation('http://u:p@[bad/x?token=t')).toBe('http://***@[bad/x?token=***');
    expect(redactLocation('/srv/tv/list.m3u')).toBe('/srv/tv/list.m3u');
  });
});
