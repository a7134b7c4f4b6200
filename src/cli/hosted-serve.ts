/**
 * `marquee serve --hosted`: one public add-on, each user with their own sources (docs/hosted.md).
 * The operator's own sources are not served in this mode; the key ring beside the database (or
 * `security.configKeyFile`, shared by every replica) encrypts the users' sources in their links.
 */
import { resolve } from 'node:path';
import type { ConfigCodec } from '../addon/index.js';
import { createHostedHandler, createHostedService, type HostedService, setKeySecret } from '../hosted/index.js';
import {
  createRequestHandler,
  createTokenCodec,
  HTTPS_GUIDE_PATH,
  installReach,
  parseKeyRing,
} from '../server/index.js';
import type { Io } from './command.js';
import { httpsGuideOption } from './https-guide.js';
import { loadOrCreateKeyRing } from './keys.js';
import { atAddress, lanAddresses } from './lan-addresses.js';
import { importLimits } from './limits.js';
import { listenPerSettings } from './listen.js';
import { createLogger } from './log.js';
import { count } from './plural.js';
import { startHostedRelay } from './relay-serve.js';
import type { Settings } from './settings.js';
import { settingsReload } from './settings-reload.js';
import { boundServeStop } from './shutdown.js';
import { version } from './version.js';
import { watchKeyRing } from './watch-keys.js';

const MiB = 1_048_576;

export async function serveHosted(settings: Settings, io: Io, settingsFile?: string): Promise<number> {
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
  // The key ring is read again when it changes (`marquee rotate-key`, within a second; at once on
  // SIGHUP): new links use its current key, dropped keys stop opening links. The names of the
  // source sets keep the secret they started with (a set renamed mid-run would lose its files).
  let codec = createTokenCodec(ring, id);
  let liveRing = ring;
  const liveCodec: ConfigCodec = { encode: (values) => codec.encode(values), decode: (token) => codec.decode(token) };
  const keys = watchKeyRing(keyFile, {
    onChange: (bytes) => {
      try {
        // The bytes read, never a new ring: a file gone for a moment must not become another key.
        liveRing = parseKeyRing(bytes.toString('utf8'));
        codec = createTokenCodec(liveRing, id);
        log.event(`reloaded the key ring ${keyFile}: new install links use its current key`);
      } catch (error) {
        log.warn(
          `the key ring ${keyFile} changed but was not taken: ${(error as Error).message}; the keys in use are kept`,
        );
      }
    },
  });
  const h = settings.hosted ?? {};
  // The relay (hosted.relay; docs/relay.md): off unless set. Its lookups go to the sets' stores.
  let service: HostedService | undefined;
  const relay = startHostedRelay(settings, {
    db,
    ring: () => liveRing,
    storeOf: (set) => service?.store(set),
    log,
  });
  // The public pages link the HTTPS guide at /https, served from the package's own docs/https.md.
  const serverOptions = {
    logger: log,
    ...httpsGuideOption((message) => log.warn(message)),
    ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
    ...(settings.basePath ? { basePath: settings.basePath } : {}),
    ...(settings.security?.trustProxy ? { trustProxy: true } : {}),
    ...(relay ? { frontNotes: [relay.note] } : {}),
  };
  const hours = settings.refresh?.intervalHours ?? 6;
  service = createHostedService({
    dir: h.dir ?? `${db}.hosted`,
    codec: liveCodec,
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
    ...(settings.addon?.maxAnswerBytes !== undefined ? { maxAnswerBytes: settings.addon.maxAnswerBytes } : {}),
    refreshMs: hours * 3_600_000,
    sourceOptions: {
      allowPrivate: settings.sources?.allowPrivate === true,
      ...(settings.sources?.timeoutSeconds ? { timeoutMs: settings.sources.timeoutSeconds * 1000 } : {}),
      ...(settings.sources?.maxMegabytes ? { maxBytes: settings.sources.maxMegabytes * MiB } : {}),
      limits: importLimits(settings),
    },
    handlerFor: (addon) => createRequestHandler(addon, { ...serverOptions, responseCache: { maxBytes: 8 * MiB } }),
    ...(relay ? { relayFor: (key: string) => relay.linksFor(key) } : {}),
    log: (level, message, fields) =>
      level === 'error'
        ? log.error({ msg: message, ...fields })
        : log[level === 'warn' ? 'warn' : 'event'](message, fields),
  });
  const hosted = createHostedHandler(service, {
    ...serverOptions,
    ...(relay ? { mounts: { relay: (request, path) => relay.relay.handle(request, path) } } : {}),
    waitMs: (h.waitSeconds ?? 8) * 1000,
    ...(settings.security?.rateLimitPerMinute
      ? { rateLimit: { perMinute: settings.security.rateLimitPerMinute } }
      : {}),
  });
  try {
    const { running, host, base } = await listenPerSettings(hosted.handle, settings, log);
    const plain = installReach(`${base}/manifest.json`) !== 'https';
    // On every interface over plain HTTP the banner's 127.0.0.1 is this machine's alone: name its network addresses.
    const lan = plain && settings.publicUrl === undefined ? lanAddresses(host) : [];
    // SIGHUP reads the certificate and the key ring again now, not at the next check; each logs
    // only when it changed. Registered over HTTP too: SIGHUP never ends the server.
    const settingsChanged = settingsReload(settingsFile, (message) => log.warn(message));
    const stopReload = io.onReload?.(() => {
      keys.check();
      void running.tls?.reload();
      settingsChanged();
    });
    io.stdout.write(
      [
        '',
        `${hosted.addon.manifest.name} ${hosted.addon.manifest.version} is running (hosted: each user configures their own sources)`,
        `  manifest:  ${base}/manifest.json`,
        `  configure: ${base}/configure`,
        `  sets:      ${service.dir} (${count(service.list().length, 'source set')})`,
        ...(lan.length > 0
          ? [
              `  lan:       ${lan.map((a) => atAddress(`${base}/configure`, a)).join(', ')} (this machine on its network)`,
            ]
          : []),
        // Users install from the configure page; over plain HTTP their TVs and phones cannot.
        ...(!plain
          ? []
          : [
              `  https:     users' TVs and phones install add-ons only over HTTPS: serve with --tls-cert and --tls-key, or behind an HTTPS proxy (how: ${serverOptions.httpsGuide === undefined ? 'docs/https.md' : `${base}${HTTPS_GUIDE_PATH}`})`,
            ]),
        ...(settings.sources?.allowPrivate === true
          ? ['  (--allow-private-sources: user URLs may reach this machine and its network)']
          : []),
        ...(relay ? [relay.banner] : []),
        '',
      ].join('\n'),
    );
    const signal = await io.stopped;
    const { graceMs } = boundServeStop(io, settings, signal, log);
    stopReload?.();
    // Live answers end first: a relayed stream never finishes on its own.
    relay?.stop();
    await running.close(graceMs);
    return 0;
  } finally {
    relay?.stop();
    keys.stop();
    await service.close({ stopImports: true });
    hosted.close();
  }
}
