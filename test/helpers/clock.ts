/**
 * Tests that compare a server's answers before and after something (a refresh that keeps the last
 * good data, say) read them at two moments: a live channel's meta lists its programmes from a
 * window that moves on at each hour (the fixtures' programmes are an hour long), and the guide's
 * day catalogs change at midnight, so a comparison that straddles the turn of an hour fails with
 * nothing wrong. Such a test first waits until the next turn is at least `ms` away.
 */
const HOUR = 3_600_000;

/** How long until the next turn of a UTC hour, at `now`. @example untilHourTurn(Date.UTC(2026, 0, 1, 4, 59)) // 60000 */
export function untilHourTurn(now = Date.now()): number {
  return HOUR - (now % HOUR);
}

/**
 * Resolves at once when the next turn of an hour is at least `ms` away (`ms` under an hour), else
 * once it has passed: what the caller does in the next `ms` sees one hour's answers.
 */
export async function awayFromHourTurn(ms: number): Promise<void> {
  if (ms >= HOUR) throw new RangeError(`awayFromHourTurn: ${ms} ms is not under an hour`);
  const left = untilHourTurn();
  if (left >= ms) return;
  await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}
