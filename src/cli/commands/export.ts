import { join, resolve } from 'node:path';
import { MarqueeError } from '../../errors.js';
import { exportAddon } from '../../export/index.js';
import { describeManifestChange, openStore } from '../../store/index.js';
import { buildAddon, holdsData, importAll, isDemo, prepareDemo } from '../app.js';
import type { Command } from '../command.js';
import { readHttpsGuide } from '../https-guide.js';
import { count } from '../plural.js';
import { describeOutcome } from '../report.js';
import { resolveSettings, STORE_OPTIONS } from '../resolve.js';
import { stopOnSignal } from '../shutdown.js';

export const exportCommand: Command = {
  name: 'export',
  summary: 'write the whole add-on as static files for any static host or CDN',
  usage: 'marquee export --out DIR [--db FILE] [--config FILE] [--force] [--demo]',
  options: {
    out: {
      type: 'string',
      short: 'o',
      value: 'DIR',
      env: 'MARQUEE_EXPORT_DIR',
      description: 'folder to write (replaced atomically)',
    },
    ...STORE_OPTIONS,
    force: {
      type: 'boolean',
      description:
        'replace an earlier export that has gained files it did not write, deleting them (never a database, key ring or source copy; never a folder that is not an export)',
    },
    demo: {
      type: 'boolean',
      env: 'MARQUEE_DEMO',
      description: 'export the embedded demo (in a temporary database) instead of what the database serves',
    },
    'public-url': {
      type: 'string',
      value: 'URL',
      env: 'MARQUEE_PUBLIC_URL',
      description: 'where the export will be served, for its landing page',
    },
    'days-ahead': { type: 'string', value: 'N', description: 'guide days exported after today', default: '7' },
    json: { type: 'boolean', description: 'print the export report as JSON' },
  },
  notes:
    'Search cannot be precomputed: the exported manifest drops the search extra. Guide days are exported as they\n' +
    'are stored now: re-run the export (e.g. from cron) to keep the guide current. See docs/export.md.\n' +
    "What it deletes: the folder's marker (.marquee-export.json) lists every file the export wrote; the next export\n" +
    'deletes those and nothing else. Any other file or folder in it, at any depth, makes it refuse, naming them; with\n' +
    '--force they are deleted too, except a database (*.db, *.sqlite, -wal, -shm, -journal, or any file that starts as\n' +
    'SQLite does), a key ring (*.keys.json, or any file that reads as one) or source copies (*.sources): those are named\n' +
    'and the export stops. A folder without the marker is never replaced, --force or not.\n' +
    'SIGINT or SIGTERM stops it within 2 s: its staging folder is removed and the previous export is left as it was.\n' +
    'Exit codes: 0 written, 1 failed or stopped (nothing replaced), 2 bad flags or configuration, or an --out folder it may not replace, 3 database unavailable.',
  stopsInOrder: true,
  async run(values, _positionals, io) {
    if (typeof values.out !== 'string') throw new MarqueeError('INVALID_SETTINGS', '--out DIR is required');
    const daysAhead = values['days-ahead'] === undefined ? 7 : Number(values['days-ahead']);
    if (!Number.isInteger(daysAhead) || daysAhead < 0 || daysAhead > 60) {
      throw new MarqueeError('INVALID_SETTINGS', '--days-ahead must be a whole number from 0 to 60');
    }
    let { settings } = resolveSettings(values, io.cwd);
    // What the database serves is exported; the demo only when asked for, or when the database
    // holds nothing and no source is configured (and then it says so). Like `serve`, the demo
    // lives in a temporary database of its own: imported into the user's, it would replace data.
    const userDb = settings.db ?? resolve(io.cwd, 'marquee.db');
    const demo = values.demo === true || (isDemo(settings) && !holdsData(userDb)) ? prepareDemo(Date.now()) : undefined;
    if (demo) settings = { ...settings, ...demo.settings, db: join(demo.dir, 'demo.db') };
    const db = settings.db ?? userDb;
    const store = openStore(db);
    const stopping = stopOnSignal(io, 'export');
    try {
      if (demo) {
        const outcome = await importAll(store, settings, { signal: stopping.signal });
        io.stderr.write(
          `marquee export: exporting the embedded demo (${values.demo === true ? '--demo' : `${userDb} holds no data and no source is configured`})\n` +
            (values.json ? '' : `${describeOutcome(outcome).join('\n')}\n`),
        );
      }
      const keyFile = settings.security?.configKeyFile ?? `${db}.keys.json`;
      const addon = buildAddon(store, settings, keyFile, (change) =>
        io.stderr.write(`marquee export: warning: ${describeManifestChange(change)}\n`),
      );
      // The landing page links the HTTPS guide, written beside it from the package's docs/https.md.
      const guide = readHttpsGuide();
      if ('problem' in guide) io.stderr.write(`marquee export: warning: ${guide.problem}: no https.html is written\n`);
      const report = await exportAddon(addon, resolve(io.cwd, values.out), {
        force: values.force === true,
        ...('markdown' in guide ? { httpsGuide: guide.markdown } : {}),
        guideDays: { from: -1, to: daysAhead },
        ...(typeof values['public-url'] === 'string' ? { publicUrl: values['public-url'] } : {}),
        signal: stopping.signal,
      });
      if (values.json) {
        io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return 0;
      }
      const lines = [
        `wrote ${count(report.files, 'file')} (${(report.bytes / 1_048_576).toFixed(1)} MB) to ${report.outDir}`,
        `  ${count(report.pages, 'catalog page')}, ${count(report.items, 'item')}, ${count(report.metas, 'meta')}, ${count(report.streams, 'stream answer')}, ${count(report.subtitles, 'subtitles answer')}`,
        ...(report.guideDays.length > 0
          ? [
              `  guide days ${report.guideDays[0]} to ${report.guideDays.at(-1)}: re-run the export to keep the guide current`,
            ]
          : []),
        ...report.manifestChanges.map((c) => `  manifest: ${c}`),
        ...report.truncated.map((t) => `  truncated: ${t}`),
        ...report.warnings.slice(0, 10).map((w) => `  warning: ${w.path}: ${w.message}`),
      ];
      io.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    } catch (error) {
      if (stopping.by === undefined) throw error;
      // Aborted: the staging folder is gone and --out is as it was (exportAddon's own cleanup).
      io.stderr.write(`marquee export: stopped by ${stopping.by}: nothing was replaced, ${values.out} is as it was\n`);
      return 1;
    } finally {
      store.close();
      demo?.cleanup();
    }
  },
};
