/**
 * examples/worker/ bundled as a Worker deploy bundles it: esbuild, the browser platform, minified,
 * `stremio-marquee/*` resolved through package.json `exports` to this checkout's sources (as the
 * docs tests do: no build needed, the exports map itself exercised). Any Node built-in the bundle
 * would import is recorded (and left out) instead of failing the build, so a test can name it and
 * the file that imports it. One bundle per test process.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { generateKeyRing, serializeKeyRing } from '../../src/server/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const EXAMPLE_DIR = join(ROOT, 'examples', 'worker');
/** The example add-on's id (the associated data of its tokens). */
export const EXAMPLE_ID = 'org.example.worker-films';

export interface WorkerBundle {
  /** The minified ES module, `export default { fetch }`. */
  readonly code: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  /** Node built-ins the bundle imports, each with the files that import it (none, or the test fails). */
  readonly nodeImports: readonly string[];
  /** Input files by the bytes they bring to the bundle, largest first. */
  readonly inputs: readonly { readonly path: string; readonly bytes: number }[];
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string>;
};
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** `stremio-marquee/x` → its source file, as package.json `exports` names it (dist/x.js → src/x.ts). */
const packageSource: Plugin = {
  name: 'package-source',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^${pkg.name}(/|$)`) }, (args) => {
      const sub = args.path === pkg.name ? '.' : `.${args.path.slice(pkg.name.length)}`;
      const target = pkg.exports[sub];
      if (target === undefined) return { errors: [{ text: `${args.path} is not exported by ${pkg.name}` }] };
      return { path: join(ROOT, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')) };
    });
  },
};

/** Records each Node built-in and who imports it, and leaves it out of the bundle. */
function nodeBuiltins(found: string[]): Plugin {
  return {
    name: 'node-builtins',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (!BUILTINS.has(args.path) && !args.path.startsWith('node:')) return undefined;
        found.push(`${args.path} (imported by ${relative(ROOT, args.importer)})`);
        return { path: args.path, external: true };
      });
    },
  };
}

let bundled: Promise<WorkerBundle> | undefined;

/** The example bundled (once per process). */
export function bundleWorkerExample(): Promise<WorkerBundle> {
  bundled ??= bundleForBrowser(join(EXAMPLE_DIR, 'index.ts'));
  return bundled;
}

/** `entry` bundled as the example is (the bundle test also bundles the Node entry, to see the check name its built-ins). */
export async function bundleForBrowser(entry: string): Promise<WorkerBundle> {
  const found: string[] = [];
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [packageSource, nodeBuiltins(found)],
  });
  const code = result.outputFiles[0]!.text;
  const output = Object.values(result.metafile.outputs)[0]!;
  const inputs = Object.entries(output.inputs)
    .map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  return {
    code,
    bytes: Buffer.byteLength(code),
    gzipBytes: gzipSync(code).byteLength,
    nodeImports: found,
    inputs,
  };
}

/** The bundle written as `dir/worker.js`; its path. */
export async function writeWorkerBundle(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'worker.js');
  writeFileSync(file, (await bundleWorkerExample()).code);
  return file;
}

/** A key ring for the example (MARQUEE_KEYS), as `marquee rotate-key` writes one. */
export const EXAMPLE_KEYS = serializeKeyRing(generateKeyRing('test'));
