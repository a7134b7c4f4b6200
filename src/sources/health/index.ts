export { looksOffline, OFFLINE_MIN_HOSTS, OFFLINE_SHARE, type OfflineFinding } from './offline.js';
export { type CheckOptions, type CheckReport, checkStreams, DEFAULT_PAUSE_MS, type StreamCheck } from './pass.js';
export {
  HEAD_BYTES,
  HEALTH_USER_AGENT,
  type HealthState,
  type NetworkFailure,
  type ProbeOptions,
  type ProbeOutcome,
  type ProbeSkip,
  type ProbeVerdict,
  probeStream,
  type StreamTarget,
} from './probe.js';
export { createHostSlots, type HostSlots, type Lease } from './slots.js';
export { hlsPlaylist, type Sniffed, sniff } from './sniff.js';
