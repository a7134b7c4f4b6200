export { apiUrl, parseXtreamAccount, streamUrl, type XtreamAccount, type XtreamCredentials } from './account.js';
export { checkAccount, type XtreamServer } from './auth.js';
export { createXtreamClient, type XtreamClient } from './client.js';
export { openXtreamGuide } from './guide.js';
export { jsonElements } from './json-stream.js';
export { type LibraryParts, type LibraryText, readLibrary } from './library.js';
export { type CategoryFilter, type LiveSnapshot, livePlaylist, readLive } from './live.js';
export { instant, zonedToUtc } from './short-epg.js';
export {
  type XtreamGuideSource,
  type XtreamLibraryReader,
  type XtreamLiveReader,
  type XtreamSettings,
  type XtreamSource,
  xtreamSource,
} from './source.js';
