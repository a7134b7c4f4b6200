/**
 * Channel ↔ guide matching. The exact rules, first that hits wins: an operator override; the
 * tvg-id (ignoring case); the tvg-id with an iptv-org `@feed` suffix stripped on either side; the
 * tvg-name (or name) equal to a display-name ignoring case; names that read the same once prefixes,
 * tags, notes, case, accents and script are set aside (matcher/read-name.ts). When none hits, the
 * scored stage (matcher/) compares the names with every display-name of the guide channels.
 *
 * Two halves: `MatchDemand` knows the playlist channels and answers, while a guide streams,
 * "could any channel match this guide channel, and with which time shifts?" (so programmes
 * nobody shows are skipped and shifted copies are made on the way); `GuideIndex` collects the
 * guide channels and resolves each channel's guide key once every guide has been read.
 */
export { GuideIndex, type Resolution } from './guide-index.js';
export { MatchDemand } from './match-demand.js';
export {
  baseId,
  DEFAULT_MATCHING,
  type Matching,
  type MatchRule,
  type MatchSubject,
  matchingOf,
  matchName,
  type Overrides,
  shiftedKey,
  subjectForms,
} from './match-subject.js';
