/**
 * More of what a new user met in a first week (issue 46):
 * - `marquee import` takes `--allow-private-sources` and `MARQUEE_ALLOW_PRIVATE_SOURCES`, as
 *   `serve` does (a playlist naming its guide on a home server);
 * - thirty unreachable guides on five hosts, failing alike, are one line (at most one per cause),
 *   naming the hosts; a host's first attempt and its later ones are one cause;
 * - `health --json` tells a channel's two streams apart where their redacted URLs read alike
 *   (`…/backup.ts`): each names its source and line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceLines } from '../src/cli/source-lines.js';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { runCli } from './helpers/cli.js';
import { answer, liveTs, type StreamHost, startStreamHost } from './helpers/stream-host.js';

let host: StreamHost;
const dirs: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-first-week-more-'));
  dirs.push(dir);
  return dir;
}
beforeAll(async () => {
  host = await startStreamHost();
});
afterAll(async () => {
  await host.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const HOUR = 3_600_000;

describe('import --allow-private-sources', () => {
  it('lets a guide the playlist names on this machine be read, by flag or variable, as serve does', async () => {
    const start = Math.floor(Date.now() / HOUR) * HOUR;
    const xml = `<tv><channel id="one.tv"><display-name>One</display-name></channel>${[0, 1, 2]
      .map(
        (h) =>
          `<programme start="${formatXmltvTime(start + h * HOUR)}" stop="${formatXmltvTime(start + (h + 1) * HOUR)}" channel="one.tv"><title>News ${h}</title></programme>`,
      )
      .join('')}</tv>`;
    host.routes.set('/guide.xml', answer(200, xml, { 'content-type': 'application/xml' }));
    const cwd = folder();
    writeFileSync(
      join(cwd, 'tv.m3u'),
      `#EXTM3U url-tvg="${host.url}/guide.xml"\n#EXTINF:-1 tvg-id="one.tv",One\nhttps://live.example.org/one.m3u8\n`,
    );
    const refused = await runCli(['import', '--playlist', 'tv.m3u'], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/failed, never imported: guide \S+: 127\.0\.0\.1 is a private or local address/);

    const flagged = await runCli(['import', '--playlist', 'tv.m3u', '--allow-private-sources'], { cwd });
    expect(flagged.stderr).not.toMatch(/private|error/i);
    expect(flagged.code, flagged.stdout).toBe(0);
    expect(flagged.stdout).toMatch(/^live TV: 1 channel \(1 stream, 0 groups\), 3 programmes; 1 channel with a guide/m);

    const variable = await runCli(['import', '--playlist', 'tv.m3u', '--db', 'other.db'], {
      cwd,
      env: { MARQUEE_ALLOW_PRIVATE_SOURCES: '1' },
    });
    expect(variable.code, variable.stdout).toBe(0);
  });
});

describe('many unreachable guides', () => {
  it('on five hosts failing alike are one line naming the hosts', async () => {
    const cwd = folder();
    // `.invalid` never resolves (RFC 6761): five hosts, six guides each, in the order a playlist mixes them.
    const guides = Array.from({ length: 30 }, (_, i) => `http://epg${i % 5}.marquee-test.invalid/guide_${i}.xml`);
    writeFileSync(
      join(cwd, 'tv.m3u'),
      `#EXTM3U x-tvg-url="${guides.join(', ')}"\n#EXTINF:-1 tvg-id="one.tv",One\nhttps://live.example.org/one.m3u8\n`,
    );
    const run = await runCli(['import', '--playlist', 'tv.m3u'], { cwd });
    expect(run.code).toBe(1);
    const bad = run.stdout.split('\n').filter((l) => /^ {2}(kept|failed, never imported):/.test(l));
    expect(bad).toEqual([
      '  failed, never imported: 30 guides on 5 hosts: getaddrinfo ENOTFOUND (epg0.marquee-test.invalid, ' +
        'epg1.marquee-test.invalid, epg2.marquee-test.invalid and 2 more; first: http://epg0.marquee-test.invalid/guide_0.xml; ' +
        '--json and marquee status list each)',
    ]);
  });

  it('are grouped by cause: a refused host after retries and without them is one cause; other causes their own lines', () => {
    const guide = (host: string, i: number, reason: string) => ({
      kind: 'guide',
      location: `http://${host}:9/guide_${i}.xml`,
      outcome: 'none' as const,
      reason: `failed: ${reason}`,
    });
    const sources = [];
    for (let i = 0; i < 30; i++) {
      const h = i % 5;
      if (h < 3) {
        // The first guide on a host is retried; the others, on a host known to be down, are not.
        const address = `10.0.0.${h + 1}`;
        sources.push(guide(address, i, `connect ECONNREFUSED ${address}:9${i < 5 ? ' (after 3 attempts)' : ''}`));
      } else sources.push(guide(`tv${h}.example`, i, 'HTTP 404 Not Found'));
    }
    const lines = sourceLines(sources).map((l) => l.line);
    expect(lines).toEqual([
      '  failed, never imported: 18 guides on 3 hosts: connect ECONNREFUSED (10.0.0.1, 10.0.0.2, 10.0.0.3; first: http://10.0.0.1:9/guide_0.xml; --json and marquee status list each)',
      '  failed, never imported: 12 guides on 2 hosts: HTTP 404 Not Found (tv3.example, tv4.example; first: http://tv3.example:9/guide_3.xml; --json and marquee status list each)',
    ]);
    // One host keeps its line as it was: the reason whole.
    expect(sourceLines(sources.filter((s) => s.location.includes('10.0.0.2'))).map((l) => l.line)).toEqual([
      '  failed, never imported: 6 guides: connect ECONNREFUSED 10.0.0.2:9 (after 3 attempts) (first: http://10.0.0.2:9/guide_1.xml; --json and marquee status list each)',
    ]);
  });
});

describe('health --json', () => {
  it("names each stream's source and line, so a channel's two streams on one host can be told apart", async () => {
    host.routes.set('/live/alice/pw1/backup.ts', answer(404, 'Not Found'));
    host.routes.set('/live/bob/pw2/backup.ts', liveTs());
    const cwd = folder();
    writeFileSync(
      join(cwd, 'tv.m3u'),
      [
        '#EXTM3U',
        '#EXTINF:-1 tvg-id="news.test",News',
        `${host.url}/live/alice/pw1/backup.ts`,
        '#EXTINF:-1 tvg-id="news.test",News',
        `${host.url}/live/bob/pw2/backup.ts`,
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(cwd, 'marquee.yaml'),
      'db: ./tv.db\nlivetv:\n  playlists: [./tv.m3u]\nhealth:\n  timeoutSeconds: 2\n',
    );
    expect((await runCli(['import'], { cwd })).code).toBe(0);
    const pass = await runCli(['health', '--json', '--allow-private-sources'], { cwd });
    expect(pass.code, pass.stderr).toBe(0);
    const changed = JSON.parse(pass.stdout).changed as { url: string; source: string; line: number; to: string }[];
    const byLine = changed.map((c) => [c.url, c.source, c.line, c.to]).sort((a, b) => Number(a[2]) - Number(b[2]));
    expect(byLine).toEqual([
      [`${host.url}/…/backup.ts`, join(cwd, 'tv.m3u'), 2, 'dead'],
      [`${host.url}/…/backup.ts`, join(cwd, 'tv.m3u'), 4, 'ok'],
    ]);
    expect(pass.stdout).not.toMatch(/pw1|pw2/);
  });
});
