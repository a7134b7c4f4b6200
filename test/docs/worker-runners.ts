/**
 * The runners of examples/worker/README.md's blocks (and of docs/runtimes.md's Worker), each in a
 * folder laid out as a reader's:
 * the example's index.ts and wrangler.toml, a package.json, and `stremio-marquee` in
 * node_modules. What this machine cannot do, the runner substitutes and says so:
 * - `npm install stremio-marquee`: the package is this checkout (built), linked into node_modules;
 * - `npx wrangler secret put` / `npx wrangler deploy` (no Cloudflare account, no network): the
 *   folder's index.ts bundled as wrangler bundles it (esbuild, the browser platform, the
 *   workerd/worker/browser conditions) and served by workerd through miniflare, with
 *   wrangler.toml's compatibility date and the key file's text as the MARQUEE_KEYS secret;
 * - Bun's port 3000 and Deno's 8000: free ones (PORT for Bun, the --port value for Deno).
 * Each served add-on must answer its manifest and a catalog, and make on its configure page a
 * token that Node's codec opens with the folder's key file.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { expect } from 'vitest';
import { createTokenCodec, generateKeyRing, parseKeyRing, serializeKeyRing } from '../../src/server/index.js';
import { httpRequest } from '../helpers/http.js';
import { freePort } from '../helpers/ports.js';
import { ensureBuilt } from '../helpers/serve-process.js';
import { EXAMPLE_DIR, EXAMPLE_ID } from '../helpers/worker-example.js';
import { type Block, commandPath, commandsOf, ROOT, type Started, startShell, typecheck } from './blocks.js';

const KEY_FILE = 'marquee.db.keys.json';

/**
 * A reader's folder: the example's files, a package.json, this checkout (built) as
 * node_modules/stremio-marquee, and with `keys` a key file as `marquee rotate-key` writes it
 * (written here: the worker-keys runner runs the command itself).
 */
async function readerFolder(run: (dir: string) => Promise<void>, keys = true): Promise<void> {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'marquee-docs-worker-'));
  try {
    for (const file of ['index.ts', 'wrangler.toml']) copyFileSync(join(EXAMPLE_DIR, file), join(dir, file));
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'worker-films', private: true, type: 'module', dependencies: { 'stremio-marquee': '*' } }, null, 2)}\n`,
    );
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'stremio-marquee'), 'dir');
    if (keys) writeFileSync(join(dir, KEY_FILE), serializeKeyRing(generateKeyRing()), { mode: 0o600 });
    await run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What every served copy must do, with the folder's key file. */
async function checkServed(base: string, dir: string): Promise<void> {
  const manifest = await httpRequest(base, '/manifest.json');
  expect(manifest.status, manifest.text()).toBe(200);
  expect(manifest.json().id).toBe(EXAMPLE_ID);
  const films = await httpRequest(base, '/catalog/movie/wf-films.json');
  expect(films.json().metas).toHaveLength(4);
  const made = await httpRequest(base, '/configure', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: 'cfg_quality=1080p&cfg_token=t0ken',
  });
  expect(made.status, made.text()).toBe(200);
  const token = /\/(v1\.[^/"]+)\/manifest\.json/.exec(made.text())?.[1];
  expect(token, made.text()).toBeDefined();
  const codec = createTokenCodec(parseKeyRing(readFileSync(join(dir, KEY_FILE), 'utf8')), EXAMPLE_ID);
  expect(codec.decode(decodeURIComponent(token!))).toEqual({ quality: '1080p', token: 't0ken' });
}

/** Poll `base`'s manifest until it answers (at most `ms`), failing with what `started` printed. */
async function waitServing(base: string, started: Started, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answered = await httpRequest(base, '/manifest.json').then(
      (r) => r.status === 200,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline || started.child.exitCode !== null) {
      throw new Error(`${base} did not answer\nstdout:\n${started.stdout()}\nstderr:\n${started.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs `line` in `dir` with `env` until it serves on `port`, checks what it serves, and stops it. */
async function checkServedBy(dir: string, line: string, port: number, env: Record<string, string>): Promise<void> {
  const started = startShell(dir, line, env);
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitServing(base, started);
    await checkServed(base, dir);
  } finally {
    await started.stop();
  }
}

/**
 * `dir/main` bundled as wrangler bundles a Worker (esbuild, the browser platform, the
 * workerd/worker/browser conditions, `stremio-marquee` from the folder's node_modules) and served
 * by workerd (miniflare) without nodejs_compat; `use` gets its address.
 */
async function inWorkerd(
  dir: string,
  main: string,
  options: { compatibilityDate: string; bindings?: Record<string, string> },
  use: (base: string) => Promise<void>,
): Promise<void> {
  const bundled = await build({
    entryPoints: [join(dir, main)],
    absWorkingDir: dir,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    conditions: ['workerd', 'worker', 'browser'],
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const mf = new Miniflare({
    modules: [{ type: 'ESModule', path: 'index.js', contents: bundled.outputFiles[0]!.text }],
    compatibilityDate: options.compatibilityDate,
    bindings: options.bindings ?? {},
    host: '127.0.0.1',
    port: 0,
  });
  try {
    await use((await mf.ready).origin);
  } finally {
    await mf.dispose();
  }
}

/** PATH with `marquee`/`npx marquee`, and the `bun` and `deno` of the runtimes' npm packages. */
const runtimePath = (dir: string) => `${commandPath(dir)}:${join(ROOT, 'node_modules', '.bin')}`;

export const WORKER_RUNNERS: Record<string, (block: Block) => Promise<void>> = {
  /** `npm install stremio-marquee` (this checkout, linked), then `npx marquee rotate-key` as shown. */
  async 'worker-keys'(block) {
    const [install, rotate, ...rest] = commandsOf(block);
    expect(install).toBe('npm install stremio-marquee');
    expect(rest).toEqual([]);
    await readerFolder(async (dir) => {
      const made = startShell(dir, rotate!);
      expect(await made.exited, made.stderr()).toBe(0);
      expect(made.stdout()).toContain(KEY_FILE);
      const ring = parseKeyRing(readFileSync(join(dir, KEY_FILE), 'utf8'));
      expect(Object.keys(ring.keys)).toEqual([ring.current]);
    }, false);
  },

  /** The two wrangler lines, substituted (see the top of this file): a bundle of the folder's index.ts in workerd. */
  async 'worker-deploy'(block) {
    expect(commandsOf(block)).toEqual([`npx wrangler secret put MARQUEE_KEYS < ${KEY_FILE}`, 'npx wrangler deploy']);
    await readerFolder(async (dir) => {
      const toml = readFileSync(join(dir, 'wrangler.toml'), 'utf8');
      const main = /^main\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
      const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
      expect(main).toBe('index.ts');
      const secret = { MARQUEE_KEYS: readFileSync(join(dir, KEY_FILE), 'utf8') };
      await inWorkerd(dir, main!, { compatibilityDate: date!, bindings: secret }, (base) => checkServed(base, dir));
    });
  },

  /** docs/runtimes.md's Worker: it type-checks, bundles for the browser platform and serves in workerd. */
  async 'runtimes-worker'(block) {
    await readerFolder(async (dir) => {
      expect(await typecheck(dir, 'check.ts', block.text)).toBe('');
      writeFileSync(join(dir, 'edge.ts'), block.text);
      const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(readFileSync(join(dir, 'wrangler.toml'), 'utf8'))?.[1];
      await inWorkerd(dir, 'edge.ts', { compatibilityDate: date! }, async (base) => {
        expect((await httpRequest(base, '/manifest.json')).json().id).toBe('org.example.edge');
        const films = await httpRequest(base, '/catalog/movie/films.json');
        expect(films.json()).toEqual({ metas: [{ id: 'tt1727587', type: 'movie', name: 'Sintel' }] });
      });
    }, false);
  },

  /** `bun run index.ts` as shown, with the bun of the `bun` npm package and PORT set to a free port. */
  async 'worker-bun'(block) {
    const [line, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    await readerFolder(async (dir) => {
      const port = await freePort();
      await checkServedBy(dir, line!, port, { PATH: runtimePath(dir), PORT: String(port) });
    });
  },

  /** `deno serve` as shown, with the deno of the `deno` npm package and a free port for 8000. */
  async 'worker-deno'(block) {
    const [line, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    expect(line).toContain('--port 8000');
    await readerFolder(async (dir) => {
      const port = await freePort();
      await checkServedBy(dir, line!.replace('--port 8000', `--port ${port}`), port, {
        PATH: runtimePath(dir),
        DENO_DIR: join(dir, '.deno'),
        DENO_NO_UPDATE_CHECK: '1',
        NO_COLOR: '1',
      });
    });
  },
};
