import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
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
  fetch: ['errors', 'protocol', 'addon', 'server'],
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

/**
 * The runtime-neutral entry (docs/runtimes.md): every file `src/fetch/index.ts` reaches through
 * relative imports, followed file by file. None may import a Node built-in (`node:x`, or `x` by
 * its bare name), and the packages it imports are the few known to use Web APIs only.
 */
const NEUTRAL_ENTRY = join(SRC, 'fetch', 'index.ts');
const NEUTRAL_PACKAGES = ['valibot', 'uqr'];
const BUILTINS = new Set(builtinModules);

/** `from '…'`, `import '…'` and `import('…')` specifiers of a file (type-only ones too: they stay out of a bundle, but not out of the closure's types). */
function specifiers(source: string): string[] {
  const statements = /^(?:import|export)\s[^;]*?\bfrom\s+'([^']+)'|^import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;
  return [...source.matchAll(statements)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

function neutralClosure(): { files: string[]; offenders: string[]; packages: Set<string> } {
  const files: string[] = [];
  const offenders: string[] = [];
  const packages = new Set<string>();
  const queue = [NEUTRAL_ENTRY];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const file = queue.shift()!;
    files.push(relative(SRC, file));
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = join(dirname(file), spec).replace(/\.js$/, '.ts');
        if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      } else if (spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0]!)) {
        offenders.push(`${relative(SRC, file)} imports ${spec}`);
      } else {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  }
  return { files, offenders, packages };
}

describe('the runtime-neutral entry', () => {
  it('reaches no Node built-in, through any file it imports', () => {
    const { files, offenders } = neutralClosure();
    expect(files).toContain('server/core.ts');
    expect(files).toContain('addon/create-addon.ts');
    expect(offenders).toEqual([]);
  });

  it('imports only packages that use Web APIs', () => {
    expect([...neutralClosure().packages].sort()).toEqual([...NEUTRAL_PACKAGES].sort());
  });

  it("leaves Node's parts out: sockets, TLS, compression threads, node:crypto tokens", () => {
    const { files } = neutralClosure();
    for (const nodeOnly of ['server/node.ts', 'server/node-tls.ts', 'server/compress.ts', 'server/config-token.ts'])
      expect(files).not.toContain(nodeOnly);
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
