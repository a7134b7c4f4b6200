/**
 * Hosted mode under test: a loopback server holding users' sources (two playlists, a guide, an
 * HTML page, a slow playlist), and a hosted Marquee in this process on 127.0.0.1 port 0 whose
 * log lines are kept.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createHostedHandler,
  createHostedService,
  type HostedOptions,
  type HostedService,
} from '../../src/hosted/index.js';
import { createRequestHandler, createTokenCodec, type KeyRing, type Logger, listen } from '../../src/server/index.js';
import { formatXmltvTime } from '../../src/sources/xmltv/index.js';

export interface SourceServer {
  readonly url: string;
  /** Requests per path (with its query). */
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function playlist(port: number, prefix: string, names: readonly string[]): string {
  return `#EXTM3U\n${names
    .map(
      (name, i) =>
        `#EXTINF:-1 tvg-id="${prefix}${i + 1}" group-title="${prefix.toUpperCase()} group",${name}\nhttp://127.0.0.1:${port}/stream/${prefix}${i + 1}.m3u8`,
    )
    .join('\n')}\n`;
}

export function guideXml(ids: readonly string[], now = Date.now()): string {
  const hour = 3_600_000;
  const start = Math.floor(now / hour) * hour - hour;
  const programmes = ids.flatMap((id) =>
    [0, 1, 2, 3].map(
      (i) =>
        `<programme channel="${id}" start="${formatXmltvTime(start + i * hour)}" stop="${formatXmltvTime(start + (i + 1) * hour)}"><title>${xml(`${id} show ${i}`)}</title></programme>`,
    ),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<tv>${ids.map((id) => `<channel id="${id}"><display-name>${id}</display-name></channel>`).join('')}${programmes.join('')}</tv>\n`;
}

export const A_CHANNELS = ['Alpha One', 'Alpha Two', 'Alpha Three'] as const;
export const B_CHANNELS = ['Bravo One', 'Bravo Two'] as const;

/** Serves /a.m3u, /b.m3u, /guide.xml, /page.html and /slow.m3u (answers after `slowMs`). */
export async function startSourceServer(options: { slowMs?: number } = {}): Promise<SourceServer> {
  const hits = new Map<string, number>();
  let port = 0;
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    hits.set(url, (hits.get(url) ?? 0) + 1);
    const path = url.split('?')[0];
    const send = (type: string, body: string) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    if (path === '/a.m3u') return send('audio/x-mpegurl', playlist(port, 'a', A_CHANNELS));
    if (path === '/b.m3u') return send('audio/x-mpegurl', playlist(port, 'b', B_CHANNELS));
    if (path === '/slow.m3u') {
      setTimeout(() => send('audio/x-mpegurl', playlist(port, 'a', A_CHANNELS)), options.slowMs ?? 1_500);
      return;
    }
    if (path === '/guide.xml') return send('application/xml', guideXml(['a1', 'a2', 'a3', 'b1', 'b2']));
    if (path === '/page.html') {
      return send(
        'text/html',
        '<!doctype html><html><head><title>Sign in</title></head><body><p>Please sign in</p></body></html>',
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface HostedUnderTest {
  readonly url: string;
  readonly service: HostedService;
  /** Every log record, as JSON lines. */
  readonly logs: string[];
  close(): Promise<void>;
}

export async function startHosted(
  dir: string,
  ring: KeyRing,
  options: Partial<Omit<HostedOptions, 'dir' | 'codec' | 'manifest'>> & {
    waitMs?: number;
    trustProxy?: boolean;
    httpsGuide?: string;
  } = {},
): Promise<HostedUnderTest> {
  const logs: string[] = [];
  const logger: Logger = {
    info: (r) => logs.push(JSON.stringify(r)),
    error: (r) => logs.push(JSON.stringify(r)),
    debug: (r) => logs.push(JSON.stringify(r)),
  };
  const { waitMs, trustProxy, httpsGuide, ...rest } = options;
  const service = createHostedService({
    dir,
    codec: createTokenCodec(ring, 'org.marquee.hosted'),
    manifest: { id: 'org.marquee.hosted', version: '1.0.0', name: 'Marquee', description: 'Hosted live TV' },
    handlerFor: (addon) => createRequestHandler(addon, { logger }),
    log: (level, message, fields) => logs.push(JSON.stringify({ level, message, ...fields })),
    ...rest,
  });
  const hosted = createHostedHandler(service, {
    logger,
    ...(waitMs !== undefined ? { waitMs } : {}),
    ...(trustProxy ? { trustProxy } : {}),
    ...(httpsGuide !== undefined ? { httpsGuide } : {}),
  });
  const running = await listen(hosted.handle, { port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${running.port}`,
    service,
    logs,
    async close() {
      await running.close(1_000);
      await service.close();
      hosted.close();
    },
  };
}

/** The form body of POST /configure. */
export function form(fields: Record<string, string>): string {
  return new URLSearchParams(Object.fromEntries(Object.entries(fields).map(([k, v]) => [`cfg_${k}`, v]))).toString();
}
