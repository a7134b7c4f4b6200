export { RELAY_USER_AGENT, type UpstreamPolicy } from './fetch.js';
export { mediaKind, needsRelay, type RelayLinkOptions, type RelayMode, relayLinks } from './links.js';
export { type LookupOptions, lookUp } from './lookup.js';
export { createRelay, type Relay, type RelayOptions, type SourceLimit } from './relay.js';
export {
  type RelayStatus,
  readRelayStatus,
  relayStatusFile,
  type StatusWriter,
  writeRelayStatus,
} from './status-file.js';
export { type RelayTokenPayload, type RelayTokens, relayTokens } from './token.js';
export {
  DEFAULT_RELAY_LIMITS,
  type RelayLimits,
  type RelayLog,
  type RelaySessionInfo,
  type RelayStream,
  type RelayTarget,
} from './types.js';
