import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import direction of ARCHITECTURE.md, enforced: cli → backends → (addon, server, store,
 * sources) → protocol → errors. A folder may import only the folders listed for it.
 */
const ALLOWED: Record<string, readonly string[]> = {
  protocol: ['errors'],
  sources: ['errors', 'protocol'],
  addon: ['errors', 'protocol'],
  server: ['errors', 'protocol', 'addon'],
  store: ['errors', 'protocol', 'sources'],
  livetv: ['errors', 'protocol', 'addon', 'store', 'sources'],
  library: ['errors', 'protocol', 'addon', 'store', 'sources'],
  checker: ['errors', 'protocol', 'sources'],
  export: ['errors', 'protocol', 'addon', 'server'],
  hosted: ['errors', 'protocol', 'addon', 'server', 'store', 'sources', 'livetv', 'library'],
  demo: ['errors', 'protocol', 'addon', 'store', 'sources', 'livetv', 'library'],
  relay: ['errors', 'protocol', 'server', 'store', 'sources', 'livetv'],
  cli: [
    'errors',
    'protocol',
    'addon',
    'server',
    'store',
    'sources',
    'livetv',
    'library',
    'checker',
    'export',
    'demo',
    'hosted',
    'relay',
  ],
};

const SRC = join(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

function area(file: string): string {
  const rel = relative(SRC, file).split('/');
  return rel.length === 1 ? rel[0]!.replace(/\.(ts|js)$/, '') : rel[0]!;
}

describe('import direction', () => {
  it('every folder imports only what ARCHITECTURE.md allows', () => {
    const wrong: string[] = [];
    for (const file of files(SRC)) {
      const from = area(file);
      if (from === 'errors' || from === 'index') continue;
      const allowed = ALLOWED[from];
      if (!allowed) {
        wrong.push(`${relative(SRC, file)}: folder "${from}" is not in the architecture table`);
        continue;
      }
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)) {
        const target = area(join(file, '..', match[1]!));
        if (target !== from && !allowed.includes(target))
          wrong.push(`${relative(SRC, file)} imports ${match[1]} (${from} → ${target})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('nothing imports the CLI', () => {
    const offenders = files(SRC).filter((f) => area(f) !== 'cli' && /from '[^']*\/cli\//.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('map of the code', () => {
  it('README and ARCHITECTURE.md list every folder under src/', () => {
    const root = join(import.meta.dirname, '..');
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    for (const doc of ['README.md', 'ARCHITECTURE.md']) {
      const text = readFileSync(join(root, doc), 'utf8');
      const missing = folders.filter((f) => !text.includes(`\`src/${f}/\``));
      expect(missing, `${doc} misses these folders in its map`).toEqual([]);
    }
  });
});
