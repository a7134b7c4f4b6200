export type { LibraryImport } from './library/import.js';
export { LIBRARY_MAX_PAGE } from './library/read.js';
export { ftsQuery } from './library/search.js';
export {
  type AddonManifestRow,
  type AddonManifestUpdate,
  type Audience,
  LIBRARY_SORTS,
  type LibraryCommitInput,
  type LibraryCounts,
  type LibraryGenre,
  type LibraryImportOptions,
  type LibraryImportReport,
  type LibraryPageQuery,
  type LibrarySort,
} from './library/types.js';
export { DEFAULT_MAX_PROGRAMMES_PER_DAY } from './livetv/day-cap.js';
export type { StoredProgramme } from './livetv/guide-days.js';
export {
  HEALTH_IMPORT_KIND,
  type HealthChange,
  type HealthChangeRow,
  type HealthCounts,
  type HealthResult,
  type HealthTarget,
  type StreamHealth,
  type StreamHealthState,
} from './livetv/health.js';
export type { HealthPassInput } from './livetv/health-record.js';
export type { LiveTvImport } from './livetv/import.js';
export type { ChannelMatch, ChannelMatchInput, MatchCandidate } from './livetv/matches.js';
export { parseUtcDay } from './livetv/read.js';
export { normalizeName, programmeRow, TITLED_TAIL } from './livetv/rows.js';
export type {
  CatchupStream,
  ChannelHead,
  ChannelInput,
  ChannelQuery,
  ChannelRow,
  CommitInput,
  GroupRow,
  GuideChannelRow,
  GuideDayChannel,
  GuideDayQuery,
  GuideDayRawChannel,
  ImportRecord,
  ImportStatus,
  LiveTvCounts,
  LiveTvDropped,
  LiveTvImportOptions,
  LiveTvImportReport,
  OverDayCap,
  ProgrammeRow,
  StreamInput,
  StreamRow,
} from './livetv/types.js';
export {
  bumpMinor,
  describeManifestChange,
  lastManifestChange,
  type ManifestChange,
  type ManifestRecord,
  manifestChanges,
  manifestFacts,
  recordManifest,
} from './manifest-changes.js';
export { APPLICATION_ID } from './migrate.js';
export { removeStoreFiles } from './remove.js';
export {
  acceptsShrink,
  DEFAULT_MIN_YIELD_RATIO,
  failedAreaAttempts,
  failureReason,
  formatCount,
  formatCounts,
  formatTime,
  isShrink,
  shrinkReason,
  sourceLine,
  type YieldPolicy,
  yieldPolicy,
} from './source-judge.js';
export {
  copiesDir,
  type SourceAttempt,
  type SourceCounts,
  type SourceOutcome,
  type SourceState,
  sourceKey,
} from './sources.js';
export { openStore, type Store, type StoreContext, type StoreOptions } from './store.js';
