/**
 * docs/https.md as the package ships it (`files` in package.json lists docs/), read for the
 * server's guide page and the export's https.html. Found from this module's own URL: two folders
 * up from src/cli/ in a checkout, and from dist/cli/ in a build or an installed package, is the
 * package's root.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The guide is a few pages of text; a file past this is not the one we ship. */
const MAX_GUIDE_BYTES = 1_048_576;

/** Where the guide is: `<package>/docs/https.md`. */
export const HTTPS_GUIDE_FILE = new URL('../../docs/https.md', import.meta.url);

/**
 * The guide's Markdown, or why it cannot be had (a package stripped of its docs/).
 *
 * @example const guide = readHttpsGuide(); if ('markdown' in guide) createRequestHandler(addon, { httpsGuide: guide.markdown });
 */
export function readHttpsGuide(file: URL = HTTPS_GUIDE_FILE): { markdown: string } | { problem: string } {
  try {
    const bytes = readFileSync(file);
    if (bytes.length > MAX_GUIDE_BYTES) {
      return { problem: `${fileURLToPath(file)} is larger than ${MAX_GUIDE_BYTES} bytes: not Marquee's HTTPS guide` };
    }
    return { markdown: bytes.toString('utf8') };
  } catch (error) {
    return {
      problem: `the HTTPS guide ${fileURLToPath(file)} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`,
    };
  }
}

/**
 * The server option that serves the guide at `/https` (`ServerOptions.httpsGuide`), for `serve`
 * and `serve --hosted`; when the guide cannot be read, `warn` says so and the option is left out
 * (the pages then name the guide instead of linking it).
 *
 * @example createRequestHandler(addon, { ...httpsGuideOption((m) => log.warn(m)) })
 */
export function httpsGuideOption(warn: (message: string) => void): { httpsGuide?: string } {
  const guide = readHttpsGuide();
  if ('markdown' in guide) return { httpsGuide: guide.markdown };
  warn(`${guide.problem}: the pages name the guide instead of linking it`);
  return {};
}
