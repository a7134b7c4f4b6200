import { describe, expect, it } from 'vitest';
import { cacheFindings } from './http-rules.js';

const exchange = (value: string | undefined, status = 200) => ({
  path: '/manifest.json',
  outcome: 'response' as const,
  status,
  headers: new Headers(value === undefined ? {} : { 'cache-control': value }),
  ms: 1,
  bytes: 10,
});

describe('Cache-Control syntax', () => {
  it.each([
    'max-age=300, public',
    'max-age=300, stale-while-revalidate=600, stale-if-error=86400, public',
    'no-store',
    'private, no-cache="set-cookie"',
  ])('passes %s', (value) => {
    expect(cacheFindings(exchange(value), 'data')).toEqual([]);
  });

  it.each([
    ['max-age 300', /"max-age 300" is no directive/],
    ['max-age=300; public', /"max-age=300; public" is no directive/],
    ['maxage=300', /unknown directive "maxage" \(a typo of max-age\?\)/],
    ['max-age=300, pubilc', /unknown directive "pubilc"/],
  ])('warns on %s, naming the part at fault', (value, message) => {
    const [finding, ...rest] = cacheFindings(exchange(value), 'data');
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ check: 'cache', severity: 'warning' });
    expect(finding!.message).toMatch(message);
    expect(finding!.effect).toMatch(/^spec \(RFC 9111/);
  });
});
