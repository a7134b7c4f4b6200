import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import { createXmltvTimeParser, formatXmltvTime, parseXmltvTime } from './time.js';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h, mi, s);

describe('parseXmltvTime', () => {
  it.each([
    ['20240301203000 +0100', utc(2024, 3, 1, 19, 30)],
    ['20240301203000 -0530', utc(2024, 3, 2, 2, 0)],
    ['20240301203000 +0000', utc(2024, 3, 1, 20, 30)],
    ['20240301203000+0100', utc(2024, 3, 1, 19, 30)],
    ['20240301203000 +01:00', utc(2024, 3, 1, 19, 30)],
    ['20240301203000+05:45', utc(2024, 3, 1, 14, 45)],
    ['20240301203000 +01', utc(2024, 3, 1, 19, 30)],
    ['20240301203000 Z', utc(2024, 3, 1, 20, 30)],
    ['20240301203000Z', utc(2024, 3, 1, 20, 30)],
    ['20240301203000 GMT', utc(2024, 3, 1, 20, 30)],
    ['20240301203000 utc', utc(2024, 3, 1, 20, 30)],
    ['20240301203000 GMT+0200', utc(2024, 3, 1, 18, 30)],
    ['20240301203000', utc(2024, 3, 1, 20, 30)],
    ['202403012030', utc(2024, 3, 1, 20, 30)],
    ['202403012030 +0100', utc(2024, 3, 1, 19, 30)],
    ['2024030120', utc(2024, 3, 1, 20)],
    ['20240301', utc(2024, 3, 1)],
    ['202403', utc(2024, 3, 1)],
    ['2024', utc(2024, 1, 1)],
    ['  20240301203000 +0100  ', utc(2024, 3, 1, 19, 30)],
    ['20240229120000 +0000', utc(2024, 2, 29, 12)],
    ['20240301240000 +0000', utc(2024, 3, 2)],
    ['20231231233000 -0100', utc(2024, 1, 1, 0, 30)],
  ])('reads %j', (text, expected) => {
    expect(parseXmltvTime(text)).toBe(expected);
  });

  it('applies the default offset only to times written without one', () => {
    expect(parseXmltvTime('20240301203000', 60)).toBe(utc(2024, 3, 1, 19, 30));
    expect(parseXmltvTime('202403012030', -120)).toBe(utc(2024, 3, 1, 22, 30));
    expect(parseXmltvTime('20240301203000 +0000', 60)).toBe(utc(2024, 3, 1, 20, 30));
    expect(parseXmltvTime('20240301203000 Z', 60)).toBe(utc(2024, 3, 1, 20, 30));
  });

  it.each([
    '',
    'tomorrow',
    '2024-03-01T20:30:00Z',
    '2024030120300',
    '202403012030000',
    '20241301203000 +0000',
    '20240230120000 +0000',
    '20230229120000 +0000',
    '20240301253000 +0000',
    '20240301206000 +0000',
    '20240301240100 +0000',
    '20240301203000 +2500',
    '20240301203000 +0160',
    '20240301203000 +1',
    '20240301203000 +01:6',
    '20240301203000 CET',
    '20240301203000 +0100 junk',
    '20240301203000 ++0100',
    '00000101000000',
  ])('refuses %j', (text) => {
    expect(parseXmltvTime(text)).toBeUndefined();
  });
});

describe('createXmltvTimeParser', () => {
  it('adds the operator shift, fractional and negative, to every time', () => {
    expect(createXmltvTimeParser({ shiftHours: 2 })('20240301120000 +0000')).toBe(utc(2024, 3, 1, 14));
    expect(createXmltvTimeParser({ shiftHours: -1.5 })('20240301120000 +0000')).toBe(utc(2024, 3, 1, 10, 30));
    expect(createXmltvTimeParser({ shiftHours: 0.25, defaultOffsetMinutes: 60 })('20240301120000')).toBe(
      utc(2024, 3, 1, 11, 15),
    );
    expect(createXmltvTimeParser({ shiftHours: 3 })('garbage')).toBeUndefined();
  });

  it('gives what parsing gives for every text, remembered or not (past the table size too)', () => {
    const parse = createXmltvTimeParser({ shiftHours: 1, defaultOffsetMinutes: 30 });
    const texts: string[] = [];
    for (let i = 0; i < 6000; i++) {
      const minute = String(i % 60).padStart(2, '0');
      const hour = String(Math.floor(i / 60) % 24).padStart(2, '0');
      const day = String(1 + (Math.floor(i / 1440) % 28)).padStart(2, '0');
      texts.push(`202403${day}${hour}${minute}00 +0100`, `202403${day}${hour}${minute}00`, `2024 bad ${i % 7}`);
    }
    for (const round of [0, 1]) {
      for (let i = 0; i < texts.length; i += round === 0 ? 1 : 7) {
        const text = texts[i]!;
        const plain = parseXmltvTime(text, 30);
        expect(parse(text)).toBe(plain === undefined ? undefined : plain + 3_600_000);
      }
    }
  });

  it('refuses shifts and offsets an operator cannot mean', () => {
    for (const options of [
      { shiftHours: Number.NaN },
      { shiftHours: 100 },
      { defaultOffsetMinutes: 30.5 },
      { defaultOffsetMinutes: 2000 },
    ]) {
      let error: unknown;
      try {
        createXmltvTimeParser(options);
      } catch (e) {
        error = e;
      }
      expect(isMarqueeError(error, 'INVALID_SETTINGS')).toBe(true);
    }
  });
});

describe('formatXmltvTime', () => {
  it('writes a UTC time to the second, which parseXmltvTime reads back', () => {
    expect(formatXmltvTime(Date.UTC(2026, 0, 1, 12))).toBe('20260101120000 +0000');
    const at = Date.UTC(2026, 10, 29, 5, 7, 9);
    expect(formatXmltvTime(at)).toBe('20261129050709 +0000');
    expect(parseXmltvTime(formatXmltvTime(at))).toBe(at);
    // Milliseconds are not written: XMLTV counts whole seconds.
    expect(parseXmltvTime(formatXmltvTime(at + 999))).toBe(at);
  });
});
