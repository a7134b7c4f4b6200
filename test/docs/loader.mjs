/**
 * Node module hooks for the documentation tests: run a README/docs example as a user would run
 * it, with `stremio-marquee/...` imports resolved through package.json `exports` to the source
 * (dist/x.js → src/x.ts, so no build is needed and the exports map itself is exercised), and
 * TypeScript files stripped of their types by the project's own compiler.
 * Used as `node --import ./test/docs/register.mjs file.mjs`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function fromExports(specifier) {
  const sub = specifier === pkg.name ? '.' : `.${specifier.slice(pkg.name.length)}`;
  const target = pkg.exports[sub];
  if (typeof target !== 'string') return undefined;
  const source = join(ROOT, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
  return existsSync(source) ? pathToFileURL(source).href : pathToFileURL(join(ROOT, target)).href;
}

export async function resolve(specifier, context, next) {
  if (specifier === pkg.name || specifier.startsWith(`${pkg.name}/`)) {
    const url = fromExports(specifier);
    if (!url) throw new Error(`${specifier} is not exported by ${pkg.name} (package.json "exports")`);
    return { url, shortCircuit: true };
  }
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const ts = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(ts))) return { url: ts.href, shortCircuit: true };
  }
  // bin/marquee.js imports ../dist/cli/main.js: run the source instead of a build that may be stale.
  if (specifier.startsWith('.') && context.parentURL) {
    const target = fileURLToPath(new URL(specifier, context.parentURL));
    const dist = join(ROOT, 'dist');
    if (target.startsWith(`${dist}/`)) {
      const source = join(ROOT, 'src', target.slice(dist.length + 1)).replace(/\.js$/, '.ts');
      if (existsSync(source)) return { url: pathToFileURL(source).href, shortCircuit: true };
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const text = readFileSync(fileURLToPath(url), 'utf8');
  const { outputText } = ts.transpileModule(text, {
    fileName: fileURLToPath(url),
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2023,
      verbatimModuleSyntax: true,
      sourceMap: false,
      inlineSourceMap: true,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
