export { DEMO_CHANNELS, type DemoChannel, logoFor } from './channels.js';
export { demoGuide, demoPlaylist } from './generate.js';
export { posterFor, withDemoPosters } from './posters.js';
