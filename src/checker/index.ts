// The public surface of checker/: run a conformance check of any add-on and render its report.
// Internal steps (requester, catalog/guide/item crawls, HTTP rules) are not re-exported.

export { type FormatOptions, formatGithub, formatReport } from './format.js';
export { isCacheControlSyntax } from './http-rules.js';
export { reportExitCode, runCheck } from './run.js';
export {
  CHECKS,
  type CheckId,
  type CheckOptions,
  type CheckProgress,
  type CheckReport,
  type CheckSummary,
  DEFAULT_OPTIONS,
  type FetchLike,
  type Finding,
  type FindingPlace,
  OPTION_FLAGS,
  type RequestStats,
  type Severity,
} from './types.js';
