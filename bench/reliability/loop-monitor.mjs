/**
 * Event-loop stall monitor, preloaded into a `marquee serve` process with
 * `node --import ./bench/reliability/loop-monitor.mjs bin/marquee.js serve ...` so the soak measures
 * stalls where they happen (in the server) without a line of the CLI changed. A 10 ms timer
 * measures how late it fires; a lateness over STALL_MS is one stall. Every REPORT_MS it appends one
 * JSON line to the file in MARQUEE_LOOP_STATS: stalls so far with their times (epoch ms, so a
 * reader can keep those of a time window), the worst lateness, p99 of the event-loop delay
 * histogram, and the RSS. Lateness also counts time the OS did not schedule the process (other
 * busy processes on the machine), so it is an upper bound on blocking by the server itself.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.MARQUEE_LOOP_STATS;
const STALL_MS = Number(process.env.MARQUEE_STALL_MS ?? 100);
const TICK_MS = 10;
const REPORT_MS = 5_000;

if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let stalls = 0;
  let worst = 0;
  const stallTimes = [];
  let expected = performance.now() + TICK_MS;
  setInterval(() => {
    const now = performance.now();
    const late = now - expected;
    if (late > STALL_MS) {
      stalls++;
      if (stallTimes.length < 1_000) stallTimes.push({ at: Date.now(), ms: Math.round(late) });
    }
    worst = Math.max(worst, late);
    expected = now + TICK_MS;
  }, TICK_MS).unref();
  const report = () =>
    appendFileSync(
      file,
      `${JSON.stringify({
        time: Date.now(),
        stalls,
        worstMs: Math.round(worst),
        p99Ms: Math.round(histogram.percentile(99) / 1e6),
        maxDelayMs: Math.round(histogram.max / 1e6),
        rssBytes: process.memoryUsage.rss(),
        stallTimes,
      })}\n`,
    );
  setInterval(report, REPORT_MS).unref();
  process.on('exit', report);
}
