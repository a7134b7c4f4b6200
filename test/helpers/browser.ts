/**
 * Debian's Chromium driven by playwright-core, for the end-to-end browser tests. Their describes
 * are skipped, naming Chromium, where it is not installed (test/helpers/tools.ts); under CI=true
 * they run and fail here with the fix in the message (.ci/run installs it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless, no network of its own (no sync, updates, QUIC probes), no first-run UI. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const;

export interface TestBrowser {
  readonly context: BrowserContext;
  /** Close the browser and delete its profile. */
  close(): Promise<void>;
}

/**
 * Launch Chromium with a profile made fresh for this run (no cookies, cache or storage from before).
 *
 * @example const browser = await launchBrowser(); const page = await browser.context.newPage();
 */
export async function launchBrowser(options: { readonly args?: readonly string[] } = {}): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. The configure-page browser test needs Debian's ` +
        'chromium package: run `apt-get install chromium` (.ci/run does this on CI).',
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'marquee-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
      viewport: { width: 1024, height: 900 },
      timeout: 30_000,
    });
    // Actions wait for their element at most this long, so a missing one fails inside the test's time.
    context.setDefaultTimeout(10_000);
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

export interface PageWatch {
  /** Messages of dialogs opened (alert, confirm, prompt): a script the page did not mean to run. */
  readonly dialogs: string[];
  /** Uncaught script errors. */
  readonly errors: string[];
  /** Console errors, Content-Security-Policy violations included. */
  readonly consoleErrors: string[];
}

/** Record what would show that a page ran a script it should not have, or broke its own. */
export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { dialogs: [], errors: [], consoleErrors: [] };
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') watch.consoleErrors.push(message.text());
  });
  return watch;
}
