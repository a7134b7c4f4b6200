/**
 * The runners of docs/health.md's blocks: its settings read as `marquee` reads them, its commands
 * run in a folder whose playlist names streams on a local host (a live TS stream, a 404, an HTML
 * page with 200; `sources.allowPrivate` lets the checks reach 127.0.0.1), and its example report
 * compared with what `marquee health` prints for the same counts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { describeHealthPass, offlineLine } from '../../src/cli/health.js';
import { loadSettingsFile } from '../../src/cli/settings.js';
import { answer, liveTs, startStreamHost } from '../helpers/stream-host.js';
import { type Block, commandsOf, startShell } from './blocks.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'marquee-docs-health-'));
}

export const HEALTH_RUNNERS: Record<string, (block: Block) => Promise<void>> = {
  /** The settings block, read and checked: every health setting with the value the docs give. */
  async 'health-settings'(block) {
    const dir = folder();
    try {
      writeFileSync(join(dir, 'marquee.yaml'), block.text);
      const settings = loadSettingsFile(join(dir, 'marquee.yaml'));
      expect(settings.health).toEqual({
        enabled: true,
        intervalHours: 6,
        concurrency: 16,
        perHost: 2,
        timeoutSeconds: 8,
        failuresBeforeDead: 2,
        hideDead: false,
        hideDeadChannels: true,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },

  /** The four lines, in order, in a folder of streams on a local host. */
  async 'health-commands'(block) {
    const lines = commandsOf(block);
    expect(lines).toEqual(['marquee import', 'marquee health', 'marquee status', 'marquee health --json']);
    const host = await startStreamHost();
    const dir = folder();
    try {
      host.routes.set('/news.ts', liveTs());
      host.routes.set('/sport.m3u8', answer(200, '<html>Buy a plan</html>', { 'content-type': 'text/html' }));
      writeFileSync(
        join(dir, 'tv.m3u'),
        `#EXTM3U\n#EXTINF:-1,News\n${host.url}/news.ts\n#EXTINF:-1,News\n${host.url}/gone.ts\n#EXTINF:-1,Sport\n${host.url}/sport.m3u8\n`,
      );
      writeFileSync(
        join(dir, 'marquee.yaml'),
        'livetv: { playlists: [./tv.m3u] }\nsources: { allowPrivate: true }\nhealth: { timeoutSeconds: 2 }\n',
      );
      const run = async (line: string) => {
        const started = startShell(dir, line);
        const code = await started.exited;
        return { code, stdout: started.stdout(), stderr: started.stderr() };
      };
      const imported = await run(lines[0]!);
      expect(imported.code, imported.stderr).toBe(0);
      const pass = await run(lines[1]!);
      expect(pass.code, pass.stderr).toBe(0);
      expect(pass.stdout).toMatch(
        /^checked 3 streams of 3 in [\d.]+ s \(3 requests\): 1 ok, 1 dead, 0 blocked, 1 not media, 0 timeout\n/,
      );
      const status = await run(lines[2]!);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain('health:       1 ok, 1 dead, 0 blocked, 1 not media, 0 timeout, 0 unchecked');
      const json = await run(lines[3]!);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, streams: 3, counts: { ok: 1, dead: 1, notMedia: 1 } });
    } finally {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },

  /** The offline example is what `marquee health` prints for such a pass: stdout, then stderr. */
  async 'health-offline'(block) {
    const at = Date.parse('2026-11-24T14:02:00Z');
    const offline = {
      verdicts: 2_315,
      unreachable: 2_315,
      hosts: 41,
      causes: [
        { cause: 'no such host', checks: 2_300 },
        { cause: 'connection refused', checks: 15 },
      ],
    };
    const printed = describeHealthPass(
      {
        startedAt: at,
        finishedAt: at + 9_800,
        streams: 2_315,
        counts: { ok: 0, dead: 2_315, blocked: 0, notMedia: 0, timeout: 0 },
        skipped: { unsupported: 0, private: 0, rateLimited: 0, notStarted: 0 },
        requests: 95,
        budgetSpent: false,
        changes: [],
        offline,
      },
      [],
    );
    // The command prints the counts on stdout and the verdict as its error on stderr.
    expect(block.text.trimEnd().split('\n')).toEqual([printed[0], `marquee health: ${offlineLine(offline)}`]);
    expect(printed.at(-1)).toBe(offlineLine(offline));
  },

  /** The example report is what `marquee health` prints for those counts (its time aside). */
  async 'health-report'(block) {
    const at = Date.parse('2026-11-24T14:02:00Z');
    const printed = describeHealthPass(
      {
        startedAt: at,
        finishedAt: at + 95_200,
        streams: 10_000,
        counts: { ok: 9_100, dead: 400, blocked: 50, notMedia: 100, timeout: 50 },
        skipped: { unsupported: 200, private: 100, rateLimited: 0, notStarted: 0 },
        requests: 10_412,
        budgetSpent: false,
        changes: Array.from({ length: 120 }, () => ({ url: 'x', to: 'dead' as const, at })),
      },
      [
        {
          url: 'http://tv.example:8080/live/USER/PASS/1234.ts',
          from: 'ok',
          to: 'dead',
          detail: 'HTTP 404',
          at,
          channelId: 'mq-tv:bbcone.uk-hd',
          channelName: 'BBC One HD',
        },
      ],
    );
    expect(block.text.trimEnd().split('\n')).toEqual(printed.slice(0, 4));
  },
};
