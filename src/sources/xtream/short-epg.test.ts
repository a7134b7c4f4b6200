import { describe, expect, it } from 'vitest';
import { instant, zonedToUtc } from './short-epg.js';

describe('short guide times', () => {
  it('prefers the UTC timestamp; reads the written time in the panel zone, across a DST change', () => {
    expect(instant('1700000000', '2023-11-14 23:13:20', 'Europe/Berlin')).toBe(1_700_000_000_000);
    expect(instant('', '2023-11-14 23:13:20', 'Europe/Berlin')).toBe(Date.UTC(2023, 10, 14, 22, 13, 20));
    expect(instant(null, '2024-07-01 12:00:00', 'America/New_York')).toBe(Date.UTC(2024, 6, 1, 16));
    expect(instant(undefined, '2024-01-01 12:00', 'America/New_York')).toBe(Date.UTC(2024, 0, 1, 17));
    expect(instant(undefined, 'soon', 'UTC')).toBeUndefined();
    // 2024-03-31 03:30 in Berlin is summer time (UTC+2).
    expect(zonedToUtc(Date.UTC(2024, 2, 31, 3, 30), 'Europe/Berlin')).toBe(Date.UTC(2024, 2, 31, 1, 30));
  });
});
