/**
 * `marquee serve --hosted` (and MARQUEE_HOSTED=1) through the CLI: the public manifest, a user
 * configuring through the JSON form, the JSON log lines without the user's secrets, and
 * `marquee status` listing the source set by its key, without its URLs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from './helpers/cli.js';
import { form, type SourceServer, startSourceServer } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';

const SECRET = 'Pw0rdInUrl77';
let sources: SourceServer;
let dir: string;

beforeAll(async () => {
  sources = await startSourceServer();
  dir = mkdtempSync(join(tmpdir(), 'marquee-hosted-cli-'));
});
afterAll(async () => {
  await sources.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('marquee serve --hosted', () => {
  it('serves users their own sources, logs no secret, and status lists the set', async () => {
    const cli = startCli(['serve', '--port', '0', '--allow-private-sources', '--log-format', 'json'], {
      cwd: dir,
      env: { MARQUEE_HOSTED: '1' },
    });
    let setKey = '';
    try {
      const [, url] = await cli.waitForStdout(/manifest: +(\S+)/);
      const base = url!.replace(/\/manifest\.json$/, '');
      const manifest = (await httpRequest(base, '/manifest.json')).json();
      expect(manifest.behaviorHints).toMatchObject({ configurable: true, configurationRequired: true });
      const answer = await httpRequest(base, '/configure', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ playlist: `${sources.url}/a.m3u?password=${SECRET}`, epg: `${sources.url}/guide.xml` }),
      });
      expect(answer.status, answer.text()).toBe(200);
      expect(answer.json().summary).toEqual({ channels: 3, programmes: 12, movies: 0, series: 0 });
      const catalog = await httpRequest(
        base,
        new URL(answer.json().manifestUrl).pathname.replace('manifest.json', 'catalog/tv/mq-tv-channels.json'),
      );
      expect(catalog.json().metas).toHaveLength(3);
      const logged = cli.stdout();
      expect(logged).toMatch(/source set import imported/);
      setKey = /"set":"([0-9a-f]{32})"/.exec(logged)?.[1] ?? '';
      expect(setKey).not.toBe('');
      expect(logged).not.toContain(SECRET);
    } finally {
      cli.stop();
      expect((await cli.done).code).toBe(0);
    }

    const status = await runCli(['status'], { cwd: dir });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(setKey);
    expect(status.stdout).toMatch(/3 channels, 12 programmes/);
    expect(status.stdout).not.toContain(SECRET);
    expect(status.stdout).not.toContain('a.m3u');
    const json = await runCli(['status', '--json'], { cwd: dir });
    const parsed = JSON.parse(json.stdout);
    expect(parsed.hosted.sets).toHaveLength(1);
    expect(parsed.hosted.sets[0]).toMatchObject({
      set: setKey,
      counts: { channels: 3, withGuide: 3, programmes: 12 },
      lastImport: { outcome: 'imported' },
    });
    expect(json.stdout).not.toContain(SECRET);
  });
});
