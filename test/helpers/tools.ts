/**
 * System tools some tests drive (Chromium, nginx, caddy, ffmpeg, openssl, curl). A clone on a
 * machine without them still passes `npm run check`: the tests that need a missing tool are
 * skipped, with the tool named in the test's title, and test/helpers/setup.ts prints one line
 * naming every missing tool and the `apt-get` line that installs them. Under `CI=true` nothing is
 * skipped: a missing tool fails the run (.ci/run installs them all).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';

/** Each tool: the command looked for on PATH (and in /usr/sbin), and the Debian package that has it. */
export const TOOLS = {
  chromium: { command: 'chromium', apt: 'chromium' },
  nginx: { command: 'nginx', apt: 'nginx' },
  caddy: { command: 'caddy', apt: 'caddy' },
  ffmpeg: { command: 'ffmpeg', apt: 'ffmpeg' },
  openssl: { command: 'openssl', apt: 'openssl' },
  curl: { command: 'curl', apt: 'curl' },
} as const;

export type Tool = keyof typeof TOOLS;

/** The `apt-get` line that installs every tool the suite uses. */
export const APT_LINE = `apt-get install -y ${Object.values(TOOLS)
  .map((t) => t.apt)
  .join(' ')}`;

const found = new Map<Tool, string | undefined>();

/**
 * Where `tool` is installed, or undefined.
 * @example toolPath('nginx') // '/usr/sbin/nginx'
 */
export function toolPath(tool: Tool): string | undefined {
  if (found.has(tool)) return found.get(tool);
  // MARQUEE_TEST_WITHOUT=chromium,nginx: taken as missing, to try the skip path on a machine that has them.
  if ((process.env.MARQUEE_TEST_WITHOUT ?? '').split(',').includes(tool)) {
    found.set(tool, undefined);
    return undefined;
  }
  const dirs = (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/local/sbin', '/usr/bin']);
  const path = dirs.map((dir) => (dir ? join(dir, TOOLS[tool].command) : '')).find((p) => p !== '' && existsSync(p));
  found.set(tool, path);
  return path;
}

/** The tools of `tools` that are not installed. */
export function missingTools(tools: readonly Tool[]): Tool[] {
  return tools.filter((tool) => toolPath(tool) === undefined);
}

/** True under CI (`CI=true`), where a missing tool is a failure, not a skip. */
export function inCi(): boolean {
  return /^(1|true|yes)$/i.test(process.env.CI ?? '');
}

/**
 * Whether tests needing `tools` are skipped here, and the title to give them: a missing tool is
 * named in it. Under CI=true nothing is skipped (the tests run, and fail on the missing tool).
 * @example const { skip, title } = needs(['chromium']); describe.skipIf(skip)(title('the front page'), …)
 */
export function needs(tools: readonly Tool[]): { skip: boolean; missing: Tool[]; title: (name: string) => string } {
  const missing = missingTools(tools);
  const skip = missing.length > 0 && !inCi();
  return {
    skip,
    missing,
    title: (name) => (skip ? `${name} (skipped: ${missing.join(', ')} not installed; ${APT_LINE})` : name),
  };
}

/**
 * `describe`, skipped (naming the tools) when one of `tools` is missing and CI is not set.
 * @example describeWith(['nginx'], 'hosted replicas behind nginx', () => { … })
 */
export function describeWith(tools: readonly Tool[], name: string, body: () => void): void {
  const { skip, title } = needs(tools);
  describe.skipIf(skip)(title(name), body);
}

/**
 * `it`, skipped (naming the tools) when one of `tools` is missing and CI is not set.
 * @example itWith(['caddy', 'curl'], 'serves behind Caddy', async () => { … }, 60_000)
 */
export function itWith(tools: readonly Tool[], name: string, body: () => Promise<void> | void, timeout?: number): void {
  const { skip, title } = needs(tools);
  it.skipIf(skip)(title(name), body, timeout);
}
