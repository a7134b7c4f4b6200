/**
 * `marquee serve --hosted`: one public add-on, each user with their own sources (docs/hosted.md).
 * The operator's own sources are not served in this mode; the key ring beside the database (or
 * `security.configKeyFile`, shared by every replica) encrypts the users' sources in their links.
 */
import { resolve } from 'node:path';
import { createHostedHandler, createHostedService, setKeySecret } from '../hosted/index.js';
import { createRequestHandler, createTokenCodec, HTTPS_GUIDE_PATH, installReach } from '../server/index.js';
import type { Io } from './command.js';
import { httpsGuideOption } from './https-guide.js';
import { loadOrCreateKeyRing } from './keys.js';
import { importLimits } from './limits.js';
import { listenPerSettings } from './listen.js';
import { createLogger } from './log.js';
import { count } from './plural.js';
import type { Settings } from './settings.js';
import { version } from './version.js';

const MiB = 1_048_576;

export async function serveHosted(settings: Settings, io: Io): Promise<number> {
  const log = createLogger(io.stdout, {
    format: settings.log?.format ?? (io.stdout.isTTY ? 'pretty' : 'json'),
    requests: settings.log?.requests ?? true,
  });
  // Checking every stream of every visitor's playlist would have a public instance fetch whatever
  // they name, on a schedule: health passes are for an operator's own sources (docs/health.md).
  if (settings.health?.enabled === true) log.warn('health.enabled is ignored in hosted mode: streams are not checked');
  const db = settings.db ?? resolve(io.cwd, 'marquee.db');
  const keyFile = settings.security?.configKeyFile ?? `${db}.keys.json`;
  const { ring } = loadOrCreateKeyRing(keyFile);
  const id = settings.addon?.id ?? 'org.marquee.hosted';
  const h = settings.hosted ?? {};
  // The public pages link the HTTPS guide at /https, served from the package's own docs/https.md.
  const serverOptions = {
    logger: log,
    ...httpsGuideOption((message) => log.warn(message)),
    ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
    ...(settings.basePath ? { basePath: settings.basePath } : {}),
    ...(settings.security?.trustProxy ? { trustProxy: true } : {}),
  };
  const hours = settings.refresh?.intervalHours ?? 6;
  const service = createHostedService({
    dir: h.dir ?? `${db}.hosted`,
    codec: createTokenCodec(ring, id),
    setKeySecret: setKeySecret(ring),
    manifest: {
      id,
      version: settings.addon?.version ?? version(),
      name: settings.addon?.name ?? 'Marquee',
      description:
        settings.addon?.description ??
        'Your own live TV: give your playlist and guide, or your Xtream account, and install your personal add-on.',
      ...(settings.addon?.logo ? { logo: settings.addon.logo } : {}),
      ...(settings.addon?.background ? { background: settings.addon.background } : {}),
      ...(settings.addon?.contactEmail ? { contactEmail: settings.addon.contactEmail } : {}),
    },
    ...(h.concurrentImports ? { concurrentImports: h.concurrentImports } : {}),
    ...(h.maxSourceSets ? { maxSourceSets: h.maxSourceSets } : {}),
    ...(h.diskBudgetMegabytes ? { diskBudgetBytes: h.diskBudgetMegabytes * MiB } : {}),
    ...(h.minKeepMinutes !== undefined ? { minKeepMs: h.minKeepMinutes * 60_000 } : {}),
    ...(h.importsPerMinute ? { importsPerMinute: h.importsPerMinute } : {}),
    refreshMs: hours * 3_600_000,
    sourceOptions: {
      allowPrivate: settings.sources?.allowPrivate === true,
      ...(settings.sources?.timeoutSeconds ? { timeoutMs: settings.sources.timeoutSeconds * 1000 } : {}),
      ...(settings.sources?.maxMegabytes ? { maxBytes: settings.sources.maxMegabytes * MiB } : {}),
      limits: importLimits(settings),
    },
    handlerFor: (addon) => createRequestHandler(addon, { ...serverOptions, responseCache: { maxBytes: 8 * MiB } }),
    log: (level, message, fields) =>
      level === 'error'
        ? log.error({ msg: message, ...fields })
        : log[level === 'warn' ? 'warn' : 'event'](message, fields),
  });
  const hosted = createHostedHandler(service, {
    ...serverOptions,
    waitMs: (h.waitSeconds ?? 8) * 1000,
    ...(settings.security?.rateLimitPerMinute
      ? { rateLimit: { perMinute: settings.security.rateLimitPerMinute } }
      : {}),
  });
  try {
    const { running, base } = await listenPerSettings(hosted.handle, settings, log);
    // SIGHUP reads the certificate again now, not at the next check.
    const stopTlsReload = running.tls && io.onReload?.(() => void running.tls?.reload());
    io.stdout.write(
      [
        '',
        `${hosted.addon.manifest.name} ${hosted.addon.manifest.version} is running (hosted: each user configures their own sources)`,
        `  manifest:  ${base}/manifest.json`,
        `  configure: ${base}/configure`,
        `  sets:      ${service.dir} (${count(service.list().length, 'source set')})`,
        // Users install from the configure page; over plain HTTP their TVs and phones cannot.
        ...(installReach(`${base}/manifest.json`) === 'https'
          ? []
          : [
              `  https:     users' TVs and phones install add-ons only over HTTPS: serve with --tls-cert and --tls-key, or behind an HTTPS proxy (how: ${serverOptions.httpsGuide === undefined ? 'docs/https.md' : `${base}${HTTPS_GUIDE_PATH}`})`,
            ]),
        ...(settings.sources?.allowPrivate === true
          ? ['  (--allow-private-sources: user URLs may reach this machine and its network)']
          : []),
        '',
      ].join('\n'),
    );
    const signal = await io.stopped;
    log.event(`${signal}: finishing requests in flight, then stopping`);
    stopTlsReload?.();
    await running.close(10_000);
    return 0;
  } finally {
    await service.close();
    hosted.close();
  }
}
