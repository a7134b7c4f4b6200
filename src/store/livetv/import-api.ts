/** What an open live-TV import offers its importer (src/livetv/): channels, guides, matches, then commit or abort. */
import type { GuideChannel, Programme } from '../../sources/records.js';
import type { SourceAttempt } from '../sources.js';
import type { ChannelMatchInput } from './matches.js';
import type { ChannelInput, CommitInput, LiveTvImportReport } from './types.js';

/** An open live-TV import; nothing it adds is visible to readers before `commit`. */
export interface LiveTvImport {
  /** Id of this import in the history. */
  readonly id: number;
  /** True once committed or aborted (or failed); every later call throws. */
  readonly finished: boolean;
  /** Adds a channel with its streams. @example imp.addChannel({ id: 'mq-tv:one', name: 'One', sort: 1, streams: [{ url }] }) */
  addChannel(channel: ChannelInput): void;
  /**
   * Points a channel added without a guide key at `guideKey`: matching can then run after the
   * guides, without holding every channel in memory while they stream. Once per channel.
   * @example imp.setGuideKey('mq-tv:one', 'one.example')
   */
  setGuideKey(channelId: string, guideKey: string): void;
  /**
   * Records how a channel added to this import was matched (for `marquee status --matches`).
   * @example imp.recordMatch({ channelId: 'mq-tv:one', name: 'One', pin: 'One', guide: 'one.example', rule: 'scored', score: 0.91 })
   */
  recordMatch(match: ChannelMatchInput): void;
  /** Adds a guide's `<channel>`; of several sources, the names of the best priority (lowest number) are kept. */
  addGuideChannel(channel: GuideChannel, priority?: number): void;
  /** Adds programmes of one source (lower `priority` wins overlaps); returns how many were written. @example imp.addProgrammes(batch, 0) */
  addProgrammes(programmes: Iterable<Programme>, priority?: number): number;
  /**
   * Declares how many sources (priorities) will add programmes, before the first. With more than
   * one, every programme waits in a temporary table for the merge rules at commit, instead of
   * first being grouped into guide days and then taken back when a second source reaches its
   * guide channel. Default 1; the result is the same either way.
   */
  setGuideSources(count: number): void;
  /** Declares that every channel has been added: programmes of guide channels no channel shows are skipped from now on. */
  sealChannels(): void;
  /** Makes the import the served data in one step and records it. Fails (keeping the old data) when it holds no channel. */
  commit(input?: CommitInput): LiveTvImportReport;
  /**
   * Drops everything added; the previous data stays served and the failure is recorded with
   * `reason`, and with how each source's attempt went when `sources` is given.
   */
  abort(reason: string, sources?: readonly SourceAttempt[]): void;
  /**
   * Drops everything added and forgets the import (no history record): the importer starts a
   * new one, e.g. without a source it found bad after adding it.
   */
  discard(): void;
}
