/**
 * The refresh schedule with fake timers (jitter, backoff, no overlap, stop), and the live-TV job
 * against a real store: a failed refresh keeps the last good data served and says why.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRefresher, type LiveTvImportResult, liveTvRefreshJob } from '../src/livetv/index.js';
import { FIXTURE_OPTIONS, fixture, type TempStore, tempStore } from './fixtures/livetv/setup.js';

const HOUR = 3_600_000;

describe('createRefresher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every interval, moved by the jitter', async () => {
    const runs: number[] = [];
    const refresher = createRefresher({
      run: async () => {
        runs.push(Date.now());
      },
      intervalMs: 6 * HOUR,
      jitter: 0.1,
      random: () => 1, // the largest delay: +10 %
    });
    const start = Date.now();
    expect(refresher.nextRunAt).toBe(start + 6.6 * HOUR);
    await vi.advanceTimersByTimeAsync(6.6 * HOUR - 1);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([start + 6.6 * HOUR]);
    await vi.advanceTimersByTimeAsync(6.6 * HOUR);
    expect(runs).toHaveLength(2);
    await refresher.stop();
  });

  it('backs off exponentially after failures, capped, and resets after a success', async () => {
    let fail = 4;
    const errors: [string, number, number][] = [];
    const results: string[] = [];
    const refresher = createRefresher({
      run: async () => {
        if (fail-- > 0) throw new Error('source down');
        return 'ok';
      },
      intervalMs: HOUR,
      firstDelayMs: 0,
      backoffMs: 60_000,
      maxBackoffMs: 5 * 60_000,
      jitter: 0,
      onResult: (r) => results.push(r),
      onError: (error, info) => errors.push([(error as Error).message, info.failures, info.retryInMs]),
    });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.advanceTimersByTimeAsync(120_000);
    await vi.advanceTimersByTimeAsync(240_000);
    expect(errors).toEqual([
      ['source down', 1, 60_000],
      ['source down', 2, 120_000],
      ['source down', 3, 240_000],
      ['source down', 4, 300_000],
    ]);
    expect(refresher.failures).toBe(4);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(results).toEqual(['ok']);
    expect(refresher.failures).toBe(0);
    expect(refresher.nextRunAt).toBe(Date.now() + HOUR);
    await refresher.stop();
  });

  it('never overlaps runs: a trigger during a run joins it', async () => {
    let active = 0;
    let most = 0;
    let calls = 0;
    let release: () => void = () => {};
    const refresher = createRefresher({
      run: () => {
        calls++;
        active++;
        most = Math.max(most, active);
        return new Promise<void>((resolve) => {
          release = () => {
            active--;
            resolve();
          };
        });
      },
      intervalMs: 1_000,
      firstDelayMs: 0,
      jitter: 0,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(refresher.running).toBe(true);
    const joined = refresher.trigger();
    await vi.advanceTimersByTimeAsync(10_000); // the interval passes while the run is still going
    expect(calls).toBe(1);
    release();
    await joined;
    expect(refresher.running).toBe(false);
    expect(most).toBe(1);
    await refresher.stop();
  });

  it('stop() cancels the schedule and aborts the run in progress', async () => {
    let aborted = false;
    const onError = vi.fn();
    const refresher = createRefresher({
      run: (signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
      intervalMs: 1_000,
      firstDelayMs: 0,
      onError,
    });
    await vi.advanceTimersByTimeAsync(0);
    await refresher.stop();
    expect(aborted).toBe(true);
    expect(onError).not.toHaveBeenCalled();
    expect(refresher.nextRunAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresher.running).toBe(false);
  });

  it('refuses an interval that is not positive', () => {
    expect(() => createRefresher({ run: async () => {}, intervalMs: 0 })).toThrow(
      /refresh interval must be a positive number/,
    );
  });
});

describe('liveTvRefreshJob', () => {
  let temp: TempStore | undefined;
  afterEach(() => {
    temp?.cleanup();
    temp = undefined;
  });

  it('keeps serving the last good import when a refresh fails, then skips unchanged sources', async () => {
    temp = tempStore();
    const guide = join(temp.dir, 'guide.xml');
    copyFileSync(fixture('guide.xml'), guide);
    const job = liveTvRefreshJob(temp.store, { ...FIXTURE_OPTIONS, guides: [{ location: guide }] });
    const signal = new AbortController().signal;
    expect((await job(signal)).status).toBe('imported');
    const version = temp.store.dataVersion();

    rmSync(guide);
    const error = await job(signal).then(
      () => new Error('the refresh did not fail'),
      (e: unknown) => e as Error,
    );
    expect(error.message).toMatch(/guide\.xml: file not found; the previous data is still served/);
    expect(temp.store.dataVersion()).toBe(version);
    expect(temp.store.countChannels()).toBe(8);
    expect(temp.store.lastImport()?.status).toBe('failed');

    copyFileSync(fixture('guide.xml'), guide);
    const back: LiveTvImportResult = await job(signal);
    expect(back.status).toBe('imported');
    const quiet = await job(signal);
    expect(quiet.status).toBe('unchanged');
  });
});
