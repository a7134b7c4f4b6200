import { describe, expect, it } from 'vitest';
import { scanSnapshot } from './live-snapshot.js';

const LABEL = 'xtream me…@tv.example';

/** A snapshot's text as JSON.stringify writes it, or spaced out as a hand-edited copy might be. */
function text(streams: unknown[], spaced = false, extra: Record<string, unknown> = {}): string {
  const snapshot = {
    format: 'marquee-xtream-live/1',
    categories: { '1': 'News [HD]', '2': 'Sport {"streams": [1]}' },
    formats: ['m3u8', 'ts'],
    warnings: ['a warning with "streams": [ and ] in it'],
    ...extra,
    streams,
  };
  return spaced ? JSON.stringify(snapshot, null, 2) : JSON.stringify(snapshot);
}

const TRICKY = [
  { i: '1', n: 'Plain', c: '1' },
  { i: '2', n: 'Quote " and backslash \\', c: '2' },
  { i: '3', n: 'Ends in a backslash \\\\', e: 'x.tv' },
  { i: '4', n: 'Brackets ] } [ { and, commas', l: 'http://logo.example/a,b].png' },
  { i: '5', n: 'Unicode ☂ \u2028 \u0000 "\\"', a: 3 },
  { i: '6', n: 'Nested', x: { deep: [1, [2, { streams: [] }]], s: '"]' } },
];

describe('scanSnapshot', () => {
  it('yields every stream as JSON.parse reads it, whatever its strings hold, compact or spaced', () => {
    for (const spaced of [false, true]) {
      const t = text(TRICKY, spaced);
      const scanned = scanSnapshot(t, LABEL);
      expect([...scanned.streams]).toEqual(JSON.parse(t).streams);
      const { streams: _, ...rest } = JSON.parse(t);
      expect({ ...scanned, streams: undefined }).toEqual({ ...rest, streams: undefined });
    }
  });

  it('reads an empty list and a list of one, and can be iterated twice', () => {
    expect([...scanSnapshot(text([]), LABEL).streams]).toEqual([]);
    const one = scanSnapshot(text([{ i: '9', n: 'One' }], true), LABEL);
    expect([...one.streams]).toEqual([{ i: '9', n: 'One' }]);
    expect([...one.streams]).toEqual([{ i: '9', n: 'One' }]);
  });

  it('takes the top-level streams, not a member of that name deeper down', () => {
    const t = text([{ i: '1', n: 'Top' }], false, { nested: { streams: [{ i: 'no', n: 'Deeper' }] } });
    expect([...scanSnapshot(t, LABEL).streams]).toEqual([{ i: '1', n: 'Top' }]);
  });

  it('refuses text that is not JSON, naming the source', () => {
    const t = text(TRICKY);
    for (const broken of [t.slice(0, -1), t.slice(0, t.length / 2), `${t}x`, '{"format":', '']) {
      expect(() => scanSnapshot(broken, LABEL)).toThrow(`${LABEL}: the copy of its live streams is not JSON`);
    }
  });

  it('refuses JSON inside the streams list that does not parse, as it is reached', () => {
    const t = text([{ i: '1', n: 'Fine' }]).replace('[{"i":"1"', '[{"i":"1"} {"j":2');
    const scanned = scanSnapshot(t, LABEL);
    expect(() => [...scanned.streams]).toThrow(`${LABEL}: the copy of its live streams is not JSON`);
  });

  it('refuses JSON that is not a Marquee Xtream snapshot', () => {
    for (const other of [
      '[]',
      '{"streams": []}',
      JSON.stringify({ format: 'marquee-xtream-live/2', streams: [] }),
      JSON.stringify({ format: 'marquee-xtream-live/1', streams: {} }),
      JSON.stringify({ format: 'marquee-xtream-live/1' }),
    ]) {
      expect(() => scanSnapshot(other, LABEL)).toThrow(
        `${LABEL}: the copy of its live streams is not a Marquee Xtream snapshot`,
      );
    }
  });
});
