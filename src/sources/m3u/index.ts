export type { ParseM3uOptions } from './parse.js';
export { parseM3u } from './parse.js';
export { notAPlaylist } from './sniff.js';
