import { describe, expect, it } from 'vitest';
import type { StreamRow } from '../store/index.js';
import { offlineNote, orderByHealth } from './health-view.js';

const at = (time: string) => Date.parse(`2026-11-24T${time}:00Z`);
const row = (url: string, health?: StreamRow['health']): StreamRow => ({ url, ...(health ? { health } : {}) });
const failing = (failures: number, lastOk?: string): StreamRow['health'] => ({
  state: 'dead',
  checkedAt: at('14:00'),
  failures,
  failingSince: at('13:00'),
  ...(lastOk ? { lastOkAt: at(lastOk) } : {}),
});

describe('orderByHealth', () => {
  const rows = [
    row('a', failing(3)),
    row('b', { state: 'ok', checkedAt: at('14:00'), failures: 0, lastOkAt: at('14:00') }),
    row('c', failing(1, '10:00')),
    row('d', failing(2, '12:00')),
    row('e'),
  ];

  it('keeps streams that did not fail (checked or not) in playlist order, then the failing by last success', () => {
    const served = orderByHealth(rows, {});
    expect(served.map((s) => s.row.url)).toEqual(['b', 'e', 'd', 'c', 'a']);
    // Offline: failed failuresBeforeDead (2) checks in a row; since the first of them.
    expect(served.map((s) => s.offlineSince)).toEqual([undefined, undefined, at('13:00'), undefined, at('13:00')]);
  });

  it('drops offline streams with hideDead, and counts failures from failuresBeforeDead', () => {
    expect(orderByHealth(rows, { hideDead: true }).map((s) => s.row.url)).toEqual(['b', 'e', 'c']);
    expect(orderByHealth(rows, { hideDead: true, failuresBeforeDead: 3 }).map((s) => s.row.url)).toEqual([
      'b',
      'e',
      'd',
      'c',
    ]);
  });

  it('changes nothing when no stream has failed', () => {
    const fine = [row('x'), row('y', { state: 'ok', checkedAt: 1, failures: 0 })];
    expect(orderByHealth(fine, { hideDead: true }).map((s) => s.row)).toEqual(fine);
  });
});

describe('offlineNote', () => {
  it('says the time within a day, and the day before that', () => {
    expect(offlineNote(at('14:02'), at('18:00'))).toBe('offline since 14:02 UTC');
    expect(offlineNote(Date.parse('2026-11-23T09:05:00Z'), at('18:00'))).toBe('offline since 23 Nov 09:05 UTC');
  });
});
