export { handleHostedConfigure, summaryLine } from './configure.js';
export {
  createHostedHandler,
  type HostedHandler,
  type HostedHandlerOptions,
  PENDING_CACHE_CONTROL,
} from './handler.js';
export {
  importSourceSet,
  type SetCounts,
  type SetImportOptions,
  type SetImportResult,
  type SetProblem,
  type SetProgress,
  userAddressPolicy,
} from './import.js';
export { importInWorker } from './import-worker.js';
export { openRegistry, REGISTRY_FILE, readRegistry, type SetRecord } from './registry.js';
export { createHostedService, scrub } from './service.js';
export {
  HOSTED_FIELDS,
  type HostedSources,
  readHostedSources,
  setKeySecret,
  sourceSetKey,
  sourcesToConfig,
  xtreamAccountOf,
} from './sources.js';
export type { HostedManifestBase, HostedOptions, HostedService, SetUse, UseOptions } from './types.js';
