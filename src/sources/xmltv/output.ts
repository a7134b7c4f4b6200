/**
 * The records of one guide on their way out: batched until the reader yields, counted against
 * the limits, channel ids kept unique (the first declaration wins, as in the guide merge).
 */
import { ENTRY_LIMIT_SETTINGS } from '../entry-limits.js';
import type { GuideChannel, Programme } from '../records.js';
import type { ChannelDraft } from './draft.js';
import type { XmltvLimits } from './limits.js';
import type { WarningSink } from './warnings.js';

export class GuideOutput {
  channels: GuideChannel[] = [];
  programmes: Programme[] = [];
  programmeCount = 0;
  private readonly channelIds = new Set<string>();

  constructor(
    private readonly limits: XmltvLimits,
    private readonly warnings: WarningSink,
    /** The error to throw when a count limit is passed. */
    private readonly tooMany: (message: string) => Error,
  ) {}

  get channelCount(): number {
    return this.channelIds.size;
  }

  /** Adds a channel whose end tag was read, or warns why it is skipped. */
  addChannel(draft: ChannelDraft): void {
    const id = draft.id?.trim();
    if (!id) {
      this.warnings.add(draft.line, 'channel without an id attribute; skipped');
    } else if (this.channelIds.has(id)) {
      this.warnings.add(draft.line, `channel "${id.slice(0, 60)}" is declared again; the first declaration is kept`);
    } else if (this.channelIds.size >= this.limits.maxChannels) {
      throw this.tooMany(`more than ${this.limits.maxChannels} channels (${ENTRY_LIMIT_SETTINGS.maxGuideChannels})`);
    } else {
      this.channelIds.add(id);
      this.channels.push({ id, displayNames: draft.displayNames, icon: draft.icon, url: draft.url });
    }
  }

  addProgramme(programme: Programme): void {
    if (++this.programmeCount > this.limits.maxProgrammes) {
      throw this.tooMany(`more than ${this.limits.maxProgrammes} programmes`);
    }
    this.programmes.push(programme);
  }

  /** True when records wait to be taken. */
  pending(): boolean {
    return this.channels.length > 0 || this.programmes.length > 0;
  }

  /** The records completed since the last call. */
  take(): { channels: GuideChannel[]; programmes: Programme[] } {
    const taken = { channels: this.channels, programmes: this.programmes };
    this.channels = [];
    this.programmes = [];
    return taken;
  }
}
