/**
 * Peak memory of a child process: VmHWM of /proc/<pid>/status (Linux only), the resident set's
 * high-water mark of the whole process (its main thread and its worker threads), never the test
 * runner's. Memory tests run Marquee as a child (test/helpers/serve-process.ts) and read this.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The peak resident set of process `pid` so far, in MB (0 once it is gone). */
export function peakMb(pid: number): number {
  try {
    const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Follows `child` until it exits and returns its peak resident set in MB: VmHWM only grows, so
 * the last reading before the process ends holds its peak.
 * @example const peak = await peakUntilExit(startMarquee(['import', ...], dir, children).process)
 */
export async function peakUntilExit(child: ChildProcess, everyMs = 25): Promise<number> {
  let peak = 0;
  while (child.exitCode === null && child.signalCode === null) {
    peak = Math.max(peak, peakMb(child.pid!));
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return peak;
}
