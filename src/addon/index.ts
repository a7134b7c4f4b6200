export {
  answerBytes,
  DEFAULT_MAX_ANSWER_BYTES,
  itemsWithin,
  MAX_ANSWER_BYTES_SETTING,
  MIN_ANSWER_BYTES,
} from './answer-bytes.js';
export { type AddonPart, type BaseManifest, composeAddon } from './compose.js';
export {
  type AnyConfigCodec,
  type AsyncConfigCodec,
  type ConfigCodec,
  type ConfigProblem,
  coerceConfig,
  jsonConfigCodec,
  readConfig,
} from './config.js';
export { type Addon, type AddonOptions, type AnyAddon, createAddon } from './create-addon.js';
export { readCatalogExtra } from './extra.js';
export { guideDayWindow, overlapsGuideDay, page, programmeId } from './paging.js';
export {
  allocRawJsonList,
  createFramePool,
  type FramePool,
  isRawJsonList,
  parseRawJson,
  parseRawJsonList,
  type RawJsonList,
  rawJsonList,
  serializeBody,
  serializeBodyLease,
} from './raw-json.js';
export type * from './types.js';
export { type WarmUpOptions, type WarmUpResult, warmUp } from './warm.js';
