export { HEALTH_DEFAULTS, type HealthPassOptions, type HealthPassResult, runHealthPass } from './health.js';
export { DEFAULT_FAILURES_BEFORE_DEAD, type HealthServing, offlineNote, orderByHealth } from './health-view.js';
export { CHANNEL_PREFIX, slugify } from './ids.js';
export { importLiveTv } from './import.js';
export { baseId, matchName } from './match.js';
export type { DecorationReport } from './matcher/index.js';
export { createLiveTvPart, GUIDE_CACHE, LIST_CACHE, type LiveTvPartOptions } from './part.js';
export { createRefresher, liveTvRefreshJob, type Refresher, type RefresherOptions } from './refresh.js';
export type { StreamRelay } from './stream-relay.js';
export type {
  GuideSource,
  ImportPhase,
  ImportProgress,
  ImportWarning,
  LiveTvImportOptions,
  LiveTvImportResult,
  MatchCounts,
  PlaceholderOptions,
  PlaylistReader,
  PlaylistSource,
  SourceReport,
  SourceState,
} from './types.js';
