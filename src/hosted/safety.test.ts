/**
 * Small pieces of hosted mode's defences: refused requests counted into one line a minute,
 * server paths cut out of messages for users, a stored password kept only for its own account,
 * and the hosted folder made private whatever it was.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addressBlock, withoutPaths } from './configure.js';
import { privateDir } from './files.js';
import { createRefusalLog } from './refusals.js';
import { xtreamAccountOf } from './sources.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the refusal log', () => {
  it('says once per window how many requests were refused and why', async () => {
    const lines: { message: string; fields?: Record<string, unknown> }[] = [];
    const refusals = createRefusalLog(
      (_level, message, fields) => lines.push({ message, ...(fields ? { fields } : {}) }),
      100,
    );
    for (let i = 0; i < 5_000; i++) refusals.note(i % 2 ? 'rate-limit' : 'cross-site');
    expect(lines).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      message: 'refused requests',
      fields: { count: 5_000, reasons: { 'rate-limit': 2_500, 'cross-site': 2_500 } },
    });
    refusals.note('invalid');
    refusals.flush();
    refusals.flush();
    expect(lines).toHaveLength(2);
    expect(lines[1]!.fields).toMatchObject({ count: 1, reasons: { invalid: 1 } });
  });
});

describe('messages for users', () => {
  it('name no server path, and keep URLs, hosts and words with slashes', () => {
    expect(
      withoutPaths(
        'playlist: live-TV import failed while reading /var/lib/marquee/h.db.hosted/9cd4e1f0aa.db: SOURCE_TOO_LARGE: x; no live TV was imported before',
      ),
    ).toBe('playlist: live-TV import failed while reading …: SOURCE_TOO_LARGE: x; no live TV was imported before');
    expect(withoutPaths("EISDIR: illegal operation on a directory, open '/tmp/x/abc.db'")).toBe(
      "EISDIR: illegal operation on a directory, open '…'",
    );
    expect(withoutPaths('cannot write C:\\data\\marquee.db.hosted\\x.db now')).toBe('cannot write … now');
    for (const kept of [
      'the playlist https://tv.example/a/b.m3u is an HTML page',
      'epg: tv.example/… answered HTTP 404',
      'genres Drama / Comedy, 1/2 of them',
      'xtream us…@127.0.0.1:8080: get_live_streams: more than 67108864 bytes',
    ]) {
      expect(withoutPaths(kept)).toBe(kept);
    }
  });
});

describe('the address block of the per-address import limit', () => {
  it('is an IPv4 address itself, and the /64 of an IPv6 address', () => {
    expect(addressBlock('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBlock('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBlock('2001:db8:1:2:aa::5')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:db8:1:2:ffff:ffff:ffff:1')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('[2001:0db8:0001:0002::1]')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBlock('::1')).toBe('0:0:0:0::/64');
  });
});

describe('the account a stored password belongs to', () => {
  it('is the server URL and the user, however the user is written', () => {
    const stored = { xtreamUrl: 'http://panel.example:8080/', xtreamUser: 'alice', xtreamPass: 'pw' };
    expect(xtreamAccountOf({ xtreamUrl: ' http://PANEL.example:8080#x ', xtreamUser: 'alice ' })).toBe(
      xtreamAccountOf(stored),
    );
    expect(xtreamAccountOf({ xtreamUrl: 'http://alice@panel.example:8080/' })).not.toBe(xtreamAccountOf(stored));
    expect(xtreamAccountOf({ xtreamUrl: 'http://evil.example:8080/', xtreamUser: 'alice' })).not.toBe(
      xtreamAccountOf(stored),
    );
    expect(xtreamAccountOf({ xtreamUrl: 'http://panel.example:8080/', xtreamUser: 'bob' })).not.toBe(
      xtreamAccountOf(stored),
    );
    expect(xtreamAccountOf({ playlist: 'https://tv.example/a.m3u' })).toBeUndefined();
  });
});

describe('the hosted folder', () => {
  it('is made 0700 and its files 0600 when it was open to others, and says so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-private-'));
    dirs.push(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'sets.json'), '{}', { mode: 0o644 });
    mkdirSync(join(dir, 'x.db.sources'), { mode: 0o755 });
    writeFileSync(join(dir, 'x.db.sources', 'copy'), 'x', { mode: 0o644 });
    expect(privateDir(dir)).toBe(0o755);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'sets.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'x.db.sources')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'x.db.sources', 'copy')).mode & 0o777).toBe(0o600);
    // Already private: nothing to say.
    expect(privateDir(dir)).toBeUndefined();
    const fresh = join(dir, 'new');
    expect(privateDir(fresh)).toBeUndefined();
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });
});
