/**
 * The documentation's code blocks, and the means to run them as a reader would: a module as a
 * file of its own in a fresh folder (`node --import register.mjs`, the package's imports resolved
 * through its `exports`), a shell line with `marquee`, `npx marquee` and `npm start` on the PATH.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REGISTER = join(ROOT, 'test', 'docs', 'register.mjs');

export interface Block {
  /** `README.md`, `docs/export.md`. */
  readonly file: string;
  /** Line of the opening fence (1-based). */
  readonly line: number;
  readonly lang: string;
  /** From `<!-- test: NAME -->` on the line before the fence; undefined when missing. */
  readonly name: string | undefined;
  readonly text: string;
}

/** The files whose blocks are run: README.md, every Markdown file in docs/ and the Worker example's README. */
export function documentationFiles(): string[] {
  return [
    'README.md',
    'examples/worker/README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
}

/** Every fenced block of a Markdown file, with the test name written above it. */
export function extractBlocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== fence; i++) body.push(lines[i]!);
    const name = /^<!--\s*test:\s*([\w-]+)\s*-->$/.exec(lines[start - 1]?.trim() ?? '')?.[1];
    blocks.push({ file, line: start + 1, lang: open[2] ?? '', name, text: `${body.join('\n')}\n` });
  }
  return blocks;
}

/** A process started from a block: its output so far, a wait for a line, a stop. */
export interface Started {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The first match of `pattern` in stdout; fails with both outputs when the process ends first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** The exit code once the process ends by itself. */
  readonly exited: Promise<number | null>;
}

function track(child: ChildProcess): Started {
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out);
          if (match) {
            finish();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no ${pattern} within ${ms} ms\nstdout:\n${out}\nstderr:\n${err}`));
        }, ms);
        const finish = () => {
          clearTimeout(timer);
          child.stdout?.off('data', check);
        };
        child.stdout?.on('data', check);
        void exited.then(() => {
          check();
          finish();
          reject(new Error(`the process ended (no ${pattern})\nstdout:\n${out}\nstderr:\n${err}`));
        });
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // The whole group: a shell line's command may run under a shell that does not pass signals on.
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          child.kill('SIGTERM');
        }
      }
      return exited;
    },
  };
}

/** Write `code` as `dir/filename` and run it with node, as `node filename` would in that folder. */
export function startModule(dir: string, filename: string, code: string, env: Record<string, string> = {}): Started {
  writeFileSync(join(dir, filename), code);
  return track(
    spawn(process.execPath, ['--import', REGISTER, filename], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
  );
}

/**
 * A folder of commands for the shell lines: `marquee` (this checkout's bin/marquee.js, run from
 * source), `npx marquee …` (the same; any other package is refused, the tests fetch nothing) and
 * `npm start` (package.json's start script). Returns the PATH to use.
 */
export function commandPath(dir: string): string {
  const bin = join(dir, '.bin');
  mkdirSync(bin, { recursive: true });
  const marquee = `exec "${process.execPath}" --import "${REGISTER}" "${join(ROOT, 'bin', 'marquee.js')}" "$@"`;
  const scripts: Record<string, string> = {
    marquee,
    npx: `if [ "$1" = marquee ]; then shift; ${marquee}; fi\necho "the docs test runs npx marquee only, not npx $1" >&2; exit 127`,
    npm: `if [ "$1" = start ]; then cd "${ROOT}" && exec "${process.execPath}" --import "${REGISTER}" $(node -p "require('./package.json').scripts.start.replace(/^node /, '')"); fi\necho "the docs test runs npm start only, not npm $*" >&2; exit 127`,
  };
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return `${bin}:${process.env.PATH ?? ''}`;
}

/** Run one shell line in `dir` with the commands of `commandPath`. */
export function startShell(dir: string, line: string, env: Record<string, string> = {}): Started {
  // A simple command replaces the shell, so the exit code is the command's own.
  const simple = !/[;&|<>()`$]/.test(line);
  return track(
    spawn('sh', ['-c', simple ? `exec ${line}` : line], {
      cwd: dir,
      env: { PATH: commandPath(dir), HOME: dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
  );
}

/** The commands of a shell block: one per line, comments and blank lines left out. */
export function commandsOf(block: Block): string[] {
  return block.text
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/**
 * Type-check `code` as a TypeScript file of a user's project (strict), with `stremio-marquee/*`
 * resolved to this checkout's source. Returns the diagnostics as text, empty when it checks.
 */
export async function typecheck(dir: string, filename: string, code: string): Promise<string> {
  const ts = (await import('typescript')).default;
  const file = join(dir, filename);
  writeFileSync(file, code);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string };
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    skipLibCheck: true,
    paths: { [`${pkg.name}/*`]: [join(ROOT, 'src', '*', 'index.ts')] },
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === file || !d.file);
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => dir,
    getNewLine: () => '\n',
  });
}
