/**
 * Steps 3 to 5 of one pass of the live-TV import: the guides streamed in priority order, the
 * channels matched once every guide channel is known, and the guides read from their sources
 * judged by what they yield. In a function of its own: what matching holds while the guides
 * stream (the playlist's names indexed, the guide index) is garbage once it returns, before the
 * commit (a pass held it through the commit: 136 MB more for 300,000 channels, issue 48). The
 * playlist side's index is built when the first guide channel needs it: an import without a
 * guide never builds it.
 */
import { entryLimits } from '../sources/entry-limits.js';
import type { SourceOptions, SourceStream } from '../sources/input/index.js';
import { type SpareXmltvThread, xmltvLimitsOf } from '../sources/xmltv/index.js';
import type { LiveTvImport } from '../store/index.js';
import type { GuideContext } from './guide.js';
import { nothingReason } from './guide-yield.js';
import { type GuideReader, LARGE_IMPORT_CHANNELS, passGuide } from './import-pass.js';
import type { WorkDir } from './import-work.js';
import { GuideIndex, MatchDemand, type Matching, type Overrides } from './match.js';
import { keepForReview, type ReviewGuide } from './match-review.js';
import { type EntryList, type MatchChannel, type MatchOutcome, matchChannels } from './match-step.js';
import type { DecorationReport } from './matcher/index.js';
import { type GuidePlan, type Judging, judgeGuide } from './plan.js';
import type { ImportWarning, LiveTvImportOptions } from './types.js';

const HOUR = 3_600_000;

export interface GuidesInput {
  readonly j: Judging;
  readonly imp: LiveTvImport;
  readonly pass: number;
  readonly guides: readonly GuidePlan[];
  readonly subjects: readonly MatchChannel[];
  readonly entries: EntryList;
  readonly overrides: Overrides;
  readonly matching: Matching;
  readonly options: LiveTvImportOptions;
  readonly sourceOptions: (location: string) => SourceOptions;
  readonly work: WorkDir;
  readonly now: number;
  readonly maxListed: number;
  readonly warn: (warning: ImportWarning) => void;
  readonly spare?: SpareXmltvThread;
  /** The channels of guides judged bad in an earlier pass, for the review of matches. */
  readonly review: readonly ReviewGuide[];
  /** The first guide's stream, when the refresh check opened it already (taken by `take`). */
  readonly opened: (location: string) => SourceStream | undefined;
  /** Says what is being read, for the failure message. */
  readonly reading: (what: string) => void;
}

export type GuidesOutcome =
  /** A guide was judged bad: a new pass starts from local copies (with these channels for review). */
  | { readonly redo: true; readonly review: ReviewGuide[] }
  | (Omit<MatchOutcome, 'keysShown' | 'guidesShown'> & {
      readonly redo: false;
      /** Programmes skipped because no playlist channel could show their guide channel. */
      readonly unwanted: number;
      /** What each playlist was found to write around its names, by source (for its report). */
      readonly decorations: ReadonlyMap<string, DecorationReport>;
    });

/** Streams the guides into `input.imp`, matches its channels and judges the guides (steps 3-5 of a pass). */
export async function importGuides(input: GuidesInput): Promise<GuidesOutcome> {
  const { j, imp, pass, guides, subjects, options, now } = input;
  let demand: MatchDemand | undefined;
  const demandOf = () => {
    if (demand === undefined) {
      const large = subjects.length >= LARGE_IMPORT_CHANNELS;
      demand = new MatchDemand(subjects, input.overrides, input.matching, large ? options.onLargeGarbage : undefined);
      if (large) options.onLargeGarbage?.();
    }
    return demand;
  };

  // 3. Guides, streamed in priority order.
  imp.setGuideSources(guides.length);
  const ctx: GuideContext = {
    imp,
    ...(options.parseThread !== undefined ? { parseThread: options.parseThread } : {}),
    ...(input.spare !== undefined ? { spareThread: input.spare } : {}),
    ...(options.onInflatedGuideBytes ? { onInflatedGuideBytes: options.onInflatedGuideBytes } : {}),
    get demand() {
      return demandOf();
    },
    index: new GuideIndex(input.matching),
    keysWritten: new Set(),
    wanted: new Set(),
    warn: input.warn,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    window: {
      from: now - (options.retentionHours ?? 48) * HOUR,
      to: now + (options.horizonDays ?? 14) * 24 * HOUR,
    },
    unwanted: 0,
    limits: xmltvLimitsOf(entryLimits(options.limits)),
  };
  let redo = false;
  for (const [index, guide] of guides.entries()) {
    input.reading(guide.label);
    const reader: GuideReader = {
      j,
      ctx,
      work: input.work,
      options: input.sourceOptions,
      previous: options.previous,
    };
    if (await passGuide(reader, guide, index, input.opened(guide.location))) redo = true;
  }

  // 4. Matching, now that every guide channel is known, and the channels themselves. Without a
  // guide there is nothing to match, nor to confirm what the playlists write around their names.
  input.reading(j.store.file);
  options.onGuidesRead?.();
  const words = ctx.index.words();
  const decorations = demand?.decorations(words) ?? new Map<string, DecorationReport>();
  const { keysShown, guidesShown, ...outcome } = matchChannels(
    {
      imp,
      index: ctx.index,
      subjects,
      entries: input.entries,
      overrides: input.overrides,
      keysWritten: ctx.keysWritten,
      wanted: ctx.wanted,
      maxListed: input.maxListed,
      warn: input.warn,
      formsOf: (i) => demand?.formsOf(i),
      learnedFormsOf: (i) => demand?.learnedFormsOf(i, words),
      sourceCountry: (source) => decorations.get(source)?.country,
      ...(subjects.length >= LARGE_IMPORT_CHANNELS && options.onLargeGarbage
        ? { collect: options.onLargeGarbage }
        : {}),
      review: input.review,
    },
    input.matching.margin,
  );

  // 5. The guides read from their sources are judged by what they yield for our channels.
  for (const g of guides) {
    if (g.tally === undefined || g.from === 'copy' || g.from === 'none') continue;
    let matched = 0;
    for (const key of keysShown) matched += g.tally.inWindow.get(key) ?? 0;
    if (pass === 1 && g.outcome === 'imported') {
      const yieldContext = {
        index: ctx.index,
        get demand() {
          return demandOf();
        },
        subjects,
        window: ctx.window,
        shown: guidesShown,
      };
      judgeGuide(j, g, matched, () => nothingReason(g.tally!, matched, yieldContext));
      if (g.outcome !== 'imported') redo = true;
    } else if (g.outcome === 'imported') {
      g.counts = { programmes: matched, read: g.tally.programmes };
    }
  }
  if (!redo) return { ...outcome, redo: false, unwanted: ctx.unwanted, decorations };
  // Their channels stay at hand for the review of matches (ids and names to pin them by).
  const review = keepForReview(
    guides.flatMap((g) =>
      g.outcome !== 'imported' && g.tally ? [{ label: g.label, channelIds: g.tally.channelIds }] : [],
    ),
    ctx.index,
    options.maxReviewChannels,
  );
  return { redo: true, review };
}
