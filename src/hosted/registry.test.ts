/**
 * The registry of source sets: bounded by maxSourceSets when it loads a file that holds more,
 * without the sets that never imported; written at most once a second, and not at all when
 * nothing changed (a use moves a set's last use only by the minute).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRegistry, REGISTRY_FILE, readRegistry, type SetRecord } from './registry.js';

const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-registry-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const key = (i: number) => i.toString(16).padStart(32, '0');
const record = (i: number, at: number, imported = true): SetRecord => ({
  key: key(i),
  createdAt: at,
  lastUsedAt: at,
  ...(imported ? { importedAt: at, lastImport: { at, outcome: 'imported' as const } } : {}),
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The registry file's identity: every write replaces the file (write, then rename). */
const inode = (dir: string) => {
  const s = statSync(join(dir, REGISTRY_FILE), { bigint: true });
  return `${s.ino}:${s.mtimeNs}`;
};

describe('the hosted registry', () => {
  it('loads at most maxSets records, the most recently used, and none that never imported', () => {
    const dir = folder();
    const sets: Record<string, SetRecord> = {};
    for (let i = 0; i < 1_000; i++) sets[key(i)] = record(i, 1_000_000 + i, i % 10 !== 0);
    writeFileSync(join(dir, REGISTRY_FILE), JSON.stringify({ version: 1, sets }));
    const registry = openRegistry(dir, { maxSets: 5 });
    expect(registry.size).toBe(5);
    expect(registry.all().map((s) => s.key)).toEqual([999, 998, 997, 996, 995].map(key));
    expect(registry.dropped).toHaveLength(995);
    registry.flush();
    expect(readRegistry(dir)).toHaveLength(5);
    expect(statSync(join(dir, REGISTRY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('writes at most once a second however often it changes', async () => {
    const dir = folder();
    const registry = openRegistry(dir);
    registry.add(record(1, Date.now()));
    registry.flush();
    const seen = new Set([inode(dir)]);
    const until = Date.now() + 2_500;
    let i = 2;
    while (Date.now() < until) {
      registry.add(record(i++, Date.now()));
      seen.add(inode(dir));
      await sleep(10);
    }
    // 2.5 s of changes every 10 ms: the first file and two or three writes, not 250.
    expect(seen.size).toBeLessThanOrEqual(4);
    expect(i).toBeGreaterThan(50);
    registry.close();
    expect(readRegistry(dir)).toHaveLength(i - 1);
  });

  it('does not write when nothing changed: uses within the minute of the last are not changes', async () => {
    const dir = folder();
    const start = Date.now();
    const registry = openRegistry(dir);
    registry.add(record(1, start));
    registry.flush();
    const before = inode(dir);
    for (let s = 0; s < 59; s++) registry.use(key(1), start + s * 1_000);
    registry.use(key(99), start); // not recorded: no trace
    await sleep(1_200);
    expect(inode(dir)).toBe(before);
    expect(registry.get(key(1))!.lastUsedAt).toBe(start);
    expect(registry.get(key(99))).toBeUndefined();
    // A minute later it is a change, written.
    registry.use(key(1), start + 61_000);
    await sleep(1_200);
    expect(inode(dir)).not.toBe(before);
    expect(JSON.parse(readFileSync(join(dir, REGISTRY_FILE), 'utf8')).sets[key(1)].lastUsedAt).toBe(start + 61_000);
    registry.close();
  });
});
