import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Addon, type WarmUpOptions, warmUp } from '../../addon/index.js';
import type { SourceState } from '../../livetv/index.js';
import { createRequestHandler, HTTPS_GUIDE_PATH, parseKeyRing, readTlsPair } from '../../server/index.js';
import type { SourceValidators } from '../../sources/input/index.js';
import { describeManifestChange, type ManifestChange, openStore, removeStoreFiles } from '../../store/index.js';
import { buildAddon, holdsData, isDemo, prepareDemo } from '../app.js';
import { checkPort } from '../check-port.js';
import type { Command } from '../command.js';
import { startHealthPasses } from '../health-serve.js';
import { httpsGuideOption } from '../https-guide.js';
import { importInWorker } from '../import-worker.js';
import { installLines } from '../install-lines.js';
import { loadOrCreateKeyRing } from '../keys.js';
import { lanAddresses } from '../lan-addresses.js';
import { listenPerSettings } from '../listen.js';
import { createLogger } from '../log.js';
import { count } from '../plural.js';
import { startRefreshes } from '../refresh-serve.js';
import { startServeRelay } from '../relay-serve.js';
import { describeOutcome, importSucceeded, keptSourceList } from '../report.js';
import { resolveSettings, SOURCE_OPTIONS, STORE_OPTIONS, TLS_OPTIONS } from '../resolve.js';
import { settingsReload } from '../settings-reload.js';
import { boundServeStop, WORK_STOP_MS } from '../shutdown.js';
import { watchFiles } from '../watch.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the add-on (the embedded demo when no source is configured and the database is empty)',
  usage:
    'marquee serve [--port 7000] [--host 127.0.0.1] [--db FILE] [--config FILE] [--tls-cert FILE --tls-key FILE [--https-redirect-port N]]',
  options: {
    port: {
      type: 'string',
      short: 'p',
      value: 'N',
      env: 'MARQUEE_PORT',
      description: 'port to listen on',
      default: '7000',
    },
    host: {
      type: 'string',
      value: 'HOST',
      env: 'MARQUEE_HOST',
      description: 'address to listen on (0.0.0.0 for every interface)',
      default: '127.0.0.1',
    },
    ...SOURCE_OPTIONS,
    ...STORE_OPTIONS,
    'public-url': {
      type: 'string',
      value: 'URL',
      env: 'MARQUEE_PUBLIC_URL',
      description: 'the https address users reach the add-on at (for links)',
    },
    'base-path': {
      type: 'string',
      value: 'PATH',
      env: 'MARQUEE_BASE_PATH',
      description: 'serve under a path prefix, e.g. /tv',
    },
    ...TLS_OPTIONS,
    'refresh-hours': {
      type: 'string',
      value: 'N',
      env: 'MARQUEE_REFRESH_HOURS',
      description: 're-import the sources every N hours; 0 turns it off',
      default: '6',
    },
    'rate-limit': {
      type: 'string',
      value: 'N',
      env: 'MARQUEE_RATE_LIMIT',
      description: 'requests per minute per client address; 0 is off',
      default: '0',
    },
    'log-format': {
      type: 'string',
      value: 'json|pretty',
      env: 'MARQUEE_LOG_FORMAT',
      description: 'log lines as JSON or for people',
      default: 'pretty on a terminal',
    },
    quiet: { type: 'boolean', short: 'q', env: 'MARQUEE_QUIET', description: 'do not log each request' },
    qr: {
      type: 'boolean',
      env: 'MARQUEE_QR',
      description: 'print a QR code of the install link (to install from a phone)',
    },
    hosted: {
      type: 'boolean',
      env: 'MARQUEE_HOSTED',
      description:
        'public hosted mode: each user configures their own playlist, guide or Xtream account (docs/hosted.md)',
    },
    relay: {
      type: 'string',
      value: 'auto|true|false',
      env: 'MARQUEE_RELAY',
      description:
        'play streams through this server (docs/relay.md): auto relays what a browser cannot play as it is, true every stream, false none',
      default: 'auto',
    },
    'allow-private-sources': {
      type: 'boolean',
      env: 'MARQUEE_ALLOW_PRIVATE_SOURCES',
      description: 'let sources reach loopback and private addresses (a home network, tests)',
    },
    demo: {
      type: 'boolean',
      env: 'MARQUEE_DEMO',
      description: 'serve the embedded demo even when sources are configured (in a temporary database)',
    },
  },
  notes:
    'SIGHUP reads the key ring, the certificate and the database file again (one log line when one changed); it never stops the server.\n' +
    'SIGINT/SIGTERM stop it: requests in flight are answered (up to 10 s), refreshes and health passes stopped; shutdownSeconds (default 15) bounds it all.\n' +
    'Exit codes: 0 stopped by SIGINT/SIGTERM, 1 could not start (or did not stop within shutdownSeconds), 2 bad flags or configuration, 3 database unavailable.',
  stopsInOrder: true,
  async run(values, _positionals, io) {
    const resolved = resolveSettings(values, io.cwd);
    let settings = resolved.settings;
    const portProblem =
      (await checkPort(settings.port ?? 7000, settings.host ?? '127.0.0.1')) ??
      (settings.tls?.redirectPort !== undefined
        ? await checkPort(settings.tls.redirectPort, settings.host ?? '127.0.0.1', '--https-redirect-port')
        : undefined);
    if (portProblem) {
      io.stderr.write(`marquee serve: ${portProblem}\n`);
      return 1;
    }
    // A certificate that cannot be used is a settings mistake: said (exit 2) before the import, not after it.
    if (settings.tls?.cert && settings.tls.key) await readTlsPair(settings.tls.cert, settings.tls.key);
    // Hosted mode's modules load only for it: a plain server starts without them.
    if (settings.hosted?.enabled === true)
      return (await import('../hosted-serve.js')).serveHosted(settings, io, resolved.file);
    // With no source configured, what an earlier `marquee import` stored is served; the demo is for
    // an empty database. The demo always lives in its own temporary database: imported into the
    // user's, it would replace stored data, and on the next start be served with a stale guide.
    const stored = holdsData(settings.db ?? resolve(io.cwd, 'marquee.db'));
    const demo = values.demo === true || (isDemo(settings) && !stored);
    const demoFiles = demo ? prepareDemo(Date.now()) : undefined;
    if (demoFiles) {
      settings = { ...settings, ...demoFiles.settings, addon: { ...demoFiles.settings.addon, ...settings.addon } };
    }
    const log = createLogger(io.stdout, {
      format: settings.log?.format ?? (io.stdout.isTTY ? 'pretty' : 'json'),
      requests: settings.log?.requests ?? true,
    });
    const db = settings.db ?? resolve(io.cwd, 'marquee.db');
    // A database this start creates and cannot fill is not left behind (nor its copies folder).
    const created = !existsSync(db);
    let leaveNothing = false;
    const store = openStore(db);
    const keyFile = settings.security?.configKeyFile ?? `${db}.keys.json`;
    let stopWatch: (() => void) | undefined;
    let stopRelay = () => {};
    let current = () => store;
    try {
      const empty = store.counts().channels === 0 && store.libraryCounts().items === 0;
      let previous: SourceState | undefined;
      // The library URLs' validators, asked again conditionally by each refresh (as the live-TV sources').
      let libraryValidators: Readonly<Record<string, SourceValidators>> | undefined;
      if (demo || empty) {
        log.event(demo ? 'importing the embedded demo' : 'importing the configured sources');
        // Before listening, so no request needs a core yet (the guide is parsed in a thread of its
        // own). In a worker, as refreshes are: a serving thread that had run an import (Node's
        // file, gunzip and HTTP client streams, its garbage) answered cached pages 10-30% slower
        // afterwards (bench/README.md, "Compression in a thread of its own").
        // SIGINT/SIGTERM during it stop it (rolled back) rather than waiting for a whole guide.
        const firstImport = new AbortController();
        let importing = true;
        let stoppedEarly: string | undefined;
        void io.stopped.then((signal) => {
          if (!importing) return;
          stoppedEarly = signal;
          io.boundStop?.(WORK_STOP_MS);
          firstImport.abort();
        });
        const outcome = await importInWorker(db, settings, { parseThread: true, signal: firstImport.signal });
        // From here a stop is the server's (shutdownSeconds), not the first import's.
        importing = false;
        if (stoppedEarly !== undefined) {
          log.event(
            `${stoppedEarly}: stopped during the first import, before serving (what it had not committed is rolled back)`,
          );
          leaveNothing = created && store.counts().channels === 0 && store.libraryCounts().items === 0;
          return 0;
        }
        for (const line of describeOutcome(outcome, { sources: false })) log.event(line);
        for (const kept of keptSourceList(outcome)) log.warn(kept.message);
        if (outcome.livetv && !('error' in outcome.livetv)) previous = outcome.livetv.state;
        if (outcome.library && !('error' in outcome.library)) libraryValidators = outcome.library.validators;
        if (!importSucceeded(outcome) && store.counts().channels === 0 && store.libraryCounts().items === 0) {
          io.stderr.write(
            'marquee serve: nothing could be imported and the database holds no earlier data; see the errors above.\n',
          );
          leaveNothing = created;
          return 1;
        }
      }
      const manifestChanged = (change: ManifestChange) =>
        log.warn(describeManifestChange(change), { added: change.added, removed: change.removed });
      // The relay (docs/relay.md): its tokens use the key ring, read again when it changes.
      let ring = loadOrCreateKeyRing(keyFile).ring;
      const relay = demo ? undefined : startServeRelay(settings, { db, ring: () => ring, store: () => current(), log });
      stopRelay = () => relay?.stop();
      const extras = relay ? { relay: relay.links } : {};
      let addon: Addon = buildAddon(store, settings, keyFile, manifestChanged, 0, extras);
      for (const w of addon.warnings) log.event(`manifest warning: ${w.path}: ${w.message}`);
      // The pages link the HTTPS guide at /https, served from the package's own docs/https.md.
      const guide = httpsGuideOption((message) => log.warn(message));
      const handler = createRequestHandler(() => addon, {
        logger: log,
        ...guide,
        ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
        ...(settings.basePath ? { basePath: settings.basePath } : {}),
        ...(settings.security?.trustProxy ? { trustProxy: true } : {}),
        ...(settings.security?.rateLimitPerMinute
          ? { rateLimit: { perMinute: settings.security.rateLimitPerMinute } }
          : {}),
        ...(relay
          ? { mounts: { relay: (request, path) => relay.relay.handle(request, path) }, frontNotes: [relay.note] }
          : {}),
      });
      // First pages are several times slower than later ones (compiling, preparing statements,
      // memory touched for the first time): pay that before listening for each catalog's first
      // page, then for today's further guide pages between users' requests (about 15 ms each in a
      // fresh process: before listening they doubled the start-up time), and after each rebuild.
      const warming = new AbortController();
      const warm = async (built: Addon, options: Omit<WarmUpOptions, 'signal'> = {}) => {
        const result = await warmUp(built, { ...options, signal: warming.signal });
        log.event(`warmed up: ${count(result.requests, 'catalog page')} in ${result.ms} ms`);
      };
      await warm(addon, { guidePages: 1 });
      const { running, host, base } = await listenPerSettings(handler, settings, log);
      const manifestUrl = `${base}/manifest.json`;
      const guideUrl = guide.httpsGuide !== undefined ? `${base}${HTTPS_GUIDE_PATH}` : undefined;
      const install = await installLines(manifestUrl, host, values.qr === true, guideUrl, lanAddresses(host));
      const qrCode = values.qr === true ? install.splice(install.indexOf('')) : [];
      io.stdout.write(
        [
          '',
          `${addon.manifest.name} ${addon.manifest.version} is running${demo ? ' (embedded demo)' : ''}`,
          `  manifest:  ${manifestUrl}`,
          ...install,
          ...(addon.configFields.length > 0 ? [`  configure: ${base}/configure`] : []),
          // Behind an HTTPS proxy (publicUrl https://…) listening on this machine alone is the point.
          ...((host === '127.0.0.1' || host === 'localhost') && !settings.publicUrl?.startsWith('https://')
            ? ['  (only this machine can reach it: use --host 0.0.0.0 to serve your network)']
            : []),
          ...(running.redirect ? [`  redirect:  port ${running.redirect.port} (plain HTTP) redirects to https`] : []),
          ...(relay ? [relay.banner] : []),
          ...qrCode,
          '',
        ].join('\n'),
      );
      void warm(addon, { rounds: 0 });

      // The database file and the key ring at their paths are what is served, even when the
      // operator replaces them while the server runs (a restore, `marquee rotate-key`).
      let epoch = 0;
      const watch = watchFiles({
        db,
        keyFile,
        store,
        onStore: (next) => {
          addon = buildAddon(next, settings, keyFile, manifestChanged, ++epoch, extras);
          void warm(addon);
        },
        onKeys: () => {
          // The ring as the file holds it now; one that cannot be read keeps the relay's tokens as they were.
          try {
            ring = parseKeyRing(readFileSync(keyFile, 'utf8'));
          } catch {}
          addon = buildAddon(watch.store, settings, keyFile, manifestChanged, ++epoch, extras);
          log.event(`reloaded the key ring ${keyFile}: new install links use its current key`);
        },
        warn: (message) => log.warn(message),
        error: (message) => log.error({ msg: message }),
        ...(io.onReload ? { onReload: io.onReload } : {}),
      });
      // SIGHUP also reads the certificate again now, not at the next check, and says when the
      // settings file changed (it is read at start only).
      const stopTlsReload = running.tls && io.onReload?.(() => void running.tls?.reload());
      const stopSettingsReload = io.onReload?.(settingsReload(resolved.file, (message) => log.warn(message)));
      stopWatch = () => {
        watch.stop();
        stopTlsReload?.();
        stopSettingsReload?.();
      };
      current = () => watch.store;

      // Imports and health passes take turns: each would wait on the other's write lock.
      let turn: Promise<unknown> = Promise.resolve();
      const exclusive = <T>(job: () => Promise<T>): Promise<T> => {
        const run = turn.then(job, job);
        turn = run.catch(() => {});
        return run;
      };
      // The embedded demo's streams are public test streams: never checked on a schedule.
      const healthPasses = demo
        ? undefined
        : startHealthPasses({
            db,
            settings,
            store,
            log,
            exclusive,
            onPass: () => void warm(addon),
          });

      const refresher = startRefreshes({
        db,
        settings,
        store,
        log,
        exclusive,
        demo,
        demoDir: demoFiles?.dir,
        previous,
        libraryValidators,
        onRefreshed: (outcome) => {
          // The refresh wrote the file at the configured path: serve that one.
          watch.checkStore();
          addon = buildAddon(watch.store, settings, keyFile, manifestChanged, epoch, extras);
          void warm(addon);
          // New or changed streams: check them (a refresh that changed nothing needs no pass).
          if (outcome.livetv && !('error' in outcome.livetv) && outcome.livetv.status !== 'unchanged')
            healthPasses?.afterImport();
        },
      });

      const signal = await io.stopped;
      const { graceMs } = boundServeStop(io, settings, signal, log);
      warming.abort();
      // Live answers end first: a relayed stream never finishes on its own.
      stopRelay();
      // All at once: the port stops taking connections now, not after a refresh has stopped.
      await Promise.all([refresher?.stop(), healthPasses?.stop(), running.close(graceMs)]);
      return 0;
    } finally {
      stopRelay();
      stopWatch?.();
      const served = current();
      if (served !== store) served.close();
      store.close();
      if (leaveNothing) removeStoreFiles(db);
      demoFiles?.cleanup();
    }
  },
};
