/**
 * An atomic library import, built like the live-TV one: its own connection, ONE write
 * transaction that first empties the library tables and then fills them. Readers keep their
 * WAL snapshot of the previous library until COMMIT; a throw, an abort, a crash or a SIGKILL
 * before COMMIT leaves it untouched. Only library tables are emptied: live-TV data and the
 * add-on manifest cache are never touched by a library import.
 */
import { MarqueeError } from '../../errors.js';
import type { LibraryItem } from '../../sources/library/item.js';
import type { Connection } from '../connection.js';
import { storeError } from '../errors.js';
import { closeImportConnection, commitImport, openImportTransaction, rollbackImport } from '../import-transaction.js';
import { boundedDetails } from '../imports.js';
import { copiesDir, type SourceAttempt } from '../sources.js';
import { idPrefix, metaOf, minimalPrefixes, previewOf, searchTexts, sortKeys, videoOf } from './rows.js';
import type { LibraryCommitInput, LibraryCounts, LibraryImportOptions, LibraryImportReport } from './types.js';

/** The `imports.kind` of library imports. */
export const LIBRARY_IMPORT_KIND = 'library';

/** An open library import; nothing it adds is visible to readers before `commit`. */
export interface LibraryImport {
  /** Id of this import in the history. */
  readonly id: number;
  /** True once committed or aborted (or failed); every later call throws. */
  readonly finished: boolean;
  /** True when an item or episode with this id was added: check before `addItem` to skip duplicates. */
  hasId(id: string): boolean;
  /**
   * Adds an item with its episodes, streams and subtitles. A repeated item or episode id ends the
   * import (IMPORT_FAILED): callers skip duplicates with `hasId` first.
   *
   * @example imp.addItem(v.parse(LibraryItemSchema, { type: 'movie', name: 'Sintel', released: 2010 }))
   */
  addItem(item: LibraryItem): void;
  /** Makes the import the served library in one step. Fails (keeping the old library) when it holds no item. */
  commit(input?: LibraryCommitInput): LibraryImportReport;
  /**
   * Drops everything added; the previous library stays served and the failure is recorded with
   * `reason`, and with how each source's attempt went when `sources` is given.
   */
  abort(reason: string, sources?: readonly SourceAttempt[]): void;
}

export interface LibraryImportHost {
  readonly file: string;
  openWriter(busyTimeoutMs: number, cacheKiB: number): Connection;
  /** Called once when the import ends, whichever way. */
  ended(imp: LibraryImport): void;
}

/**
 * Starts a library import on a new connection, waiting (asynchronously) up to `lockTimeoutMs`
 * for another import to finish.
 *
 * @example const imp = await beginLibraryImport(host); imp.addItem(item); imp.commit()
 */
export async function beginLibraryImport(
  host: LibraryImportHost,
  options: LibraryImportOptions = {},
): Promise<LibraryImport> {
  const { db, id } = await openImportTransaction(host, {
    kind: LIBRARY_IMPORT_KIND,
    what: 'a library import',
    kept: 'the previous library',
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
    ...(options.cacheKiB !== undefined ? { cacheKiB: options.cacheKiB } : {}),
    clear: (writer) =>
      writer.exec(`
      DELETE FROM library_items; DELETE FROM library_genres; DELETE FROM library_episodes;
      DELETE FROM library_streams; DELETE FROM library_subtitles;
      INSERT INTO library_search (library_search) VALUES ('delete-all');`),
  });
  return new Import(host, db, id);
}

class Import implements LibraryImport {
  readonly id: number;
  #finished = false;
  readonly #host: LibraryImportHost;
  readonly #db: Connection;
  readonly #startedAt = Date.now();
  readonly #ids = new Set<string>();
  readonly #prefixes = new Set<string>();
  readonly #genres = new Set<string>();
  readonly #counts: { -readonly [K in keyof LibraryCounts]: number } = {
    items: 0,
    movies: 0,
    series: 0,
    episodes: 0,
    streams: 0,
    subtitles: 0,
    genres: 0,
    adult: 0,
  };
  readonly #sql;

  constructor(host: LibraryImportHost, db: Connection, id: number) {
    this.#host = host;
    this.#db = db;
    this.id = id;
    this.#sql = {
      item: db.prepare(
        'INSERT INTO library_items (rid, id, type, name_key, released, rating, adult, preview, meta) VALUES (?,?,?,?,?,?,?,?,?)',
      ),
      genre: db.prepare('INSERT OR IGNORE INTO library_genres (type, genre, item_rid, adult) VALUES (?,?,?,?)'),
      episode: db.prepare('INSERT INTO library_episodes (id, series_rid, season, episode, video) VALUES (?,?,?,?,?)'),
      stream: db.prepare('INSERT INTO library_streams (owner, ord, stream) VALUES (?,?,?)'),
      subtitle: db.prepare('INSERT INTO library_subtitles (owner, ord, subtitle) VALUES (?,?,?)'),
      search: db.prepare('INSERT INTO library_search (rowid, name, cast, director, description) VALUES (?,?,?,?,?)'),
    };
  }

  get finished(): boolean {
    return this.#finished;
  }

  hasId(id: string): boolean {
    return this.#ids.has(id);
  }

  addItem(item: LibraryItem): void {
    this.#run('adding an item', () => {
      this.#claim(item.id, 'item');
      const counts = this.#counts;
      const rid = ++counts.items;
      if (item.type === 'series') counts.series++;
      else counts.movies++;
      const adult = item.adult ? 1 : 0;
      counts.adult += adult;
      const keys = sortKeys(item);
      this.#sql.item.run(
        rid,
        item.id,
        item.type,
        keys.nameKey,
        keys.released,
        keys.rating,
        adult,
        JSON.stringify(previewOf(item)),
        JSON.stringify(metaOf(item)),
      );
      for (const genre of item.genres) {
        this.#sql.genre.run(item.type, genre, rid, adult);
        this.#genres.add(`${item.type}\n${genre}`);
      }
      this.#sql.search.run(rid, ...searchTexts(item));
      this.#media(item.id, item.streams, item.subtitles);
      for (const video of item.videos) {
        this.#claim(video.id, 'episode');
        this.#sql.episode.run(video.id, rid, video.season, video.episode, JSON.stringify(videoOf(video)));
        counts.episodes++;
        this.#media(video.id, video.streams, video.subtitles);
      }
    });
  }

  commit(input: LibraryCommitInput = {}): LibraryImportReport {
    return this.#run('committing', () => {
      const counts = this.#counts;
      if (counts.items === 0) {
        throw new MarqueeError(
          'IMPORT_FAILED',
          `the library import into ${this.#host.file} holds no item, so it was not applied; the previous library is still served`,
          { details: { file: this.#host.file } },
        );
      }
      counts.genres = this.#genres.size;
      const details = boundedDetails(input.details);
      const report: LibraryImportReport = {
        counts: { ...counts },
        types: [counts.movies > 0 ? 'movie' : '', counts.series > 0 ? 'series' : ''].filter((t) => t !== ''),
        idPrefixes: minimalPrefixes(this.#prefixes),
        warnings: input.warnings ?? 0,
        durationMs: Date.now() - this.#startedAt,
        ...(details === undefined ? {} : { details }),
      };
      commitImport(
        this.#db,
        this.id,
        report,
        input.sources
          ? { area: LIBRARY_IMPORT_KIND, attempts: input.sources, dir: copiesDir(this.#host.file) }
          : undefined,
      );
      this.#end();
      return report;
    });
  }

  abort(reason: string, sources?: readonly SourceAttempt[]): void {
    if (this.#finished) return;
    this.#fail(reason, sources);
  }

  #claim(id: string, what: string): void {
    if (typeof id !== 'string' || id === '') throw new Error(`${what} without id`);
    if (this.#ids.has(id)) throw new Error(`duplicate id "${id}" (${what})`);
    this.#ids.add(id);
    this.#prefixes.add(idPrefix(id));
  }

  #media(owner: string, streams: readonly unknown[], subtitles: readonly unknown[]): void {
    for (const [ord, stream] of streams.entries()) this.#sql.stream.run(owner, ord, JSON.stringify(stream));
    for (const [ord, subtitle] of subtitles.entries()) this.#sql.subtitle.run(owner, ord, JSON.stringify(subtitle));
    this.#counts.streams += streams.length;
    this.#counts.subtitles += subtitles.length;
  }

  /** Runs one step; any error ends the import (rolled back, recorded) and is rethrown as IMPORT_FAILED. */
  #run<T>(doing: string, step: () => T): T {
    if (this.#finished) {
      throw new MarqueeError('IMPORT_FAILED', `library import ${this.id} is already finished (while ${doing})`);
    }
    try {
      return step();
    } catch (error) {
      const reason =
        error instanceof MarqueeError
          ? error.message
          : error instanceof Error && !('code' in error)
            ? `library import into ${this.#host.file} failed while ${doing}: ${error.message}; the previous library is still served`
            : `${storeError(this.#host.file, error, doing).message} The previous library is still served.`;
      this.#fail(reason);
      throw error instanceof MarqueeError && error.code === 'IMPORT_FAILED'
        ? error
        : new MarqueeError('IMPORT_FAILED', reason, { cause: error, details: { file: this.#host.file } });
    }
  }

  #fail(reason: string, sources?: readonly SourceAttempt[]): void {
    rollbackImport(
      this.#db,
      this.id,
      reason,
      sources ? { area: LIBRARY_IMPORT_KIND, attempts: sources, dir: copiesDir(this.#host.file) } : undefined,
    );
    this.#end();
  }

  #end(): void {
    this.#finished = true;
    closeImportConnection(this.#db);
    this.#host.ended(this);
  }
}
