/**
 * An atomic live-TV import (see begin.ts for why one transaction). Rows go straight into the
 * emptied tables with plain INSERTs and only a little bookkeeping per guide channel in memory;
 * everything that needs the whole picture (unused guides, equal starts, overlaps, the index)
 * happens once at commit in finish.ts.
 */
import { MarqueeError } from '../../errors.js';
import { cleanName } from '../../sources/clean.js';
import type { GuideChannel, Programme } from '../../sources/records.js';
import type { Connection } from '../connection.js';
import { storeError } from '../errors.js';
import { closeImportConnection, commitImport, discardImport, rollbackImport } from '../import-transaction.js';
import { boundedDetails } from '../imports.js';
import { copiesDir, type SourceAttempt } from '../sources.js';
import type { ImportHost } from './begin.js';
import { finishLiveTv, type ImportTally } from './finish.js';
import { DAY, GuideDayWriter } from './guide-days.js';
import { type ChannelMatchInput, matchWriter } from './matches.js';
import { MergeTable } from './merge.js';
import { channelFromRaw, clip, LIMITS, normalizeName, programmeTail, recordJson } from './rows.js';
import type {
  CatchupStream,
  ChannelHead,
  ChannelInput,
  CommitInput,
  LiveTvDropped,
  LiveTvImportOptions,
  LiveTvImportReport,
} from './types.js';

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

/** The import itself; created by `beginLiveTvImport` once it holds the write lock. */
export class Import implements LiveTvImport {
  readonly id: number;
  #finished = false;
  #sealed = false;
  readonly #host: ImportHost;
  readonly #db: Connection;
  readonly #startedAt = Date.now();
  /** Programmes that ended before this are dropped, but for catch-up channels (#archiveOldest). */
  readonly #oldest: number;
  /** Programmes that ended before this are dropped whatever shows them (the longest archive of the channels added). */
  #archiveOldest: number;
  /** Guide key id → the oldest end its catch-up channels keep (the longest of their windows). */
  readonly #keyArchive = new Map<number, number>();
  readonly #now: number;
  readonly #horizon: number;
  readonly #maxProgrammeMs: number;
  readonly #languages: readonly string[];
  readonly #keyIds = new Map<string, number>();
  /** Channel id → rid, whether a guide key was set, and its catch-up window (ms, 0 for none). */
  readonly #channels = new Map<string, { readonly rid: number; keyed: boolean; readonly archiveMs: number }>();
  readonly #tally: ImportTally = {
    channels: 0,
    streams: 0,
    keyChannels: new Map(),
    keyProgrammes: new Map(),
    keysWithProgrammes: new Set(),
    keyPriority: new Map(),
    mixedPriorities: new Set(),
    keyLastStart: new Map(),
    unordered: new Set(),
  };
  #written = 0;
  readonly #dropped = { past: 0, beyondHorizon: 0, invalid: 0, tooLong: 0, unusedGuide: 0 };
  readonly #sql;
  readonly #days: GuideDayWriter;
  readonly #merging: MergeTable;
  /** Several sources: every programme goes through the merge table. */
  #mergeAll = false;
  readonly #channelHead: ChannelHead | undefined;
  readonly #writeMatch: (match: ChannelMatchInput) => void;

  constructor(host: ImportHost, db: Connection, id: number, options: LiveTvImportOptions) {
    this.#host = host;
    this.#db = db;
    this.id = id;
    const now = options.now ?? Date.now();
    this.#now = now;
    this.#oldest = now - (options.retentionMs ?? 2 * DAY);
    this.#archiveOldest = this.#oldest;
    this.#horizon = now + (options.horizonMs ?? 14 * DAY);
    this.#maxProgrammeMs = options.maxProgrammeMs ?? 3 * DAY;
    this.#languages = (options.languages ?? []).map((l) => l.toLowerCase());
    this.#channelHead = options.channelHead;
    this.#days = new GuideDayWriter(db);
    this.#merging = new MergeTable(db);
    this.#writeMatch = matchWriter(db);
    this.#sql = {
      channel: db.prepare(
        // The columns of CHANNEL_SELECT first, in its order (see addChannel).
        'INSERT INTO channels (id, name, logo, grp, number, sort, guide_key, catchup, source, rid, name_norm, key_id, head, head_format, catchup_streams) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
      ),
      stream: db.prepare(
        'INSERT INTO streams (channel_rid, ord, url, name, user_agent, referrer, kodi_props, source, origin) VALUES (?,?,?,?,?,?,?,?,?)',
      ),
      channelKey: db.prepare('UPDATE channels SET guide_key = ?, key_id = ? WHERE rid = ?'),
      guideKey: db.prepare(`INSERT INTO guide_channels (id, key, names) VALUES (?, ?, '[]')`),
      guideChannel: db.prepare(
        'UPDATE guide_channels SET names = ?, icon = ?, url = ?, prio = ? WHERE id = ? AND (prio IS NULL OR prio > ?)',
      ),
    };
  }

  get finished(): boolean {
    return this.#finished;
  }

  addChannel(channel: ChannelInput): void {
    this.#run('adding a channel', () => {
      if (this.#sealed) throw new Error('addChannel after sealChannels()');
      const { id, name } = channel;
      if (typeof id !== 'string' || id === '' || id.length > LIMITS.key) {
        throw new Error(`channel id must be a non-empty string of at most ${LIMITS.key} characters`);
      }
      if (this.#channels.has(id)) throw new Error(`duplicate channel id "${id}"`);
      if (typeof name !== 'string' || !Number.isFinite(channel.sort)) {
        throw new Error(`channel "${id}" needs a string name and a finite sort`);
      }
      const rid = ++this.#tally.channels;
      const keyed = channel.guideKey !== undefined && channel.guideKey !== '';
      const catchup = catchupJson(channel.catchupStreams);
      this.#channels.set(id, { rid, keyed, archiveMs: catchup.archiveMs });
      if (catchup.archiveMs > 0) this.#archiveOldest = Math.min(this.#archiveOldest, this.#now - catchup.archiveMs);
      const keyId = keyed ? this.#keyChannel(channel.guideKey!) : null;
      if (keyId !== null) this.#keepArchive(keyId, catchup.archiveMs);
      const shownName = cleanName(clip(name, LIMITS.name));
      // In CHANNEL_SELECT's order: what reads will give back, and what the head is rendered from.
      const stored = [
        id,
        shownName,
        channel.logo ? clip(channel.logo, LIMITS.url) : null,
        channel.group ? clip(channel.group, LIMITS.name) : null,
        Number.isFinite(channel.number) ? channel.number : null,
        channel.sort,
        keyId === null ? null : clip(channel.guideKey!, LIMITS.key),
        recordJson(channel.catchup),
        channel.source ? clip(channel.source, LIMITS.url) : null,
      ] as const;
      const head = this.#channelHead;
      this.#sql.channel.run(
        ...stored,
        rid,
        normalizeName(shownName),
        keyId,
        head === undefined ? null : head.render(channelFromRaw(stored)),
        head === undefined ? null : head.format,
        catchup.json,
      );
      channel.streams.forEach((s, ord) => {
        if (typeof s.url !== 'string' || s.url === '') throw new Error(`channel "${id}" stream ${ord} has no url`);
        this.#sql.stream.run(
          rid,
          ord,
          clip(s.url, LIMITS.url),
          s.name ? clip(s.name, LIMITS.name) : null,
          s.userAgent ? clip(s.userAgent, LIMITS.url) : null,
          s.referrer ? clip(s.referrer, LIMITS.url) : null,
          recordJson(s.kodiProps),
          s.source ? clip(s.source, LIMITS.name) : null,
          s.origin ? clip(s.origin, LIMITS.key) : null,
        );
        this.#tally.streams++;
      });
    });
  }

  setGuideKey(channelId: string, guideKey: string): void {
    this.#run('setting a guide key', () => {
      // Like addChannel: once sealed, programmes of keys no channel showed were already dropped.
      if (this.#sealed) throw new Error('setGuideKey after sealChannels()');
      const channel = this.#channels.get(channelId);
      if (channel === undefined)
        throw new Error(`setGuideKey: no channel "${String(channelId).slice(0, 80)}" was added`);
      if (channel.keyed) throw new Error(`setGuideKey: channel "${channelId}" already has a guide key`);
      if (typeof guideKey !== 'string' || guideKey === '') throw new Error('setGuideKey: the guide key is empty');
      channel.keyed = true;
      const keyId = this.#keyChannel(guideKey);
      this.#keepArchive(keyId, channel.archiveMs);
      this.#sql.channelKey.run(clip(guideKey, LIMITS.key), keyId, channel.rid);
    });
  }

  recordMatch(match: ChannelMatchInput): void {
    this.#run('recording a match', () => {
      if (!this.#channels.has(match.channelId)) {
        throw new Error(`recordMatch: no channel "${String(match.channelId).slice(0, 80)}" was added`);
      }
      this.#writeMatch(match);
    });
  }

  addGuideChannel(channel: GuideChannel, priority = 0): void {
    this.#run('adding a guide channel', () => {
      checkPriority(priority);
      if (typeof channel.id !== 'string' || channel.id === '') throw new Error('guide channel without id');
      const names = channel.displayNames
        .slice(0, LIMITS.items)
        .map((n) =>
          n.lang === undefined
            ? { text: cleanName(clip(n.text, LIMITS.name)) }
            : { text: cleanName(clip(n.text, LIMITS.name)), lang: clip(n.lang, LIMITS.item) },
        );
      const keyId = this.#keyId(channel.id);
      const icon = channel.icon ? clip(channel.icon, LIMITS.url) : null;
      const url = channel.url ? clip(channel.url, LIMITS.url) : null;
      this.#sql.guideChannel.run(JSON.stringify(names), icon, url, priority, keyId, priority);
    });
  }

  addProgrammes(programmes: Iterable<Programme>, priority = 0): number {
    return this.#run('adding programmes', () => {
      checkPriority(priority);
      const tally = this.#tally;
      const { keyChannels, keysWithProgrammes, keyPriority, mixedPriorities, keyLastStart, unordered } = tally;
      const dropped = this.#dropped;
      const days = this.#days;
      const merging = this.#merging;
      let written = 0;
      for (const p of programmes) {
        const start = Math.trunc(p.start);
        const stop = Math.trunc(p.stop);
        if (!Number.isFinite(start) || !Number.isFinite(stop) || stop <= start || !p.channelId) {
          dropped.invalid++;
        } else if (stop <= this.#archiveOldest) {
          dropped.past++;
        } else if (start >= this.#horizon) {
          dropped.beyondHorizon++;
        } else if (stop - start > this.#maxProgrammeMs) {
          dropped.tooLong++;
        } else {
          const known = this.#keyIds.get(p.channelId);
          if (this.#sealed && (known === undefined || !keyChannels.has(known))) {
            dropped.unusedGuide++;
            continue;
          }
          const keyId = known ?? this.#keyId(p.channelId);
          const video = programmeTail(p, this.#languages);
          written++;
          keysWithProgrammes.add(keyId);
          const last = keyLastStart.get(keyId);
          if (last !== undefined && start <= last) unordered.add(keyId);
          keyLastStart.set(keyId, start);
          const first = keyPriority.get(keyId);
          if (first === undefined) keyPriority.set(keyId, priority);
          else if (first !== priority) mixedPriorities.add(keyId);

          // Older than the retention, kept for a catch-up channel's archive: which channels show
          // this key is known at commit, where the merge path drops it for the others.
          const archived = stop <= this.#oldest;
          if (this.#mergeAll || archived || merging.has(keyId) || unordered.has(keyId) || mixedPriorities.has(keyId)) {
            if (!merging.has(keyId) && tally.keyProgrammes.has(keyId)) {
              // This key needs the merge rules from now on: what it already has moves to the merge table.
              for (const earlier of days.take(keyId))
                merging.add(keyId, earlier.start, earlier.stop, first!, earlier.video);
              tally.keyProgrammes.delete(keyId);
            }
            merging.add(keyId, start, stop, priority, video);
          } else {
            days.add(keyId, start, stop, video);
            tally.keyProgrammes.set(keyId, (tally.keyProgrammes.get(keyId) ?? 0) + 1);
          }
        }
      }
      this.#written += written;
      return written;
    });
  }

  setGuideSources(count: number): void {
    this.#run('setting the guide sources', () => {
      if (this.#written > 0) throw new Error('setGuideSources after programmes were added');
      this.#mergeAll = count > 1;
    });
  }

  sealChannels(): void {
    this.#run('sealing channels', () => {
      this.#sealed = true;
    });
  }

  commit(input: CommitInput = {}): LiveTvImportReport {
    return this.#run('committing', () => {
      if (this.#tally.channels === 0) {
        throw new MarqueeError(
          'IMPORT_FAILED',
          `the live-TV import into ${this.#host.file} holds no channel, so it was not applied; the previous data is still served`,
          { details: { file: this.#host.file } },
        );
      }
      const keepFrom = (keyId: number) => Math.min(this.#oldest, this.#keyArchive.get(keyId) ?? this.#oldest);
      const result = finishLiveTv(this.#db, this.#tally, this.#days, this.#merging, keepFrom);
      const { programmes } = result.counts;
      const dropped: LiveTvDropped = {
        ...this.#dropped,
        past: this.#dropped.past + result.past,
        unusedGuide: this.#dropped.unusedGuide + result.unusedGuide,
        overlapped: result.overlapped,
        duplicate: this.#written - programmes - result.overlapped - result.unusedGuide - result.past,
      };
      const details = boundedDetails(input.details);
      const report: LiveTvImportReport = {
        counts: result.counts,
        dropped,
        warnings: input.warnings ?? 0,
        durationMs: Date.now() - this.#startedAt,
        ...(details === undefined ? {} : { details }),
      };
      commitImport(
        this.#db,
        this.id,
        report,
        input.sources ? { area: 'livetv', attempts: input.sources, dir: copiesDir(this.#host.file) } : undefined,
      );
      this.#end();
      return report;
    });
  }

  abort(reason: string, sources?: readonly SourceAttempt[]): void {
    if (this.#finished) return;
    this.#fail(reason, sources);
  }

  discard(): void {
    if (this.#finished) return;
    discardImport(this.#db, this.id);
    this.#end();
  }

  /** Runs one step; any error ends the import (rolled back, recorded) and is rethrown as IMPORT_FAILED. */
  #run<T>(doing: string, step: () => T): T {
    if (this.#finished) {
      throw new MarqueeError('IMPORT_FAILED', `live-TV import ${this.id} is already finished (while ${doing})`);
    }
    try {
      return step();
    } catch (error) {
      const reason =
        error instanceof MarqueeError
          ? error.message
          : error instanceof Error && !('code' in error)
            ? `live-TV import into ${this.#host.file} failed while ${doing}: ${error.message}; the previous data is still served`
            : `${storeError(this.#host.file, error, doing).message} The previous data is still served.`;
      this.#fail(reason);
      throw error instanceof MarqueeError && error.code === 'IMPORT_FAILED'
        ? error
        : new MarqueeError('IMPORT_FAILED', reason, { cause: error, details: { file: this.#host.file } });
    }
  }

  /** A catch-up channel of `archiveMs` shows `keyId`: its programmes are kept that long. */
  #keepArchive(keyId: number, archiveMs: number): void {
    if (archiveMs <= 0) return;
    const oldest = this.#now - archiveMs;
    this.#keyArchive.set(keyId, Math.min(oldest, this.#keyArchive.get(keyId) ?? oldest));
  }

  /** The key id of `key`, counting one more channel that shows it. */
  #keyChannel(key: string): number {
    const keyId = this.#keyId(key);
    this.#tally.keyChannels.set(keyId, (this.#tally.keyChannels.get(keyId) ?? 0) + 1);
    return keyId;
  }

  #keyId(key: string): number {
    const k = clip(key, LIMITS.key);
    let id = this.#keyIds.get(k);
    if (id === undefined) {
      id = this.#keyIds.size + 1;
      this.#keyIds.set(k, id);
      this.#sql.guideKey.run(id, k);
    }
    return id;
  }

  #fail(reason: string, sources?: readonly SourceAttempt[]): void {
    rollbackImport(
      this.#db,
      this.id,
      reason,
      sources ? { area: 'livetv', attempts: sources, dir: copiesDir(this.#host.file) } : undefined,
    );
    this.#end();
  }

  #end(): void {
    this.#finished = true;
    closeImportConnection(this.#db);
    this.#host.ended(this);
  }
}

/** A channel's catch-up streams as stored (bounded), and the longest window among them. */
function catchupJson(streams: readonly CatchupStream[] | undefined): { json: string | null; archiveMs: number } {
  if (streams === undefined || streams.length === 0) return { json: null, archiveMs: 0 };
  let archiveMs = 0;
  const kept = streams.slice(0, LIMITS.items).map((s) => {
    if (typeof s.url !== 'string' || s.url === '') throw new Error('a catch-up stream has no url');
    if (!Number.isFinite(s.archiveMs) || s.archiveMs < 0 || s.archiveMs > 366 * DAY) {
      throw new Error('a catch-up stream needs archiveMs from 0 to 366 days');
    }
    archiveMs = Math.max(archiveMs, s.archiveMs);
    const attributes = JSON.parse(recordJson(s.attributes) ?? '{}') as Record<string, string>;
    return {
      url: clip(s.url, LIMITS.url),
      attributes,
      archiveMs: s.archiveMs,
      ...(s.userAgent ? { userAgent: clip(s.userAgent, LIMITS.url) } : {}),
      ...(s.referrer ? { referrer: clip(s.referrer, LIMITS.url) } : {}),
      ...(s.source ? { source: clip(s.source, LIMITS.name) } : {}),
    };
  });
  return { json: JSON.stringify(kept), archiveMs };
}

function checkPriority(priority: number): void {
  if (!Number.isSafeInteger(priority)) throw new Error(`priority must be an integer, got ${priority}`);
}
