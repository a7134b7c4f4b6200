// The public surface of export/: write an add-on as static files for any static host.
export { exportAddon } from './export-addon.js';
export { exportFilePath, type FilePathResult } from './file-path.js';
export { MARKER_FILE } from './replace-dir.js';
export { type StaticManifest, staticManifest } from './static-manifest.js';
export type { CatalogExport, ExportOptions, ExportReport } from './types.js';
