/**
 * What a newcomer reads when something is off: each message says what is wrong and what to do,
 * at the moment it can first be known.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS_FILES } from '../src/cli/resolve.js';
import { demoGuide, demoPlaylist } from '../src/demo/index.js';
import { runCli } from './helpers/cli.js';

const dirs: string[] = [];
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-messages-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const NEEDS_PLAYLIST = 'a guide (--epg) needs a playlist: give --playlist with it, or name playlists in';

describe('a guide without a playlist', () => {
  it('import --epg alone says a guide needs a playlist (exit 2), and imports nothing', async () => {
    const cwd = workdir();
    writeFileSync(join(cwd, 'guide.xml'), demoGuide(Date.now()));
    const { code, stderr, stdout } = await runCli(['import', '--epg', 'guide.xml'], { cwd });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`marquee import: ${NEEDS_PLAYLIST} a settings file (livetv.playlists)\n`);
  });

  it('import --epg uses the playlists of the settings file', async () => {
    const cwd = workdir();
    writeFileSync(join(cwd, 'tv.m3u'), demoPlaylist());
    writeFileSync(join(cwd, 'guide.xml'), demoGuide(Date.now()));
    writeFileSync(join(cwd, 'marquee.yaml'), 'livetv:\n  playlists: [tv.m3u]\n');
    const { code, stdout, stderr } = await runCli(['import', '--epg', 'guide.xml'], { cwd });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/live TV: 6 channels .* 6 channels with a guide, 0 without/);
  });

  it('serve --epg without a playlist exits 2 with the same message instead of serving the demo', async () => {
    const cwd = workdir();
    writeFileSync(join(cwd, 'guide.xml'), demoGuide(Date.now()));
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--epg', 'guide.xml'], { cwd });
    expect(code).toBe(2);
    expect(stdout).not.toContain('demo');
    expect(stderr).toBe(`marquee serve: ${NEEDS_PLAYLIST} a settings file (livetv.playlists)\n`);
  });

  it('names the settings file when the guide comes from it', async () => {
    const cwd = workdir();
    writeFileSync(join(cwd, 'marquee.yml'), 'livetv:\n  guides: [guide.xml]\n');
    const { code, stderr } = await runCli(['import'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toBe(
      'marquee import: a guide (livetv.guides) needs a playlist: give --playlist with it, or name playlists in marquee.yml (livetv.playlists)\n',
    );
  });
});

describe('a mistyped settings key', () => {
  it('is named with its file and line, and the key probably meant', async () => {
    const cwd = workdir();
    writeFileSync(join(cwd, 'marquee.yaml'), 'port: 7000\nlivetv:\n  playlsts: [./tv.m3u]\n');
    const { code, stderr } = await runCli(['import'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toBe('marquee import: unknown key `playlsts` in marquee.yaml line 3; did you mean `playlists`?\n');
  });

  it('inside a source object too, and without a guess when nothing is close', async () => {
    const cwd = workdir();
    writeFileSync(join(cwd, 'marquee.yaml'), 'livetv:\n  guides: [{ url: g.xml, shiftHour: 1 }]\ncolour: red\n');
    const { stderr } = await runCli(['serve'], { cwd });
    expect(stderr).toContain('  unknown key `shiftHour` in marquee.yaml line 2; did you mean `shiftHours`?\n');
    expect(stderr).toContain('  unknown key `colour` in marquee.yaml line 3\n');
  });
});

describe('a library with no usable item', () => {
  it('says why the first item was skipped, not a harmless warning before it', async () => {
    const cwd = workdir();
    writeFileSync(join(cwd, 'films.csv'), 'name,type,colour,released\nBad,movie,red,2021-02-30\n');
    const { code, stdout } = await runCli(['import', '--library', 'films.csv'], { cwd });
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /the first item skipped: \S+films\.csv:2 released: row "Bad": column 4 \(released\): must be a year .*; item skipped/,
    );
    expect(stdout).not.toMatch(/the first[^;]*colour/);
  });
});

describe('import progress', () => {
  it('counts the playlist entries it read', async () => {
    const cwd = workdir();
    const playlist = demoPlaylist();
    writeFileSync(join(cwd, 'tv.m3u'), playlist);
    const entries = playlist.split('\n').filter((l) => l.startsWith('#EXTINF')).length;
    expect(entries).toBeGreaterThan(0);
    const { code, stderr } = await runCli(['import', '--playlist', 'tv.m3u'], { cwd });
    expect(code).toBe(0);
    expect(stderr).toMatch(new RegExp(`^playlist \\S+tv\\.m3u .* ${entries} records$`, 'm'));
  });
});

describe('a port in use', () => {
  it('is reported at once, before the demo is imported and warmed up', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const { code, stdout, stderr } = await runCli(['serve', '--port', String(port), '--demo'], { cwd: workdir() });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        `marquee serve: port ${port} on 127.0.0.1 is already in use (another marquee serve?): stop that program, or choose another port with --port\n`,
      );
    } finally {
      busy.close();
    }
  });
});

describe('--help', () => {
  it.each(['serve', 'import', 'export', 'rotate-key'])('%s lists every default settings file', async (command) => {
    const { stdout } = await runCli([command, '--help'], { cwd: workdir() });
    const config = stdout.split('\n').find((l) => l.trim().startsWith('--config FILE'));
    for (const file of DEFAULT_SETTINGS_FILES) expect(config).toContain(`./${file}`);
  });
});
