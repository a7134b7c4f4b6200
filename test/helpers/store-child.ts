/**
 * Runs a script against the store in a separate `node` process (for SIGKILL tests): the store's
 * sources (and what they import) are transpiled to plain ESM in `out`, so a bare child can load
 * them from `./src/store/index.js`. Resolves with the signal that ended the child and its stdout;
 * a child that exits on its own is a failure (the kill did not happen).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SRC = resolve(import.meta.dirname, '../../src');

function transpileStore(out: string): void {
  const sources = [join(SRC, 'errors.ts'), join(SRC, 'sources/records.ts'), join(SRC, 'sources/clean.ts')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) sources.push(path);
    }
  };
  walk(join(SRC, 'store'));
  walk(join(SRC, 'protocol')); // the store renders programme videos with the protocol's checks
  for (const source of sources) {
    const target = join(out, 'src', relative(SRC, source)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    const js = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    }).outputText;
    writeFileSync(target, js);
  }
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }');
  symlinkSync(resolve(SRC, '../node_modules'), join(out, 'node_modules'), 'dir');
}

/**
 * @example await runStoreChild(dir, `import { openStore } from './src/store/index.js'; ...; process.kill(process.pid, 'SIGKILL');`, dbFile)
 */
export function runStoreChild(
  out: string,
  script: string,
  dbFile: string,
): Promise<{ signal: NodeJS.Signals | null; stdout: string }> {
  transpileStore(out);
  const path = join(out, 'child.js');
  writeFileSync(path, script);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [path, dbFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', fail);
    child.on('exit', (code, signal) =>
      signal === null ? fail(new Error(`child exited with ${code}: ${stderr}`)) : done({ signal, stdout }),
    );
  });
}
