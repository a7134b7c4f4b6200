/**
 * An atomic live-TV import (see begin.ts for why one transaction). Rows go straight into the
 * emptied tables with plain INSERTs and only a little bookkeeping per guide channel in memory;
 * everything that needs the whole picture (unused guides, equal starts, overlaps, the index)
 * happens once at commit in finish.ts.
 *
 * One class past ~300 lines, on purpose: addProgrammes, the import's hot path (every programme of
 * every guide), works on the import's private fields directly; spread over several objects it
 * would pay a property lookup more per programme. Its rows and report are built elsewhere
 * (channel-rows.ts, finish.ts); its interface is in import-api.ts.
 */
import { MarqueeError } from '../../errors.js';
import type { GuideChannel, Programme } from '../../sources/records.js';
import type { Connection } from '../connection.js';
import { storeError } from '../errors.js';
import { closeImportConnection, commitImport, discardImport, rollbackImport } from '../import-transaction.js';
import { copiesDir, type SourceAttempt } from '../sources.js';
import type { ImportHost } from './begin.js';
import { catchupJson, guideNamesJson, writeChannelRows } from './channel-rows.js';
import { DayCap } from './day-cap.js';
import { finishLiveTv, finishReport, type ImportTally } from './finish.js';
import { DAY, GuideDayWriter } from './guide-days.js';
import type { LiveTvImport } from './import-api.js';
import { type ChannelMatchInput, matchWriter } from './matches.js';
import { MergeTable } from './merge.js';
import { clip, LIMITS, programmeTail } from './rows.js';
import type { ChannelHead, ChannelInput, CommitInput, LiveTvImportOptions, LiveTvImportReport } from './types.js';

export type { LiveTvImport } from './import-api.js';

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
  /**
   * Channel id → rid; whether a guide key was set, by rid; the catch-up window (ms) of the rids
   * that have one. Numbers, not an object per channel: an import may hold 300,000 channels.
   */
  readonly #channels = new Map<string, number>();
  readonly #keyed: number[] = [];
  readonly #archives = new Map<number, number>();
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
  /** Programmes per guide key and day (maxProgrammesPerDay). */
  readonly #dayCap: DayCap;
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
    this.#dayCap = new DayCap(options.maxProgrammesPerDay);
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
        'INSERT INTO streams (channel_rid, ord, url, name, user_agent, referrer, kodi_props, source, origin, line) VALUES (?,?,?,?,?,?,?,?,?,?)',
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
      this.#channels.set(id, rid);
      this.#keyed[rid] = keyed ? 1 : 0;
      if (catchup.archiveMs > 0) this.#archives.set(rid, catchup.archiveMs);
      if (catchup.archiveMs > 0) this.#archiveOldest = Math.min(this.#archiveOldest, this.#now - catchup.archiveMs);
      const keyId = keyed ? this.#keyChannel(channel.guideKey!) : null;
      if (keyId !== null) this.#keepArchive(keyId, catchup.archiveMs);
      this.#tally.streams += writeChannelRows(this.#sql, channel, rid, keyId, catchup.json, this.#channelHead);
    });
  }

  setGuideKey(channelId: string, guideKey: string): void {
    this.#run('setting a guide key', () => {
      // Like addChannel: once sealed, programmes of keys no channel showed were already dropped.
      if (this.#sealed) throw new Error('setGuideKey after sealChannels()');
      const rid = this.#channels.get(channelId);
      if (rid === undefined) throw new Error(`setGuideKey: no channel "${String(channelId).slice(0, 80)}" was added`);
      if (this.#keyed[rid] === 1) throw new Error(`setGuideKey: channel "${channelId}" already has a guide key`);
      if (typeof guideKey !== 'string' || guideKey === '') throw new Error('setGuideKey: the guide key is empty');
      this.#keyed[rid] = 1;
      const keyId = this.#keyChannel(guideKey);
      this.#keepArchive(keyId, this.#archives.get(rid) ?? 0);
      this.#sql.channelKey.run(clip(guideKey, LIMITS.key), keyId, rid);
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
      const names = guideNamesJson(channel);
      const keyId = this.#keyId(channel.id);
      const icon = channel.icon ? clip(channel.icon, LIMITS.url) : null;
      const url = channel.url ? clip(channel.url, LIMITS.url) : null;
      this.#sql.guideChannel.run(names, icon, url, priority, keyId, priority);
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
      const dayCap = this.#dayCap;
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
          } else if (dayCap.admit(keyId, start)) {
            days.add(keyId, start, stop, video);
            tally.keyProgrammes.set(keyId, (tally.keyProgrammes.get(keyId) ?? 0) + 1);
          } else {
            // Past its day's cap: counted in dropped.overDayCap, not among the programmes written.
            written--;
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
      const beforeMerge = this.#dayCap.dropped;
      const result = finishLiveTv(this.#db, this.#tally, this.#days, this.#merging, keepFrom, this.#dayCap);
      const overDayCap = this.#dayCap.report((id) => this.#keyName(id));
      const report = finishReport(
        result,
        { ...this.#dropped, overDayCap: beforeMerge },
        this.#written,
        input,
        this.#startedAt,
        overDayCap,
      );
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

  /** The guide key of `keyId` (a scan of every key: once per import, to name it in a warning). */
  #keyName(keyId: number): string | undefined {
    for (const [key, id] of this.#keyIds) if (id === keyId) return key;
    return undefined;
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

function checkPriority(priority: number): void {
  if (!Number.isSafeInteger(priority)) throw new Error(`priority must be an integer, got ${priority}`);
}
