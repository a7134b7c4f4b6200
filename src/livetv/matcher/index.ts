export { Decoration, type DecorationReport, type GuideWords } from './decoration.js';
export type { Learned, NameEdges } from './edges.js';
export { formOf, formsOfChannel, keyOf, type NameForm, TokenPool } from './form.js';
export { countryOfId, idStem } from './guide-ids.js';
export { GuideNames, type NameMatch, type ScoredMatch, type ScoredOptions } from './guide-names.js';
export { PlaylistNames } from './playlist-names.js';
export { countryOf, MAX_NAME, MAX_TOKENS, type NameReading, type ReadOptions, readName } from './read-name.js';
export { BETA, FEED, OPTIMISTIC, Scorer } from './score.js';
