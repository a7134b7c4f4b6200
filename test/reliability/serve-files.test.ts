/**
 * A running `marquee serve` keeps up with the operator (issue 18): `rotate-key --drop-old` takes
 * effect within 5 seconds (the key ring is watched; SIGHUP reloads at once), and a database file
 * replaced at its path is served within a minute (10 s here), unless the replacement is not a
 * Marquee store, which is refused with an `error` line while the open one stays served.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCli, runCli, startCli } from '../helpers/cli.js';
import { httpRequest } from '../helpers/http.js';

let dir: string;
let cli: RunningCli;
let base: string;
const film = (id: string, name: string) => ({ id, type: 'movie', name, genres: ['Drama'] });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-serve-files-'));
  writeFileSync(join(dir, 'films.json'), JSON.stringify([film('tt0000001', 'First')]));
  expect((await runCli(['import', '--library', 'films.json'], { cwd: dir })).code).toBe(0);
  cli = startCli(['serve', '--port', '0', '--refresh-hours', '0', '--quiet', '--log-format', 'json'], { cwd: dir });
  base = (await cli.waitForStdout(/manifest: +(http:\/\/\S+)\/manifest\.json/))[1]!;
}, 60_000);
afterAll(async () => {
  cli.stop();
  await cli.done;
  rmSync(dir, { recursive: true, force: true });
});

async function configure(): Promise<string> {
  const form = await httpRequest(base, '/configure', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'cfg_adult=on',
  });
  return /\/([^/"]+)\/manifest\.json/.exec(form.text())![1]!;
}

async function until(check: () => Promise<boolean>, ms: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - started;
}

const names = async () =>
  ((await httpRequest(base, '/catalog/movie/movies.json')).json() as { metas: { name: string }[] }).metas.map(
    (m) => m.name,
  );

describe('the key ring of a running server', () => {
  it('drops old keys within 5 seconds of rotate-key --drop-old, and new links use the new key', async () => {
    const old = await configure();
    expect((await httpRequest(base, `/${old}/manifest.json`)).status).toBe(200);
    expect((await runCli(['rotate-key', '--drop-old'], { cwd: dir })).code).toBe(0);
    const took = await until(async () => (await httpRequest(base, `/${old}/manifest.json`)).status === 404, 5_000);
    expect(took).toBeLessThan(5_000);
    const fresh = await configure();
    expect(fresh).not.toBe(old);
    expect((await httpRequest(base, `/${fresh}/manifest.json`)).status).toBe(200);
    expect(cli.stdout()).toMatch(/reloaded the key ring/);
  });

  it('reloads at once on SIGHUP', async () => {
    const old = await configure();
    expect((await runCli(['rotate-key', '--drop-old'], { cwd: dir })).code).toBe(0);
    cli.reload();
    expect((await httpRequest(base, `/${old}/manifest.json`)).status).toBe(404);
  });
});

describe('the database file of a running server', () => {
  it('serves a replacement at the configured path, and refuses one that is not a Marquee store', async () => {
    expect(await names()).toEqual(['First']);
    // A store built elsewhere, moved into place as a restore from backup would be.
    writeFileSync(join(dir, 'films.json'), JSON.stringify([film('tt0000002', 'Second')]));
    expect((await runCli(['import', '--library', 'films.json', '--db', 'other.db'], { cwd: dir })).code).toBe(0);
    renameSync(join(dir, 'other.db'), join(dir, 'marquee.db'));
    const took = await until(async () => (await names()).includes('Second'), 20_000);
    expect(took).toBeLessThan(20_000);
    expect(cli.stdout()).toMatch(
      /"level":"warn","msg":"the database file .*marquee\.db was replaced; serving the new one"/,
    );

    writeFileSync(join(dir, 'junk.db'), 'not a database at all, just text that someone copied over it');
    renameSync(join(dir, 'junk.db'), join(dir, 'marquee.db'));
    await cli.waitForStdout(
      /"level":"error".*marquee\.db is not a Marquee store \(it is not an SQLite database\); the open one is still served/,
      20_000,
    );
    expect(await names()).toEqual(['Second']);
  }, 60_000);
});
