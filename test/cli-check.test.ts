import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { films, movieAddon, serveTiny, type TinyServer } from './fixtures/checker/tiny-addon.js';
import { runCli } from './helpers/cli.js';

/** `marquee check` flags for CI: --format json|text|github, --only, --id. */

let server: TinyServer;
const cwd = mkdtempSync(join(tmpdir(), 'marquee-cli-check-'));

beforeAll(async () => {
  // Every stream answer carries title and description: the client drops them all (an error).
  const route = movieAddon(films(5), (path) =>
    path.startsWith('/stream/movie/tiny')
      ? { body: { streams: [{ url: 'https://v.example.org/a.mp4', title: 'HD', description: 'Film' }] } }
      : undefined,
  );
  server = await serveTiny(route);
});
afterAll(() => server.close());

describe('marquee check', () => {
  it('--format github writes one annotation per grouped finding and exits 1 on errors', async () => {
    const out = await runCli(['check', `${server.url}/manifest.json`, '--format', 'github', '--rate', '1000'], { cwd });
    expect(out.code).toBe(1);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('::error ')).length).toBe(1);
    expect(lines.find((l) => l.startsWith('::error '))).toMatch(
      // The data is escaped as GitHub requires: % becomes %25.
      /^::error title=marquee check%3A Streams \(stream\.title\+description\)::\d+ places, e\.g\. \/stream\/movie\/tiny%253A0\.json \$\.streams\[0\]\.title, /,
    );
    expect(lines.at(-1)).toMatch(/: FAILED: \d+ errors, /);
  });

  it('--only limits the report and the exit code to the named checks; --json still works', async () => {
    const only = await runCli(
      ['check', `${server.url}/manifest.json`, '--only', 'manifest,cors', '--format', 'json', '--rate', '1000'],
      { cwd },
    );
    expect(only.code).toBe(0);
    const report = JSON.parse(only.stdout);
    expect(report.checks.map((c: { id: string }) => c.id)).toEqual(['manifest', 'cors']);
    const json = await runCli(['check', `${server.url}/manifest.json`, '--json', '--rate', '1000'], { cwd });
    expect(JSON.parse(json.stdout).ok).toBe(false);
  });

  it('--id asks the item the user names; bad flags exit 2', async () => {
    const before = server.requests.length;
    const out = await runCli(
      ['check', `${server.url}/manifest.json`, '--id', 'movie:tiny:3', '--only', 'meta', '--rate', '1000'],
      { cwd },
    );
    expect(out.code).toBe(0);
    expect(server.requests.slice(before)).toContain('/meta/movie/tiny%3A3.json');
    for (const bad of [
      ['--only', 'bogus'],
      ['--format', 'xml'],
      ['--id', 'tt123'],
    ]) {
      const refused = await runCli(['check', `${server.url}/manifest.json`, ...bad], { cwd });
      expect(refused.code).toBe(2);
    }
  });
});
