/**
 * Wall clocks of IANA time zones, for sources that write local times (Xtream panels' short
 * guides, catch-up URLs with `catchup-timezone`). One bounded cache of formatters: a zone comes
 * from a source or a setting, so how many there are is not ours to bound otherwise.
 */

/** Zones remembered at most; past this the cache starts over. */
const MAX_ZONES = 500;

const formatters = new Map<string, Intl.DateTimeFormat | undefined>();

/**
 * A formatter of `zone`'s wall clock (year, 2-digit month to second, 24-hour), or undefined when
 * Node does not know the zone.
 * @example zoneFormatter('Europe/London')?.formatToParts(Date.now())
 */
export function zoneFormatter(zone: string): Intl.DateTimeFormat | undefined {
  if (formatters.has(zone)) return formatters.get(zone);
  let formatter: Intl.DateTimeFormat | undefined;
  try {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    formatter = undefined;
  }
  if (formatters.size > MAX_ZONES) formatters.clear();
  formatters.set(zone, formatter);
  return formatter;
}
