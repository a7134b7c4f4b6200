import { describe, expect, it } from 'vitest';
import { PATH_LIMITS } from '../protocol/index.js';
import { createTokenCodec, generateKeyRing, rotateKeyRing } from '../server/index.js';
import { readHostedSources, setKeySecret, sourceSetKey, sourcesToConfig } from './sources.js';

describe('hosted sources', () => {
  it('normalises URLs so equal sources make one set key', () => {
    const a = readHostedSources({ playlist: ' HTTPS://TV.Example/list.m3u#top ' }).sources!;
    const b = readHostedSources({ playlist: 'https://tv.example/list.m3u' }).sources!;
    expect(a).toEqual(b);
    expect(sourceSetKey(a)).toBe(sourceSetKey(b));
    expect(sourceSetKey(a)).not.toBe(sourceSetKey({ playlist: 'https://tv.example/other.m3u' }));
  });

  it("keys the set hash with the ring's oldest key: the same for every replica and after a rotation, unguessable without it", () => {
    const sources = { xtreamUrl: 'http://panel.example:8080/', xtreamUser: 'me', xtreamPass: 'pw' };
    const ring = generateKeyRing('k1');
    const secret = setKeySecret(ring);
    const key = sourceSetKey(sources, secret);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(sourceSetKey(sources, setKeySecret(rotateKeyRing(ring, 'k2')))).toBe(key);
    expect(sourceSetKey(sources, setKeySecret(generateKeyRing('k1')))).not.toBe(key);
    expect(sourceSetKey(sources)).not.toBe(key);
  });

  it('takes an Xtream account with the credentials in its URL', () => {
    const { sources } = readHostedSources({ xtreamUrl: 'http://me:pw@panel.example:8080' });
    expect(sources).toMatchObject({ xtreamUser: 'me', xtreamPass: 'pw' });
  });

  it('names each problem by its field, never repeating a value', () => {
    const { problems } = readHostedSources({ playlist: 'ftp://x', xtreamUser: 'me', xtreamPass: 'secret-pass' });
    expect(problems.map((p) => p.key)).toEqual(['playlist', 'xtreamUrl']);
    expect(JSON.stringify(problems)).not.toContain('secret-pass');
    expect(readHostedSources({ epg: 'https://tv.example/guide.xml' }).problems[0]?.key).toBe('playlist');
  });

  it('keeps the longest accepted sources within the path limit of a token', () => {
    const url = (c: string) => `https://tv.example/${c.repeat(1_500 - 19)}`;
    const { sources } = readHostedSources({
      playlist: url('p'),
      epg: url('e'),
      xtreamUrl: url('x'),
      xtreamUser: 'u'.repeat(256),
      xtreamPass: 'w'.repeat(256),
    });
    expect(sources).toBeDefined();
    const token = createTokenCodec(generateKeyRing(), 'org.marquee.hosted').encode(sourcesToConfig(sources!));
    expect(encodeURIComponent(token).length).toBeLessThanOrEqual(PATH_LIMITS.maxConfigLength);
    expect(readHostedSources({ playlist: url('pp') }).problems[0]?.message).toMatch(/longer than/);
  });
});
