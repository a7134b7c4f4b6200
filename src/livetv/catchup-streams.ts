/**
 * Catch-up streams on programmes: a programme of a channel whose source keeps an archive gets,
 * once it has started and while it lies within the archive window, a `streams` list that plays it
 * from its start. The spec allows `streams` on a programme where exclusivity is intended: picking
 * a past programme plays that programme, not the live channel. Upcoming programmes, programmes
 * older than the window and channels without catch-up carry none, and keep the channel's streams.
 */
import type { Stream } from '../protocol/index.js';
import type { CatchupStream, ChannelRow } from '../store/index.js';
import { type CatchupPlan, catchupAvailable, catchupPlan, catchupUrl } from './catchup.js';
import { playbackHints } from './metas.js';

/** Plans kept per distinct catch-up stream (a channel's plans are read again for every page). */
const MAX_PLANS = 20_000;

export interface CatchupStreams {
  /** The catch-up streams of `channel`'s programme [start, stop) at `now`; [] when none applies. */
  of(channel: ChannelRow, start: number, stop: number, now: number): Stream[];
  /** The same as JSON members (`,"streams":[…]`), or '' when none applies. */
  json(channel: ChannelRow, start: number, stop: number, now: number): string;
}

/**
 * @example createCatchupStreams('Marquee').of(channel, start, stop, Date.now())[0].url
 *   // 'http://tv.example/timeshift/u/p/90/2026-03-01:20-00/7.ts'
 */
export function createCatchupStreams(addonName: string): CatchupStreams {
  const plans = new Map<string, CatchupPlan | null>();

  function planOf(c: CatchupStream): CatchupPlan | undefined {
    const key = `${c.url}\n${JSON.stringify(c.attributes)}`;
    let plan = plans.get(key);
    if (plan === undefined) {
      // The import checked the attributes (and warned): here a plan is only rebuilt.
      plan = catchupPlan(c.url, c.attributes).plan ?? null;
      if (plans.size >= MAX_PLANS) plans.clear();
      plans.set(key, plan);
    }
    return plan ?? undefined;
  }

  function of(channel: ChannelRow, start: number, stop: number, now: number): Stream[] {
    const list = channel.catchupStreams;
    if (list === undefined || list.length === 0 || start > now) return [];
    const streams: Stream[] = [];
    for (const c of list) {
      const plan = planOf(c);
      if (plan === undefined || !catchupAvailable(plan, start, stop, now)) continue;
      const url = catchupUrl(plan, start, stop, now);
      const stream: Stream = {
        name: c.source ?? addonName,
        description: 'From the start (catch-up)',
        url,
      };
      const hints = playbackHints(url, c.userAgent, c.referrer);
      if (hints !== undefined) stream.behaviorHints = hints;
      streams.push(stream);
    }
    return streams;
  }

  return {
    of,
    json(channel, start, stop, now) {
      const streams = of(channel, start, stop, now);
      return streams.length === 0 ? '' : `,"streams":${JSON.stringify(streams)}`;
    },
  };
}
