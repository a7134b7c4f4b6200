/**
 * The shared real-world corpus (public playlists, guides, films, a labelled matching set), for
 * the corpus-wide tests. It lives outside the repository: its folder is named by
 * `MARQUEE_CORPUS` (CI sets it to the shared corpus beside the checkout), and without it those tests are skipped, the
 * reason in their titles and in the one line test/helpers/setup.ts prints. Tests that need a
 * real-world file rather than the whole corpus read the small excerpts in test/fixtures/corpus/,
 * which run everywhere.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/** The vendored excerpts (test/fixtures/corpus/README.md says where each comes from). */
const EXCERPTS = fileURLToPath(new URL('../fixtures/corpus/', import.meta.url));

/**
 * A vendored real-world excerpt: runs everywhere.
 * @example readFileSync(excerpt('playlists', 'iptv-org-gp.m3u'), 'utf8')
 */
export function excerpt(...parts: string[]): string {
  return join(EXCERPTS, ...parts);
}

/**
 * The real-world files of one kind (`guides`, `playlists`): the vendored excerpts, and every file
 * of the corpus's folder of that name when MARQUEE_CORPUS names one. Sorted, each name once (the
 * corpus's copy of an excerpt stands for both).
 */
export function realWorldFiles(kind: string, filter: (name: string) => boolean = () => true): string[] {
  const byName = new Map<string, string>();
  const add = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) if (filter(name)) byName.set(name, join(dir, name));
  };
  add(join(EXCERPTS, kind));
  const corpus = corpusDir();
  if (corpus !== undefined) add(join(corpus, kind));
  return [...byName.keys()].sort().map((name) => byName.get(name)!);
}

/** The corpus folder `MARQUEE_CORPUS` names (relative to the working directory), when it is one. */
export function corpusDir(): string | undefined {
  const named = process.env.MARQUEE_CORPUS;
  if (named === undefined || named === '') return undefined;
  const dir = resolve(named);
  return existsSync(dir) && statSync(dir).isDirectory() ? dir : undefined;
}

/** Why corpus-wide tests are skipped here, or undefined when they run. */
export function corpusMissing(): string | undefined {
  const named = process.env.MARQUEE_CORPUS;
  if (named === undefined || named === '') return 'MARQUEE_CORPUS is not set';
  return corpusDir() === undefined ? `MARQUEE_CORPUS (${named}) is not a folder` : undefined;
}

/**
 * A file of the corpus; throws when there is no corpus (call it inside a `describeCorpus` body's
 * hooks or tests, never at module load).
 * @example readFileSync(corpusFile('guides', 'energeek.cl.content.xml'), 'utf8')
 */
export function corpusFile(...parts: string[]): string {
  const dir = corpusDir();
  if (dir === undefined)
    throw new Error(`no corpus: ${corpusMissing()} (CI sets it to the shared corpus beside the checkout)`);
  return join(dir, ...parts);
}

const title = (name: string) => {
  const missing = corpusMissing();
  return missing === undefined ? name : `${name} (skipped: ${missing})`;
};

/**
 * `describe` over the corpus: skipped, saying why, without one.
 * @example describeCorpus('every public guide', () => { it(…, () => corpusFile('guides')) })
 */
export function describeCorpus(name: string, body: () => void): void {
  describe.skipIf(corpusDir() === undefined)(title(name), body);
}

/** `it` over the corpus: skipped, saying why, without one. */
export function itCorpus(name: string, body: () => Promise<void> | void, timeout?: number): void {
  it.skipIf(corpusDir() === undefined)(title(name), body, timeout);
}
