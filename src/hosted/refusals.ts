/**
 * Refused requests counted, not logged one by one: a flood of 100,000 refused POSTs wrote 119,410
 * log lines. The first refusal after a quiet spell starts a window of `windowMs` (a minute);
 * when it ends, one line says how many requests were refused in it and why.
 */
export interface RefusalLog {
  /** Counts one refused request; `reason` is a short key (`rate-limit`, `cross-site`, `invalid`). */
  note(reason: string): void;
  /** Writes the open window's line now (on close). */
  flush(): void;
}

export type HostedLog = (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

/** @example const refusals = createRefusalLog(log); refusals.note('rate-limit') */
export function createRefusalLog(log: HostedLog, windowMs = 60_000, now: () => number = Date.now): RefusalLog {
  let reasons = new Map<string, number>();
  let count = 0;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (count === 0) return;
    log('warn', 'refused requests', {
      count,
      seconds: Math.max(1, Math.round((now() - since) / 1000)),
      reasons: Object.fromEntries(reasons),
    });
    reasons = new Map();
    count = 0;
  };
  return {
    note(reason) {
      if (count === 0) {
        since = now();
        timer = setTimeout(flush, windowMs);
        timer.unref();
      }
      count++;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    },
    flush,
  };
}
