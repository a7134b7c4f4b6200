/**
 * One guide streamed into an open import: bytes → readXmltv batches (parsed in a thread of their
 * own where that helps: sources/xmltv/thread.ts) → store, one batch at a time
 * (the async generator is the backpressure, so the guide is never whole in memory). Guide
 * channels are recorded as they come; XMLTV lists channels before programmes, so by the time a
 * programme arrives its channel's display names are known and the programme is kept only when
 * some playlist channel could show it, once per time shift those channels need.
 */
import type { SourceStream, SourceValidators } from '../sources/input/index.js';
import { redactLocation } from '../sources/input/index.js';
import type { Programme } from '../sources/records.js';
import {
  type ReadXmltvOptions,
  readXmltvInThread,
  type SpareXmltvThread,
  type XmltvBatch,
  type XmltvLimits,
  xmltvThreadUsed,
} from '../sources/xmltv/index.js';
import type { LiveTvImport } from '../store/index.js';
import { type GuideIndex, type MatchDemand, shiftedKey } from './match.js';
import { validatorsOf } from './sources.js';
import type { GuideSource, ImportProgress, ImportWarning, SourceReport } from './types.js';

const HOUR = 3_600_000;
/** How often LiveTvImportOptions.onInflatedGuideBytes is called, in inflated bytes. */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;

export interface GuideContext {
  readonly imp: LiveTvImport;
  /** LiveTvImportOptions.parseThread. */
  readonly parseThread?: boolean;
  /** A parsing thread started ahead, for the first guide read in a thread. */
  readonly spareThread?: SpareXmltvThread;
  /** LiveTvImportOptions.onInflatedGuideBytes. */
  readonly onInflatedGuideBytes?: () => void;
  readonly demand: MatchDemand;
  readonly index: GuideIndex;
  /** Guide keys that received at least one programme (shifted keys included). */
  readonly keysWritten: Set<string>;
  /** Guide channel ids some playlist channel could show, as the guides streamed (their programmes were kept). */
  readonly wanted: Set<string>;
  readonly warn: (warning: ImportWarning) => void;
  readonly onProgress?: (progress: ImportProgress) => void;
  readonly signal?: AbortSignal;
  /** The store keeps programmes overlapping [from, to) (retention and horizon): only those make a channel matched. */
  readonly window: { readonly from: number; readonly to: number };
  /** Programmes skipped because no playlist channel could show their guide channel. */
  unwanted: number;
  /** The guide reader's count and length limits (the import's entry limits). */
  readonly limits?: Partial<XmltvLimits>;
}

/** What one guide yielded, for judging it (docs/reliability.md). */
export interface GuideTally {
  /** Programmes read with a valid start and stop (the reader skips the others). */
  programmes: number;
  /** Whether anything of this guide reached the import yet (then only a new import undoes it). */
  added: boolean;
  /** Programmes in the served window, per guide key they were stored under. */
  readonly inWindow: Map<string, number>;
  /** Programmes in the served window, whether a channel shows them or not. */
  inWindowAll: number;
  /** The earliest start and the latest stop of its programmes (epoch ms), to say why none is in the window. */
  earliestStart: number;
  latestStop: number;
  /** Its guide channel ids: declared, or only seen on programmes. */
  readonly channelIds: Set<string>;
}

export function newGuideTally(): GuideTally {
  return {
    programmes: 0,
    added: false,
    inWindow: new Map(),
    inWindowAll: 0,
    earliestStart: Number.POSITIVE_INFINITY,
    latestStop: Number.NEGATIVE_INFINITY,
    channelIds: new Set(),
  };
}

/**
 * The batches of `source`, whose (inflated) bytes are told to `count` as they are parsed. In a
 * thread of its own when `ctx.parseThread` asks for one (xmltvThreadUsed): the bytes as read go
 * there and are inflated there, so a gzip guide's inflated bytes never enter this thread's heap.
 * A source that cannot hand them over (an Xtream guide, peeked at) is inflated here, and is parsed
 * in the thread only with `ctx.onInflatedGuideBytes`, called every 16 MiB inflated: the inflated
 * chunks handed on are memory outside the heap that this thread otherwise collects late.
 */
function readerOf(
  ctx: GuideContext,
  source: SourceStream,
  options: ReadXmltvOptions,
  count: (bytes: number) => void,
): AsyncGenerator<XmltvBatch, void, undefined> {
  if (source.undecoded !== undefined && xmltvThreadUsed(ctx.parseThread)) {
    const undecoded = source.undecoded();
    return readXmltvInThread(undecoded.chunks, options, true, {
      inflate: undecoded.inflate,
      ownChunks: undecoded.ownChunks,
      onBytes: count,
      ...(ctx.spareThread ? { spare: ctx.spareThread } : {}),
    });
  }
  let inflatedForThread = false;
  let bytes = 0;
  let collectAt = COLLECT_EVERY_BYTES;
  const counted = (async function* () {
    for await (const chunk of source) {
      bytes += chunk.byteLength;
      count(chunk.byteLength);
      if (inflatedForThread && bytes >= collectAt) {
        collectAt = bytes + COLLECT_EVERY_BYTES;
        ctx.onInflatedGuideBytes?.();
      }
      yield chunk;
    }
  })();
  return readXmltvInThread(counted, options, () => {
    if (!source.inflated) return ctx.parseThread;
    if (ctx.onInflatedGuideBytes === undefined) return false;
    inflatedForThread = xmltvThreadUsed(ctx.parseThread);
    return inflatedForThread;
  });
}

/**
 * Streams guide `guide`, open as `source`, with priority `priority` into `ctx.imp`, counting what
 * it yields in `tally`. Closes `source`.
 * @example await importGuide(ctx, { location: 'guide.xml.gz' }, 0, await openSource('guide.xml.gz'), newGuideTally())
 */
export async function importGuide(
  ctx: GuideContext,
  guide: GuideSource & { readonly namedBy?: string },
  priority: number,
  source: SourceStream,
  tally: GuideTally,
): Promise<{ report: SourceReport; validators?: SourceValidators }> {
  const started = performance.now();
  const label = redactLocation(guide.location);

  let bytes = 0;
  let records = 0;
  let warnings = 0;
  let textsCut = 0;
  const totalBytes = source.metadata.byteLength;
  // Per guide channel id: the shifts it is wanted with ([] = nobody shows it).
  const wanted = new Map<string, readonly number[]>();
  const declared = new Set<string>();
  try {
    const options = {
      source: label,
      // A guide a playlist named, not the operator: its answer is never quoted in errors.
      ...(guide.namedBy !== undefined ? { quote: false } : {}),
      ...(guide.shiftHours !== undefined ? { shiftHours: guide.shiftHours } : {}),
      ...(ctx.limits !== undefined ? { limits: ctx.limits } : {}),
    };
    const reader = readerOf(ctx, source, options, (n) => {
      bytes += n;
    });
    for await (const batch of reader) {
      ctx.signal?.throwIfAborted();
      for (const channel of batch.channels) {
        const forms = ctx.index.add(channel, priority);
        tally.added = true;
        ctx.imp.addGuideChannel(channel, priority);
        declared.add(channel.id);
        tally.channelIds.add(channel.id);
        const names = channel.displayNames.map((n) => n.text);
        const shifts = [...ctx.demand.shiftsFor(channel.id, names, forms)];
        wanted.set(channel.id, shifts);
        if (shifts.length > 0) ctx.wanted.add(channel.id);
      }
      const keep: Programme[] = [];
      const { from, to } = ctx.window;
      for (const p of batch.programmes) {
        if (p.stop > from && p.start < to) tally.inWindowAll++;
        if (p.start < tally.earliestStart) tally.earliestStart = p.start;
        if (p.stop > tally.latestStop) tally.latestStop = p.stop;
        let shifts = wanted.get(p.channelId);
        if (shifts === undefined) {
          // A programme whose channel was not declared (yet): only its id can match. When nothing
          // wants it, keep it unshifted anyway: a later <channel> may still name it, and the store
          // drops guide data no channel shows at commit.
          ctx.index.add({ id: p.channelId, displayNames: [] }, priority);
          tally.channelIds.add(p.channelId);
          const byId = [...ctx.demand.shiftsFor(p.channelId)];
          shifts = byId.length > 0 ? byId : [0];
          wanted.set(p.channelId, shifts);
        }
        if (shifts.length === 0) {
          ctx.unwanted++;
          continue;
        }
        for (const shift of shifts) {
          if (shift === 0) keep.push(p);
          else
            keep.push({
              ...p,
              channelId: shiftedKey(p.channelId, shift),
              start: p.start + shift * HOUR,
              stop: p.stop + shift * HOUR,
            });
        }
      }
      if (keep.length > 0) {
        tally.added = true;
        ctx.imp.addProgrammes(keep, priority);
        for (const p of keep) {
          if (p.stop > from && p.start < to && p.stop > p.start) {
            ctx.keysWritten.add(p.channelId);
            tally.inWindow.set(p.channelId, (tally.inWindow.get(p.channelId) ?? 0) + 1);
          }
        }
      }
      records += batch.programmes.length;
      textsCut += batch.textsCut ?? 0;
      tally.programmes += batch.programmes.length;
      warnings += batch.warnings.length;
      for (const w of batch.warnings)
        ctx.warn({ source: w.source, ...(w.line !== undefined ? { line: w.line } : {}), message: w.message });
      ctx.onProgress?.({
        phase: 'guide',
        source: label,
        bytes,
        ...(totalBytes !== undefined ? { totalBytes } : {}),
        records: records + declared.size,
      });
    }
  } finally {
    source.close();
  }
  const validators = validatorsOf(source.metadata);
  const report: SourceReport = {
    kind: 'guide',
    location: label,
    status: 'fetched',
    outcome: 'imported',
    bytes,
    durationMs: Math.round(performance.now() - started),
    records,
    warnings,
    ...(textsCut > 0 ? { textsCut } : {}),
    ...(guide.namedBy !== undefined ? { namedBy: guide.namedBy } : {}),
  };
  return validators === undefined ? { report } : { report, validators };
}
