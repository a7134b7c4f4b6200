/**
 * `marquee rotate-key`: new install links use a new key while links made with older keys keep
 * working; --drop-old retires them (after a leak).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenCodec, parseKeyRing } from '../src/server/index.js';
import { runCli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'marquee-rotate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('marquee rotate-key', () => {
  it('creates a key ring, then adds keys that keep old links readable, and drops them on request', async () => {
    const db = join(dir, 'tv.db');
    const keyFile = `${db}.keys.json`;
    const created = await runCli(['rotate-key', '--db', db], { cwd: dir });
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('created');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const first = parseKeyRing(readFileSync(keyFile, 'utf8'));
    const oldLink = createTokenCodec(first, 'org.test').encode({ pin: '1234' });

    await new Promise((r) => setTimeout(r, 5));
    const rotated = await runCli(['rotate-key', '--db', db], { cwd: dir });
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/1 older key kept/);
    const second = parseKeyRing(readFileSync(keyFile, 'utf8'));
    expect(second.current).not.toBe(first.current);
    const codec = createTokenCodec(second, 'org.test');
    expect(codec.decode(oldLink)).toEqual({ pin: '1234' });
    expect(codec.encode({ a: 1 }).startsWith(`v1.${second.current}.`)).toBe(true);

    await new Promise((r) => setTimeout(r, 5));
    const dropped = await runCli(['rotate-key', '--db', db, '--drop-old'], { cwd: dir });
    expect(dropped.code).toBe(0);
    const third = parseKeyRing(readFileSync(keyFile, 'utf8'));
    expect(Object.keys(third.keys)).toEqual([third.current]);
    expect(createTokenCodec(third, 'org.test').decode(oldLink)).toBeUndefined();
  });

  it('refuses an unusable key file without printing key material', async () => {
    const keyFile = join(dir, 'bad.keys.json');
    writeFileSync(keyFile, JSON.stringify({ current: 'a', keys: { a: 'c2VjcmV0' } }));
    const missing = await runCli(['rotate-key', '--config', join(dir, 'settings.json')], { cwd: dir });
    expect(missing.code).toBe(2);
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ security: { configKeyFile: keyFile } }));
    const bad = await runCli(['rotate-key', '--config', join(dir, 'settings.json')], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.keys.json');
    expect(bad.stderr).not.toContain('c2VjcmV0');
  });
});
