import { describe, expect, it } from 'vitest';
import { firstGuideDay, GUIDE_DAY_MS, guideDayWindow, overlapsGuideDay } from './guide-day.js';

const at = (iso: string) => Date.parse(iso);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The days a programme is stored under: from firstGuideDay while they start before its end. */
function storedDays(start: number, stop: number): string[] {
  const days: string[] = [];
  for (let day = firstGuideDay(start); day < stop; day += GUIDE_DAY_MS) days.push(isoDay(day));
  return days;
}

describe('the guide-day rule', () => {
  it('gives the window of a day, both ends included', () => {
    expect(guideDayWindow('2026-03-01')).toEqual({
      start: at('2026-03-01T00:00:00Z'),
      end: at('2026-03-01T23:59:59.999Z'),
    });
  });

  it.each([
    ['2026-02-28T23:30:00Z', '2026-03-01T00:30:00Z', ['2026-02-28', '2026-03-01']],
    ['2026-03-01T12:00:00Z', '2026-03-01T13:00:00Z', ['2026-03-01']],
    ['2026-03-01T23:00:00Z', '2026-03-02T00:00:00Z', ['2026-03-01']],
    ['2026-03-02T00:00:00Z', '2026-03-02T01:00:00Z', ['2026-03-02']],
    ['2026-03-01T23:59:59.999Z', '2026-03-02T00:10:00Z', ['2026-03-02']],
    ['2026-03-01T23:59:59.998Z', '2026-03-02T00:10:00Z', ['2026-03-01', '2026-03-02']],
    ['2026-03-01T00:00:00Z', '2026-03-01T00:00:00.001Z', ['2026-03-01']],
    ['2026-02-28T22:00:00Z', '2026-03-02T02:00:00Z', ['2026-02-28', '2026-03-01', '2026-03-02']],
  ])('stores %s – %s under exactly the days it belongs to', (start, stop, days) => {
    expect(storedDays(at(start), at(stop))).toEqual(days);
    const around = ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03'];
    expect(around.filter((day) => overlapsGuideDay(at(start), at(stop), day))).toEqual(days);
  });
});
