/**
 * The spec's guide-day rule, in one place for the SDK, the store and the checker: a programme
 * belongs to UTC day D when it ends after D's first instant (00:00:00.000Z) and starts before its
 * last one (23:59:59.999Z). 23:30–00:30 belongs to both days; one ending at 00:00 only to the first.
 */

export const GUIDE_DAY_MS = 86_400_000;

/** The UTC window of a guide day `YYYY-MM-DD`: [00:00:00.000Z, 23:59:59.999Z] in epoch ms. */
export function guideDayWindow(day: string): { readonly start: number; readonly end: number } {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  return { start, end: start + GUIDE_DAY_MS - 1 };
}

/**
 * True when programme [startMs, endMs) belongs to guide day `day`.
 * @example overlapsGuideDay(Date.parse('2026-01-01T23:30Z'), Date.parse('2026-01-02T00:30Z'), '2026-01-02') // true
 */
export function overlapsGuideDay(startMs: number, endMs: number, day: string): boolean {
  const window = guideDayWindow(day);
  return endMs > window.start && startMs < window.end;
}

/**
 * The first guide day (its UTC midnight, epoch ms) that programme [startMs, …) belongs to; the
 * next ones follow by GUIDE_DAY_MS while they start before the programme ends.
 * @example firstGuideDay(Date.parse('2026-01-01T23:59:59.999Z')) === Date.parse('2026-01-02') // true
 */
export function firstGuideDay(startMs: number): number {
  const day = Math.floor(startMs / GUIDE_DAY_MS) * GUIDE_DAY_MS;
  // A start at the day's last millisecond is not before its last instant.
  return startMs >= day + GUIDE_DAY_MS - 1 ? day + GUIDE_DAY_MS : day;
}
