/**
 * Listening as the settings say (port, host, connection cap, proxy trust), and the public base
 * address the start-up lines show: `serve` and `serve --hosted` alike.
 */
import { listen, type RequestHandler } from '../server/index.js';
import type { Settings } from './settings.js';

/**
 * @example const { running, base } = await listenPerSettings(handler, settings) // base 'http://127.0.0.1:7000'
 */
export async function listenPerSettings(
  handler: RequestHandler,
  settings: Settings,
): Promise<{ running: Awaited<ReturnType<typeof listen>>; host: string; base: string }> {
  const host = settings.host ?? '127.0.0.1';
  const running = await listen(handler, {
    port: settings.port ?? 7000,
    host,
    ...(settings.security?.maxConnectionsPerAddress !== undefined
      ? { maxConnectionsPerAddress: settings.security.maxConnectionsPerAddress }
      : {}),
    ...(settings.security?.trustProxy ? { trustProxy: true } : {}),
  });
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const base = (settings.publicUrl ?? `http://${shownHost}:${running.port}${settings.basePath ?? ''}`).replace(
    /\/+$/,
    '',
  );
  return { running, host, base };
}
