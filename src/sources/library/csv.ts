import { MarqueeError } from '../../errors.js';
import type { SourceWarning } from '../records.js';
import { assembleLibrary, type FieldLocation, formatPath, type ItemCandidate } from './assemble.js';
import { type Column, columnFor, columnIdentity, convertCell } from './csv-columns.js';
import { type CsvRow, parseCsv } from './csv-parse.js';
import { generatedItemId, itemYear } from './id.js';
import { checkTextSize, type LibraryReadOptions, type LibraryReadResult, resolveOptions } from './options.js';

/**
 * CSV library files: one row per movie or series, one row per episode (rows with `series_id`,
 * attached to the series row whose id — given or generated — it names, wherever it stands in
 * the file). Problems name the line and the column of the cell.
 */

interface HeaderColumn {
  readonly index: number;
  readonly header: string;
  readonly column: Column;
}

/** One data row turned into a raw item or episode, with where each of its fields was written. */
interface RowObject {
  readonly line: number;
  readonly raw: Record<string, unknown>;
  readonly seriesId: string;
  readonly locations: Map<string, FieldLocation>;
}

function readHeader(row: CsvRow, source: string, warnings: SourceWarning[]): HeaderColumn[] {
  const columns: HeaderColumn[] = [];
  const seen = new Map<string, string>();
  for (const [index, cell] of row.cells.entries()) {
    const header = cell.value.trim();
    if (header === '') continue;
    const at = { source, line: row.line, field: header };
    const column = columnFor(header);
    if (column === undefined) {
      warnings.push({ ...at, message: `column ${index + 1} "${header}" is not a library field; ignored` });
      continue;
    }
    const first = seen.get(columnIdentity(column));
    if (first !== undefined) {
      warnings.push({ ...at, message: `column ${index + 1} "${header}" repeats "${first}"; ignored` });
      continue;
    }
    seen.set(columnIdentity(column), header);
    columns.push({ index, header, column });
  }
  const has = (path: string) => columns.some((c) => c.column.kind === 'field' && c.column.path.join('.') === path);
  for (const required of ['type', 'name']) {
    if (!has(required)) {
      throw new MarqueeError('SOURCE_INVALID', `${source}:${row.line}: the header row has no "${required}" column`, {
        details: { source, line: row.line, field: required },
      });
    }
  }
  return columns;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

function readRow(row: CsvRow, columns: HeaderColumn[], source: string, warnings: SourceWarning[]): RowObject {
  const seriesCell = columns.find((c) => c.column.kind === 'seriesId');
  const seriesId = seriesCell === undefined ? '' : (row.cells[seriesCell.index]?.value.trim() ?? '');
  const isEpisode = seriesId !== '';
  const raw: Record<string, unknown> = {};
  const locations = new Map<string, FieldLocation>();
  const groups = new Map<string, Map<number, { value: Record<string, unknown>; cells: [string[], FieldLocation][] }>>();
  for (const { index, header, column } of columns) {
    const cell = row.cells[index];
    const text = cell?.value.trim() ?? '';
    if (column.kind === 'seriesId' || cell === undefined || text === '') continue;
    const at: FieldLocation = { line: cell.line, field: header, column: index + 1 };
    if (column.scope !== 'both' && (column.scope === 'episode') !== isEpisode) {
      const rowKind = isEpisode ? 'an episode row (it has series_id)' : 'a movie or series row';
      warnings.push({
        source,
        line: at.line,
        field: header,
        message: `column ${index + 1} (${header}) is not used on ${rowKind}; ignored`,
      });
      continue;
    }
    const value = convertCell(column.cell, text);
    if (column.kind === 'field') {
      setPath(raw, column.path, value);
      locations.set(formatPath(column.path), at);
      continue;
    }
    const byNumber = groups.get(column.array) ?? new Map();
    groups.set(column.array, byNumber);
    const group = byNumber.get(column.number) ?? { value: {}, cells: [] };
    byNumber.set(column.number, group);
    setPath(group.value, column.path, value);
    group.cells.push([[...column.path], at]);
  }
  // Numbered groups become consecutive array entries; an empty group leaves no gap.
  for (const [array, byNumber] of groups) {
    const ordered = [...byNumber.entries()].sort(([a], [b]) => a - b);
    raw[array] = ordered.map(([, g]) => g.value);
    for (const [k, [, g]] of ordered.entries()) {
      locations.set(formatPath([array, k]), g.cells[0]![1]);
      for (const [path, at] of g.cells) locations.set(formatPath([array, k, ...path]), at);
    }
  }
  return { line: row.line, raw, seriesId, locations };
}

/** The location of `path`, or of its nearest located parent (`genres[2]` → `genres`). */
function lookup(locations: Map<string, FieldLocation>, path: string): FieldLocation | undefined {
  for (let p = path; p !== ''; p = p.replace(/(\.[^.[\]]+|\[\d+\])$/, '')) {
    const at = locations.get(p);
    if (at !== undefined) return at;
    if (!/(\.[^.[\]]+|\[\d+\])$/.test(p)) break;
  }
  return undefined;
}

function itemIdOf(raw: Record<string, unknown>): string | undefined {
  if (typeof raw.id === 'string') return raw.id;
  if (typeof raw.type !== 'string' || typeof raw.name !== 'string') return undefined;
  return generatedItemId(raw.type, raw.name, itemYear(raw.released, raw.releaseInfo));
}

/** Raw items of a CSV text, episodes attached to their series, and the row-level warnings. */
export function csvCandidates(
  text: string,
  source: string,
  delimiter?: ',' | ';' | '\t',
): { candidates: ItemCandidate[]; warnings: SourceWarning[] } {
  const table = parseCsv(text, delimiter);
  const warnings: SourceWarning[] = table.problems.map((p) => ({ source, line: p.line, message: p.message }));
  const [headerRow, ...dataRows] = table.rows;
  if (headerRow === undefined) return { candidates: [], warnings };
  const columns = readHeader(headerRow, source, warnings);
  const width = headerRow.cells.length;
  const items: { row: RowObject; episodes: RowObject[] }[] = [];
  const episodes: RowObject[] = [];
  for (const row of dataRows) {
    if (row.cells.every((c) => c.value.trim() === '')) continue;
    const extra = row.cells.slice(width).some((c) => c.value.trim() !== '');
    if (row.cells.length < width || extra) {
      const message = `row has ${row.cells.length} fields, the header has ${width}; row skipped`;
      warnings.push({ source, line: row.line, message });
      continue;
    }
    const object = readRow(row, columns, source, warnings);
    if (object.seriesId === '') items.push({ row: object, episodes: [] });
    else episodes.push(object);
  }
  const byId = new Map<string, (typeof items)[number]>();
  for (const item of items) {
    const id = itemIdOf(item.row.raw);
    if (id !== undefined && !byId.has(id)) byId.set(id, item);
  }
  for (const episode of episodes) {
    const series = byId.get(episode.seriesId);
    const at = { source, line: episode.line, field: 'series_id' };
    if (series === undefined || series.row.raw.type !== 'series') {
      const why = series === undefined ? 'matches no item in this file' : 'is not a series';
      warnings.push({ ...at, message: `series_id "${episode.seriesId}" ${why}; episode skipped` });
      continue;
    }
    series.episodes.push(episode);
  }
  const candidates = items.map(({ row, episodes: eps }): ItemCandidate => {
    const raw = eps.length === 0 ? row.raw : { ...row.raw, videos: eps.map((e) => e.raw) };
    return {
      value: raw,
      source,
      line: row.line,
      label: 'row',
      locate: (path) => {
        const m = /^videos\[(\d+)\](.*)$/.exec(path);
        const episode = m === null ? undefined : eps[Number(m[1])];
        if (episode === undefined) return lookup(row.locations, path);
        const inner = m![2]!.replace(/^\./, '');
        const located = inner === '' ? undefined : lookup(episode.locations, inner);
        return located ?? { line: episode.line, field: inner === '' ? 'series_id' : inner };
      },
    };
  });
  return { candidates, warnings };
}

/**
 * Read a CSV library text (see docs/library-format.md for the columns).
 *
 * @example parseLibraryCsv('type,name,released\nmovie,Sintel,2010\n', { source: 'lib.csv' }).items[0].id // 'mq:movie-sintel-2010'
 */
export function parseLibraryCsv(text: string, options?: LibraryReadOptions): LibraryReadResult {
  const o = resolveOptions(options);
  checkTextSize(text, o);
  const { candidates, warnings } = csvCandidates(text, o.source, o.delimiter);
  const result = assembleLibrary(candidates, o);
  return { items: result.items, warnings: [...warnings, ...result.warnings] };
}
