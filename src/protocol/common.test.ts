import { describe, expect, test } from 'vitest';
import { isAbsoluteUrl, isIsoDay, isRfc3339, SEMVER } from './common.js';

describe('isRfc3339', () => {
  test.each([
    '2026-11-22T18:00:00Z',
    '2026-11-22t18:00:00z',
    '2026-11-22T18:00:00.123Z',
    '2026-11-22T18:00:00+01:00',
    '2024-02-29T00:00:00Z',
  ])('accepts %s', (value) => expect(isRfc3339(value)).toBe(true));

  test.each([
    '2020-01-01',
    '2026-11-22 18:00:00Z',
    '2026-11-22T18:00:00',
    '2026-11-22T18:00Z',
    '1700000000',
    '2026-13-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:00:00+24:00',
  ])('rejects %s (the client fails the page on it)', (value) => expect(isRfc3339(value)).toBe(false));
});

describe('isAbsoluteUrl', () => {
  test.each([
    'https://example.org/a.png',
    'http://127.0.0.1:8080/x',
    'data:image/png;base64,AAAA',
    'stremio:///detail/movie/x',
  ])('accepts %s', (value) => expect(isAbsoluteUrl(value)).toBe(true));
  test.each(['/poster.png', 'poster.png', '//example.org/a.png', '', 'https://'])('rejects %s', (value) =>
    expect(isAbsoluteUrl(value)).toBe(false),
  );
});

describe('isIsoDay and SEMVER', () => {
  test('a real calendar day in YYYY-MM-DD form', () => {
    expect(isIsoDay('2026-01-31')).toBe(true);
    expect(isIsoDay('2026-02-30')).toBe(false);
    expect(isIsoDay('2026-1-31')).toBe(false);
  });
  test('strict semver, as the client requires', () => {
    for (const ok of ['1.0.0', '0.0.1', '1.2.3-beta.1', '1.2.3+build.5']) expect(SEMVER.test(ok)).toBe(true);
    for (const bad of ['1.0', '1', 'v1.0.0', '01.0.0', '1.0.0-']) expect(SEMVER.test(bad)).toBe(false);
  });
});

describe('isRfc3339 agrees with Date.parse on what it accepts', () => {
  test('every accepted value parses to the same instant its fields say', () => {
    for (const value of ['2024-02-29T23:59:59.999Z', '2000-02-29T00:00:00+05:30', '1999-12-31T23:00:00-01:00']) {
      expect(isRfc3339(value)).toBe(true);
      expect(Number.isNaN(Date.parse(value))).toBe(false);
    }
    expect(isRfc3339('1900-02-29T00:00:00Z')).toBe(false);
    expect(isRfc3339('2026-01-01T00:00:60Z')).toBe(false);
  });
});

describe('isAbsoluteUrl, fast path', () => {
  /**
   * The answer without the fast path: a scheme, then `new URL` (not URL.canParse, which Node 20
   * answers wrongly once optimised, for a host with a Latin-1 character: see the test below).
   */
  const plain = (value: string) => {
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return false;
    try {
      new URL(value);
      return true;
    } catch {
      return false;
    }
  };
  const pick = <T>(list: readonly T[], r: () => number) => list[Math.floor(r() * list.length)]!;

  /** Roughly the strings the fast path may take: an http(s) scheme and a host of letters first. */
  const CANDIDATE = /^https?:\/\/[A-Za-z]/;

  test('never accepts what URL.canParse refuses, on 50,000 generated URLs around its edges', () => {
    let seed = 12345;
    const r = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const schemes = [
      'http://',
      'https://',
      'http://',
      'https://',
      'HTTP://',
      'http:/',
      'http:',
      'ftp://',
      'h ttp://',
      '',
    ];
    const labels = [
      'a',
      'img',
      'example',
      'com',
      'tv',
      'a-b',
      '1',
      '12',
      '256',
      '0x1f',
      '-',
      'xn--e1a',
      '_x',
      'é',
      '',
      'a b',
    ];
    const ports = ['', '', ':80', ':0', ':65535', ':65536', ':99999', ':', ':x'];
    const path = [
      '',
      '/',
      '/a',
      '/a.jpg',
      '/%20',
      '/%zz',
      '/ ',
      '/?q=1',
      '/#x',
      '/\\',
      '/[1]',
      '/|',
      '/é',
      "/a'b",
      '/a"b',
      '//x',
    ];
    let accepted = 0;
    for (let i = 0; i < 50_000; i++) {
      const host = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(labels, r)).join('.');
      const url = pick(schemes, r) + host + pick(ports, r) + pick(path, r) + (r() < 0.3 ? pick(path, r) : '');
      // Where the fast path says yes, URL.canParse must too; elsewhere isAbsoluteUrl is plain().
      if (isAbsoluteUrl(url) && !plain(url)) expect.fail(`${url}: the fast path accepts what URL.canParse refuses`);
      if (CANDIDATE.test(url) && isAbsoluteUrl(url)) accepted++;
    }
    // Enough of them were taken to mean something.
    expect(accepted).toBeGreaterThan(3_000);
  });

  test('accepts a host with Latin-1 characters however hot it runs (Node 20: not URL.canParse)', () => {
    const valid = ['https://españa.es/logo.png', 'https://é.com/', 'http://télé.fr:8080/a?b=ñ', 'https://.é:80/ /é'];
    const invalid = ['https://é .com/', 'http://[é]/'];
    for (const url of [...valid, ...invalid]) expect(isAbsoluteUrl(url), url).toBe(plain(url));
    // Long enough for V8 to optimise the callers, where URL.canParse went wrong.
    let refused = 0;
    let accepted = 0;
    for (let i = 0; i < 200_000; i++) {
      if (!isAbsoluteUrl(valid[i % valid.length]!)) refused++;
      if (isAbsoluteUrl(invalid[i % invalid.length]!)) accepted++;
    }
    expect([refused, accepted]).toEqual([0, 0]);
  });
});
