import { afterEach, describe, expect, it, vi } from 'vitest';
import { awayFromHourTurn, untilHourTurn } from './helpers/clock.js';

describe('awayFromHourTurn: before-and-after comparisons kept within one hour', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says how long until the next turn of a UTC hour', () => {
    expect(untilHourTurn(Date.UTC(2026, 10, 29, 4, 59))).toBe(60_000);
    expect(untilHourTurn(Date.UTC(2026, 10, 29, 5, 0))).toBe(3_600_000);
    expect(untilHourTurn(Date.UTC(2026, 10, 29, 23, 59, 59, 500))).toBe(500);
  });

  it('goes on at once far from a turn, and waits past it when near', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 10, 29, 4, 30));
    let done = false;
    void awayFromHourTurn(90_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);

    vi.setSystemTime(Date.UTC(2026, 10, 29, 4, 59, 0));
    done = false;
    void awayFromHourTurn(90_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(done).toBe(true);
    expect(untilHourTurn()).toBeGreaterThan(3_500_000);
  });

  it('refuses a span of an hour or more, which no wait can keep clear of a turn', async () => {
    await expect(awayFromHourTurn(3_600_000)).rejects.toThrow(/not under an hour/);
  });
});
