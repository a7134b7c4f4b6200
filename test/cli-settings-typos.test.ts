/**
 * Typos in a settings file, as a new user makes them (issue 46): every unknown key is reported in
 * one run, two in one block included (the schema alone stops at the first of each object), and a
 * misspelt key that has a default is not followed by "is required" for the key it meant.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettingsFile } from '../src/cli/settings.js';
import { runCli } from './helpers/cli.js';

const dirs: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-typos-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('settings typos', () => {
  it('are all reported in one run, two in one block included, without a "required" for the key meant', async () => {
    const cwd = folder();
    writeFileSync(
      join(cwd, 'marquee.yaml'),
      [
        'refresh:',
        '  intervalHour: 6',
        'livetv:',
        '  playlist: [./tv.m3u]',
        '  guide: [./guide.xml]',
        'health: { enabld: true, intervalHour: 1 }',
        '',
      ].join('\n'),
    );
    const run = await runCli(['import'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n').filter((l) => l !== '')).toEqual([
      `marquee import: ${join(cwd, 'marquee.yaml')} has 5 problems:`,
      '  unknown key `intervalHour` in marquee.yaml line 2; did you mean `intervalHours`?',
      '  unknown key `playlist` in marquee.yaml line 4; did you mean `playlists`?',
      '  unknown key `guide` in marquee.yaml line 5; did you mean `guides`?',
      '  unknown key `enabld` in marquee.yaml line 6; did you mean `enabled`?',
      '  unknown key `intervalHour` in marquee.yaml line 6; did you mean `intervalHours`?',
    ]);
    expect(run.stderr).not.toMatch(/required/);
  });

  it('say one typo as one problem, in JSON too, and a key with a default may be left out', () => {
    const dir = folder();
    writeFileSync(join(dir, 'marquee.json'), '{ "refresh": { "intervalHour": 6 } }');
    expect(() => loadSettingsFile(join(dir, 'marquee.json'))).toThrow(
      /^unknown key `intervalHour` in marquee\.json line 1; did you mean `intervalHours`\?$/,
    );
    // refresh.intervalHours has a default (6): a block without it is no mistake.
    writeFileSync(join(dir, 'marquee.json'), '{ "refresh": {} }');
    expect(loadSettingsFile(join(dir, 'marquee.json')).refresh).toEqual({});
  });

  it('still say what a required key without a default misses, and unknown keys inside lists', () => {
    const dir = folder();
    writeFileSync(
      join(dir, 'marquee.yaml'),
      [
        'livetv:',
        '  guides: [{ url: ./a.xml, shift: 1, shiftHour: 2 }]',
        'library:',
        '  catalogs: [{ type: movie, id: top, nme: Top }]',
        '',
      ].join('\n'),
    );
    let message = '';
    try {
      loadSettingsFile(join(dir, 'marquee.yaml'));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('unknown key `shift` in marquee.yaml line 2');
    expect(message).toContain('unknown key `shiftHour` in marquee.yaml line 2; did you mean `shiftHours`?');
    expect(message).toContain('unknown key `nme` in marquee.yaml line 4; did you mean `name`?');
    // `nme` is a typo of `name`, which has no default: said once, as the typo.
    expect(message).not.toMatch(/\$\.library\.catalogs\[0\]\.name/);
  });
});
