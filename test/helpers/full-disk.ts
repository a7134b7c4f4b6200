/** A full disk for tests: a real small tmpfs, and a playlist large enough to fill it. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A real small file system for a full disk: a tmpfs of `size`, mounted now and unmounted after
 * the calling file's tests. Root only: undefined where it cannot be mounted (tests then skip).
 * @example const disk = smallDisk('marquee-full'); it.skipIf(!disk)('SQLITE_FULL…', …)
 */
export function smallDisk(name: string, size = '16m'): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const path = join(tmpdir(), `${name}-${process.pid}`);
  try {
    mkdirSync(path, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', path], { stdio: 'ignore' });
  } catch {
    rmSync(path, { recursive: true, force: true });
    return undefined;
  }
  afterAll(() => {
    execFileSync('umount', [path]);
    rmSync(path, { recursive: true, force: true });
  });
  return path;
}

/** A playlist of `n` channels with long names and URLs: enough rows that an import needs many new pages. */
export function bigPlaylist(n: number): string {
  const lines = ['#EXTM3U'];
  for (let i = 0; i < n; i++) {
    lines.push(
      `#EXTINF:-1 tvg-id="big${i}.tv" group-title="Group ${i % 40}",Big Channel Number ${i} ${'·'.repeat(40)}`,
    );
    lines.push(`https://streams.example/big/${i}/${'x'.repeat(60)}.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}
