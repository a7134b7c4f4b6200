/**
 * Judging one library file (or text source) on its own (docs/reliability.md): read it, parse it,
 * and when it cannot be read, holds no item or shrinks past the guard, fall back to the last good
 * copy stored with its last good import. A plan per file records how it went, for the store's
 * source states and the import's report.
 */
import { gzipSync } from 'node:zlib';
import { MarqueeError } from '../errors.js';
import { readCopyText, type SourceOptions, type SourceValidators } from '../sources/input/index.js';
import type { SourceWarning } from '../sources/records.js';
import {
  failureReason,
  type SourceAttempt,
  type SourceCounts,
  type SourceOutcome,
  type SourceState,
  type Store,
  shrinkReason,
  sourceKey,
  sourceLine,
  type YieldPolicy,
} from '../store/index.js';
import type { LibrarySourceReport } from './import-types.js';
import { libraryLabel, readLibraryLocation } from './location.js';

/** A warning as one line: file, line, field and message. */
export const where = (w: SourceWarning) =>
  `${w.source}${w.line === undefined ? '' : `:${w.line}`}${w.field === undefined ? '' : ` ${w.field}`}: ${w.message}`;

/** One library file (a file named in `files`, or one file of a folder named there), judged on its own. */
export interface FilePlan {
  readonly key: string;
  readonly path: string;
  /** What it is shown as: a URL with its credentials hidden. */
  readonly label: string;
  /** A text source's kind (`xtream`); a file's is `library`. */
  readonly kind?: string;
  readonly state: SourceState | undefined;
  outcome: SourceOutcome;
  reason?: string;
  counts?: SourceCounts;
  /** Imported: its text as gzip, the copy stored with the import. */
  fresh?: Buffer;
}

export interface Judge {
  readonly store: Store;
  readonly states: ReadonlyMap<string, SourceState>;
  readonly legacy: boolean;
  readonly policy: YieldPolicy;
  readonly maxFileBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly plans: FilePlan[];
  readonly source: SourceOptions | undefined;
  readonly previous: Readonly<Record<string, SourceValidators>>;
  /** Validators of the URLs read well in this import. */
  readonly validators: Record<string, SourceValidators>;
}

export type Parsed<T> = { value: T[]; count: number; warnings: SourceWarning[] };

/**
 * Reads, parses and judges one file (or a text source: `from`); falls back to its last good copy
 * when it is bad.
 */
export async function judgeFile<T>(
  j: Judge,
  path: string,
  parse: (text: string) => Parsed<T>,
  from?: {
    readonly key: string;
    readonly kind: string;
    read(): Promise<{ readonly text: string; readonly warnings?: readonly SourceWarning[] }>;
  },
): Promise<Parsed<T>> {
  const p = newPlan(j, path, from);
  let reason: string;
  try {
    // Asked "changed since?" only when an answer of "no" can be served: from its last good copy.
    const previous = hasCopy(p) ? j.previous[path] : undefined;
    const read:
      | { notModified: true }
      | { notModified: false; text: string; warnings?: readonly SourceWarning[]; validators?: SourceValidators } = from
      ? { ...(await from.read()), notModified: false }
      : await readLibraryLocation(path, {
          maxBytes: j.maxFileBytes,
          ...(j.source ? { source: j.source } : {}),
          ...(previous ? { previous } : {}),
        });
    if (read.notModified) {
      // Not changed since its last good read: its last good copy, counted as then.
      p.outcome = 'unchanged';
      if (p.state?.goodCounts) p.counts = p.state.goodCounts;
      j.validators[path] = previous!;
      const value = parse(await readCopyText(j.store.sourceCopy(p.key), p.label, j.maxFileBytes)).value;
      return { value, count: value.length, warnings: [] };
    }
    const text = read.text;
    const parsed = parse(text);
    if (read.warnings?.length) parsed.warnings.unshift(...read.warnings);
    const shrink = shrinkReason(p.state, 'items', 'items', parsed.count, j.policy, path, p.label);
    if (parsed.count > 0 && shrink === undefined) {
      p.counts = { items: parsed.count };
      p.fresh = gzipSync(Buffer.from(text, 'utf8'), { level: 1 });
      if (read.validators) j.validators[path] = read.validators;
      return parsed;
    }
    // The first item skipped says more than a harmless "unknown field ignored" before it.
    const first = parsed.warnings.find((w) => / skipped$/.test(w.message)) ?? parsed.warnings[0];
    reason =
      parsed.count > 0 && shrink !== undefined
        ? shrink
        : `holds no usable item${first ? ` (the first item skipped: ${where(first)})` : ''}`;
  } catch (error) {
    reason = failureReason(error, p.label, j.signal);
  }
  bad(j, p, reason);
  const value = await fromCopy(j, p, (text) => parse(text).value);
  return { value, count: value.length, warnings: [] };
}

export function newPlan(j: Judge, path: string, source?: { readonly key: string; readonly kind: string }): FilePlan {
  const key = source?.key ?? sourceKey('library', path);
  const p: FilePlan = {
    key,
    path,
    label: source ? path : libraryLabel(path),
    ...(source ? { kind: source.kind } : {}),
    state: j.states.get(key),
    outcome: 'imported',
  };
  j.plans.push(p);
  return p;
}

export function bad(j: Judge, p: FilePlan, reason: string): void {
  if (j.legacy) {
    throw new MarqueeError(
      'IMPORT_FAILED',
      `library file ${p.label} ${reason}; nothing was imported (this store has no last good copy of its files yet), ` +
        'the previous library is still served',
      { details: { source: p.label } },
    );
  }
  p.outcome = hasCopy(p) ? 'kept' : 'none';
  p.reason = reason;
}

/** Does the file have a last good copy (stored with a good import) to fall back on? */
export const hasCopy = (p: FilePlan) => p.state?.copyBytes !== undefined && p.state.goodAt !== undefined;

/** What a bad file's last good copy holds (nothing when it has none). */
export async function fromCopy<T>(j: Judge, p: FilePlan, parse: (text: string) => T[]): Promise<T[]> {
  if (p.outcome !== 'kept') return [];
  return parse(await readCopyText(j.store.sourceCopy(p.key), p.label, j.maxFileBytes));
}

export function attemptOf(p: FilePlan, withCopy: boolean): SourceAttempt {
  return {
    key: p.key,
    kind: p.kind ?? 'library',
    label: p.label,
    outcome: p.outcome,
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    // Unchanged: counted as at its last good read, which stays its last good.
    ...(p.counts !== undefined && (p.outcome === 'imported' || p.outcome === 'unchanged') ? { counts: p.counts } : {}),
    ...(withCopy && p.fresh ? { copy: [p.fresh] } : {}),
  };
}

export function reportOf(p: FilePlan, now: number): LibrarySourceReport {
  const badly = p.outcome === 'kept' || p.outcome === 'none';
  const state = p.state && badly ? { ...p.state, keptSince: p.state.keptSince ?? now } : p.state;
  return {
    location: p.label,
    outcome: p.outcome,
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    ...(badly ? { message: sourceLine(attemptOf(p, false), state) } : {}),
    ...(p.counts !== undefined ? { counts: p.counts } : {}),
    ...(p.state?.goodAt !== undefined ? { lastGood: { at: p.state.goodAt, counts: p.state.goodCounts ?? {} } } : {}),
    ...(badly ? { keptSince: state?.keptSince ?? now } : {}),
  };
}
