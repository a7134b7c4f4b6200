/**
 * Manifest stability: installed clients keep the manifest they installed, so an import that
 * changes what it routes or lists bumps its version (minor), is logged at warn and kept for
 * `marquee status`; imports that add only ids of the kinds always declared change nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAddon, importAll } from '../src/cli/app.js';
import type { Settings } from '../src/cli/settings.js';
import { version as packageVersion } from '../src/cli/version.js';
import {
  bumpMinor,
  describeManifestChange,
  lastManifestChange,
  type ManifestChange,
  manifestChanges,
  openStore,
  type Store,
} from '../src/store/index.js';
import { runCli, startCli } from './helpers/cli.js';

const dirs: string[] = [];
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-manifest-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const films = (items: object[]) => JSON.stringify(items);
const SINTEL = { id: 'tt1727587', type: 'movie', name: 'Sintel', genres: ['Animation'] };
const BUNNY = { id: 'tt1254207', type: 'movie', name: 'Big Buck Bunny', genres: ['Animation'] };
const SPRING = { type: 'movie', name: 'Spring', genres: ['Animation'] }; // a generated mq: id
const HORROR = { id: 'tt0000666', type: 'movie', name: 'Night', genres: ['Horror'] };
const KITSU = { id: 'kitsu:42', type: 'movie', name: 'Anime', genres: ['Animation'] };

/** Import `items` as the library and build the add-on as `marquee serve` does. */
async function served(store: Store, dir: string, items: object[], extra: Partial<Settings> = {}) {
  writeFileSync(join(dir, 'films.json'), films(items));
  const settings: Settings = { library: { files: [join(dir, 'films.json')] }, ...extra };
  const outcome = await importAll(store, settings);
  expect(outcome.library && 'error' in outcome.library ? outcome.library.error : undefined).toBeUndefined();
  const changes: ManifestChange[] = [];
  const addon = buildAddon(store, settings, join(dir, 'keys.json'), (c) => changes.push(c));
  return { addon, changes };
}

describe('the served manifest across imports', () => {
  const dir = workdir();
  const store = openStore(join(dir, 'marquee.db'));
  afterAll(() => store.close());
  const base = packageVersion();

  it('starts at the configured version, with nothing to report', async () => {
    const { addon, changes } = await served(store, dir, [SINTEL]);
    expect(addon.manifest.version).toBe(base);
    expect(changes).toEqual([]);
    expect(manifestChanges(store)).toEqual([]);
    expect(lastManifestChange(store)).toBeUndefined();
  });

  it('stays put when an import adds items of the id kinds always declared (tt, generated)', async () => {
    const { addon, changes } = await served(store, dir, [SINTEL, BUNNY, SPRING]);
    expect(changes).toEqual([]);
    expect(addon.manifest.version).toBe(base);
    const meta = addon.manifest.resources.find((r) => typeof r !== 'string' && r.name === 'meta');
    expect(meta).toMatchObject({ idPrefixes: ['mq:', 'tt'] });
  });

  it('bumps the version when an import adds a genre, and says what was added', async () => {
    const { addon, changes } = await served(store, dir, [SINTEL, HORROR]);
    const bumped = bumpMinor(base);
    expect(addon.manifest.version).toBe(bumped);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.added).toEqual(['genre Horror in catalog movie/movies']);
    expect(changes[0]!.removed).toEqual([]);
    expect(describeManifestChange(changes[0]!)).toBe(
      `the manifest changed (genre Horror in catalog movie/movies added); users must reinstall to see it (now ${bumped})`,
    );
    expect(lastManifestChange(store)).toEqual(changes[0]);
    // Served again unchanged: the bumped version stays, nothing new is reported.
    const again = buildAddon(store, { library: { files: [join(dir, 'films.json')] } }, join(dir, 'keys.json'), () => {
      throw new Error('no change expected');
    });
    expect(again.manifest.version).toBe(bumped);
  });

  it('bumps again for a new id kind, which installed clients would not route', async () => {
    const { addon, changes } = await served(store, dir, [SINTEL, HORROR, KITSU]);
    expect(addon.manifest.version).toBe(bumpMinor(bumpMinor(base)));
    // The library serves metas (no streams in these files): its meta resource routes the new kind.
    expect(changes[0]!.added).toEqual(['id prefix kitsu: of meta']);
    expect(manifestChanges(store).map((c) => c.version)).toEqual([bumpMinor(bumpMinor(base)), bumpMinor(base)]);
  });

  it('reports removals too', async () => {
    const { changes } = await served(store, dir, [SINTEL, KITSU]);
    expect(changes[0]!.removed).toEqual(['genre Horror in catalog movie/movies']);
  });

  it('starts over from a version the operator sets', async () => {
    const { addon, changes } = await served(store, dir, [SINTEL, KITSU], { addon: { version: '3.0.0' } });
    expect(addon.manifest.version).toBe('3.0.0');
    expect(changes).toEqual([]);
  });
});

describe('bumpMinor', () => {
  it.each([
    ['0.1.0', '0.2.0'],
    ['1.9.3', '1.10.0'],
    ['2024.1', '2024.2'],
    ['beta', 'beta.1'],
  ])('%s → %s', (from, to) => expect(bumpMinor(from)).toBe(to));
});

describe('marquee serve after an import that changed the manifest', () => {
  it('logs the change at warn and serves the bumped version', async () => {
    const cwd = workdir();
    writeFileSync(join(cwd, 'films.json'), films([SINTEL]));
    expect((await runCli(['import', '--library', 'films.json'], { cwd })).code).toBe(0);
    const first = startCli(['serve', '--port', '0', '--refresh-hours', '0', '--quiet'], { cwd });
    await first.waitForStdout(/manifest: +\S+/);
    first.stop();
    await first.done;
    expect(first.stdout()).not.toContain('manifest changed');

    writeFileSync(join(cwd, 'films.json'), films([SINTEL, HORROR]));
    expect((await runCli(['import', '--library', 'films.json'], { cwd })).code).toBe(0);
    const second = startCli(['serve', '--port', '0', '--refresh-hours', '0', '--quiet'], { cwd });
    await second.waitForStdout(/manifest: +\S+/);
    second.stop();
    await second.done;
    const warn = second
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((r) => r.level === 'warn');
    expect(warn.msg).toBe(
      `the manifest changed (genre Horror in catalog movie/movies added); users must reinstall to see it (now ${bumpMinor(packageVersion())})`,
    );
    expect(second.stdout()).toContain(`Marquee ${bumpMinor(packageVersion())} is running`);

    // `marquee status` shows the change, for people and scripts.
    const status = await runCli(['status'], { cwd });
    expect(status.stdout).toMatch(
      /^manifest: \d{4}-\d\d-\d\d \d\d:\d\d UTC: the manifest changed \(genre Horror in catalog movie\/movies added\); users must reinstall/m,
    );
    const json = JSON.parse((await runCli(['status', '--json'], { cwd })).stdout);
    expect(json.manifestChange).toMatchObject({
      version: bumpMinor(packageVersion()),
      added: ['genre Horror in catalog movie/movies'],
    });
  });
});
