/**
 * Turns a complete `<programme>` draft into a record, or a warning. The rules, in order:
 * a programme needs a channel and a readable start, else it is skipped. Its start closes the
 * programme waiting on the same channel for a stop. It needs a non-empty title, else it is skipped:
 * the guide grid shows titles, and inventing one (the channel name) would pass filler off as a
 * schedule. A missing stop (optional in the DTD), an unreadable one or one not after the start is
 * replaced by the start of the next programme of that channel in document order; with none, the
 * programme is skipped.
 */
import type { Programme } from '../records.js';
import type { ProgrammeDraft } from './draft.js';
import { parseOnScreen, parseXmltvNs } from './episode.js';
import { StringInterner } from './intern.js';
import type { WarningSink } from './warnings.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Waiting {
  readonly programme: Mutable<Programme>;
  /** Why its stop is being replaced, when the guide gave one; undefined when the stop was absent. */
  readonly reason: string | undefined;
}

export class ProgrammeFinisher {
  private readonly waiting = new Map<string, Waiting>();
  private readonly ids = new StringInterner();

  constructor(
    private readonly parseTime: (text: string) => number | undefined,
    private readonly warnings: WarningSink,
    /** Most channels that may wait for a stop at once: bounds memory on hostile guides. */
    private readonly maxWaiting: number,
    private readonly emit: (programme: Programme) => void,
  ) {}

  /** Applies the rules to a draft whose end tag was read. */
  finish(draft: ProgrammeDraft): void {
    const line = draft.line;
    const trimmed = draft.channel?.trim();
    if (!trimmed) {
      this.warnings.add(line, 'programme without a channel attribute; skipped');
      return;
    }
    const channelId = this.ids.intern(trimmed);
    if (draft.start === undefined) {
      this.warnings.add(line, `programme on channel "${clip(channelId)}" has no start attribute; skipped`);
      return;
    }
    const start = this.parseTime(draft.start);
    if (start === undefined) {
      this.warnings.add(
        line,
        `programme on channel "${clip(channelId)}": start "${clip(draft.start)}" is not an XMLTV time (YYYYMMDDhhmmss +HHMM); skipped`,
      );
      return;
    }
    this.closeWaiting(channelId, start, line);
    if (draft.titles.length === 0) {
      this.warnings.add(
        line,
        `programme on channel "${clip(channelId)}" starting ${draft.start.trim()} has no title; skipped`,
      );
      return;
    }
    let stop: number | undefined;
    let reason: string | undefined;
    if (draft.stop !== undefined) {
      stop = this.parseTime(draft.stop);
      if (stop === undefined) reason = `stop "${clip(draft.stop)}" is not an XMLTV time`;
      else if (stop <= start) reason = `stop ${draft.stop.trim()} is not after start ${draft.start.trim()}`;
      if (reason !== undefined) stop = undefined;
    }
    const programme = build(draft, channelId, start, stop ?? start);
    if (stop !== undefined) {
      this.emit(programme);
      return;
    }
    if (this.waiting.size >= this.maxWaiting) {
      this.warnings.add(
        line,
        `${describe(programme)}: ${reason ?? 'no stop'}, and too many channels wait for one; skipped`,
      );
      return;
    }
    this.waiting.set(channelId, { programme, reason });
  }

  /** End of the guide: programmes still waiting have no later programme to end them. */
  flush(): void {
    for (const { programme, reason } of this.waiting.values()) {
      this.warnings.add(
        programme.line,
        `${describe(programme)}: ${reason ?? 'no stop attribute'} and no later programme on the channel; skipped`,
      );
    }
    this.waiting.clear();
  }

  private closeWaiting(channelId: string, start: number, line: number): void {
    const waiting = this.waiting.get(channelId);
    if (waiting === undefined) return;
    this.waiting.delete(channelId);
    const { programme, reason } = waiting;
    if (start > programme.start) {
      programme.stop = start;
      if (reason !== undefined) {
        this.warnings.add(
          programme.line,
          `${describe(programme)}: ${reason}; ends at the next programme's start (line ${line})`,
        );
      }
      this.emit(programme);
    } else {
      this.warnings.add(
        programme.line,
        `${describe(programme)}: ${reason ?? 'no stop attribute'} and the next programme on the channel (line ${line}) does not start after it; skipped`,
      );
    }
  }
}

function build(draft: ProgrammeDraft, channelId: string, start: number, stop: number): Mutable<Programme> {
  const numbers =
    (draft.xmltvNs === undefined ? undefined : parseXmltvNs(draft.xmltvNs)) ??
    (draft.onScreen === undefined ? undefined : parseOnScreen(draft.onScreen));
  return {
    channelId,
    start,
    stop,
    titles: draft.titles,
    subTitles: draft.subTitles,
    descriptions: draft.descriptions,
    categories: draft.categories,
    season: numbers?.season,
    episode: numbers?.episode,
    episodeOnScreen: draft.onScreen,
    date: draft.date,
    icon: draft.icon,
    ratings: draft.ratings,
    starRating: draft.starRating,
    directors: draft.directors,
    actors: draft.actors,
    previouslyShown: draft.previouslyShown,
    isNew: draft.isNew,
    line: draft.line,
  };
}

function describe(programme: Programme): string {
  return `programme "${clip(programme.titles[0]?.text ?? '')}" on channel "${clip(programme.channelId)}"`;
}

/** Quotes of guide text inside warnings stay short: the guide may hold anything. */
function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= 60 ? trimmed : `${trimmed.slice(0, 57)}...`;
}
