import { describe, expect, it } from 'vitest';
import { type CatchupPlan, catchupAvailable, catchupPlan, catchupUrl } from './catchup.js';

const T = (iso: string) => Date.parse(iso);
/** The `$` of the `${…}` placeholder forms. */
const D = '$';
const START = T('2026-03-01T20:00:00Z');
const STOP = T('2026-03-01T21:30:00Z');
const NOW = T('2026-03-01T22:00:00Z');

function plan(url: string, attributes: Record<string, string>): CatchupPlan {
  const result = catchupPlan(url, attributes);
  expect(result.problems).toEqual([]);
  return result.plan!;
}

describe('catchupPlan and catchupUrl, mode by mode', () => {
  it('default: the catch-up source is the URL, with {utc}, {lutc}, {duration}, {offset} and $-forms', () => {
    const p = plan('http://tv.example/live/7.m3u8', {
      catchup: 'default',
      'catchup-days': '3',
      'catchup-source': `http://tv.example/arch/7.m3u8?utc={utc}&lutc={lutc}&s=${D}{start}&e=${D}{end}&d={duration}&o={offset}`,
    });
    expect(p.archiveMs).toBe(3 * 86_400_000);
    expect(catchupUrl(p, START, STOP, NOW)).toBe(
      'http://tv.example/arch/7.m3u8?utc=1772395200&lutc=1772402400&s=1772395200&e=1772400600&d=5400&o=7200',
    );
  });

  it('default with a query only is appended, as players read it', () => {
    const p = plan('http://tv.example/7.ts?token=a', {
      catchup: 'default',
      'catchup-source': '&cutv={Y}-{m}-{d}T{H}:{M}:{S}',
    });
    expect(catchupUrl(p, START, STOP, NOW)).toBe('http://tv.example/7.ts?token=a&cutv=2026-03-01T20:00:00');
  });

  it('append: the source goes after the stream URL; {start} and {end} and format strings', () => {
    const p = plan('http://tv.example/7.m3u8', {
      catchup: 'append',
      'catchup-source': `?start={utc:YmdHM}&end=${D}{end:Ymd-H-M}&b={start}&x={end}`,
    });
    expect(catchupUrl(p, START, STOP, NOW)).toBe(
      'http://tv.example/7.m3u8?start=202603012000&end=20260301-21-30&b=1772395200&x=1772400600',
    );
  });

  it('shift: utc and lutc appended with ? or &', () => {
    expect(catchupUrl(plan('http://tv.example/7.m3u8', { catchup: 'shift' }), START, STOP, NOW)).toBe(
      'http://tv.example/7.m3u8?utc=1772395200&lutc=1772402400',
    );
    expect(catchupUrl(plan('http://tv.example/7.m3u8?t=1', { catchup: 'shift' }), START, STOP, NOW)).toBe(
      'http://tv.example/7.m3u8?t=1&utc=1772395200&lutc=1772402400',
    );
  });

  it('flussonic: archive URLs built from the live HLS and MPEG-TS ones, the query kept', () => {
    expect(
      catchupUrl(plan('http://fs.example:8888/325/mono.m3u8?token=secret', { catchup: 'flussonic' }), START, STOP, NOW),
    ).toBe('http://fs.example:8888/325/mono-1772395200-5400.m3u8?token=secret');
    expect(catchupUrl(plan('http://fs.example/ch1/index.m3u8', { catchup: 'fs' }), START, STOP, NOW)).toBe(
      'http://fs.example/ch1/index-1772395200-5400.m3u8',
    );
    expect(catchupUrl(plan('http://fs.example/ch1/mpegts', { catchup: 'flussonic-ts' }), START, STOP, NOW)).toBe(
      'http://fs.example/ch1/timeshift_abs-1772395200.ts',
    );
  });

  it('xc: the Xtream Codes timeshift URL from the live one, duration in minutes', () => {
    expect(
      catchupUrl(plan('http://xc.example:8080/live/al%40x/p%2Fw/1477.ts', { catchup: 'xc' }), START, STOP, NOW),
    ).toBe('http://xc.example:8080/timeshift/al%40x/p%2Fw/90/2026-03-01:20-00/1477.ts');
    expect(catchupUrl(plan('http://xc.example/al/pw/1477.m3u8', { catchup: 'xc' }), START, STOP, NOW)).toBe(
      'http://xc.example/timeshift/al/pw/90/2026-03-01:20-00/1477.m3u8',
    );
  });

  it('catchup-correction moves the times written, not now', () => {
    const p = plan('http://tv.example/7.ts', {
      catchup: 'append',
      'catchup-source': '?utc={utc}&n={lutc}',
      'catchup-correction': '-1.5',
    });
    expect(catchupUrl(p, START, STOP, NOW)).toBe('http://tv.example/7.ts?utc=1772389800&n=1772402400');
  });

  it('a provider in Europe/London across the October change: local wall times, exact', () => {
    const source = 'http://xc.example/timeshift/u/p/{duration:60}/{Y}-{m}-{d}:{H}-{M}/5.ts';
    const p = plan('http://xc.example/live/u/p/5.ts', {
      catchup: 'default',
      'catchup-source': source,
      'catchup-timezone': 'Europe/London',
    });
    // 25 October 2026, 01:00 BST → 01:00 GMT: 00:30Z and 01:30Z are both 01:30 on the clock.
    const now = T('2026-10-26T12:00:00Z');
    expect(catchupUrl(p, T('2026-10-24T23:00:00Z'), T('2026-10-25T00:00:00Z'), now)).toBe(
      'http://xc.example/timeshift/u/p/60/2026-10-25:00-00/5.ts',
    );
    expect(catchupUrl(p, T('2026-10-25T00:30:00Z'), T('2026-10-25T01:00:00Z'), now)).toBe(
      'http://xc.example/timeshift/u/p/30/2026-10-25:01-30/5.ts',
    );
    expect(catchupUrl(p, T('2026-10-25T01:30:00Z'), T('2026-10-25T02:45:00Z'), now)).toBe(
      'http://xc.example/timeshift/u/p/75/2026-10-25:01-30/5.ts',
    );
    expect(catchupUrl(p, T('2026-10-25T12:00:00Z'), T('2026-10-25T13:00:00Z'), now)).toBe(
      'http://xc.example/timeshift/u/p/60/2026-10-25:12-00/5.ts',
    );
    // In summer time, an hour ahead of UTC.
    expect(catchupUrl(p, T('2026-07-01T19:00:00Z'), T('2026-07-01T20:00:00Z'), now)).toBe(
      'http://xc.example/timeshift/u/p/60/2026-07-01:20-00/5.ts',
    );
  });

  it('a duration that is not whole minutes is rounded up, so the end is never cut', () => {
    const p = plan('http://xc.example/live/u/p/5.ts', { catchup: 'xc' });
    expect(catchupUrl(p, START, START + 90 * 60_000 + 20_000, NOW)).toContain('/91/');
  });
});

describe('what has catch-up', () => {
  it('programmes that started within the window, the one on air included', () => {
    const p = plan('http://tv.example/7.m3u8', { catchup: 'shift', 'catchup-days': '7' });
    const now = T('2026-03-10T12:00:00Z');
    const hour = 3_600_000;
    expect(catchupAvailable(p, now - 2 * hour, now - hour, now)).toBe(true); // aired 2 hours ago
    expect(catchupAvailable(p, now - 10 * 60_000, now + 20 * 60_000, now)).toBe(true); // on air
    expect(catchupAvailable(p, now + 60_000, now + hour, now)).toBe(false); // not started
    expect(catchupAvailable(p, now - 10 * 24 * hour, now - 10 * 24 * hour + hour, now)).toBe(false); // 10 days ago
    expect(catchupAvailable(p, now - 7 * 24 * hour + 60_000, now - 6 * 24 * hour, now)).toBe(true); // just inside
  });

  it('the days default to 5; more than 60 are offered as 60, with a note', () => {
    expect(catchupPlan('http://tv.example/7.m3u8', { catchup: 'shift' }).plan?.archiveMs).toBe(5 * 86_400_000);
    const long = catchupPlan('http://tv.example/7.m3u8', { catchup: 'shift', 'catchup-days': '365' });
    expect(long.plan?.archiveMs).toBe(60 * 86_400_000);
    expect(long.problems[0]).toMatch(/more than 60/);
  });

  it('no mode is no catch-up, quietly; a bad one says why', () => {
    expect(catchupPlan('http://tv.example/7.m3u8', { 'catchup-days': '3' })).toEqual({ problems: [] });
    const cases: [Record<string, string>, RegExp][] = [
      [{ catchup: 'vod' }, /mode "vod" is not supported/],
      [{ catchup: 'default' }, /needs a catchup-source/],
      [{ catchup: 'append' }, /needs a catchup-source/],
      [{ catchup: 'shift', 'catchup-days': 'seven' }, /catchup-days "seven"/],
      [{ catchup: 'append', 'catchup-source': '?id={catchup-id}' }, /placeholder \{catchup-id\}/],
      [{ catchup: 'append', 'catchup-source': '?d={duration:1.5}' }, /whole number/],
      [{ catchup: 'xc' }, /not an Xtream Codes/],
      [{ catchup: 'flussonic' }, /not a Flussonic one/],
    ];
    for (const [attributes, problem] of cases) {
      const result = catchupPlan('http://tv.example/channel/seven.mp4', attributes);
      expect(result.plan, JSON.stringify(attributes)).toBeUndefined();
      expect(result.problems.join('; ')).toMatch(problem);
    }
  });

  it('a zone Node does not know is noted, and the times are written in UTC', () => {
    const result = catchupPlan('http://tv.example/7.m3u8', { catchup: 'shift', 'catchup-timezone': 'Mars/Olympus' });
    expect(result.plan?.timezone).toBeUndefined();
    expect(result.problems[0]).toMatch(/Mars\/Olympus/);
  });
});
