/**
 * nginx for the scaling tests: the block of docs/scaling.md, moved to 127.0.0.1 (no TLS, the
 * replicas' ports, files in a temp folder), run in the foreground as its own process group.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentationFiles, extractBlocks } from '../docs/blocks.js';

/** The nginx binary, or undefined when it is not installed. */
export function nginxBinary(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/local/sbin'])) {
    const path = join(dir, 'nginx');
    if (dir && existsSync(path)) return path;
  }
  return undefined;
}

/** The nginx block of docs/scaling.md, as written there. */
export function scalingBlock(): string {
  const block = documentationFiles()
    .flatMap(extractBlocks)
    .find((b) => b.name === 'scaling-nginx');
  if (!block) throw new Error('docs/scaling.md has no block marked <!-- test: scaling-nginx -->');
  return block.text;
}

/** Writes nginx.conf in `dir` for the block on 127.0.0.1:`port` with the replicas on `replicas` ports. */
export function writeNginxConfig(
  dir: string,
  block: string,
  port: number,
  replicas: readonly [number, number],
): string {
  if (!block.includes('listen 443 ssl;') || !block.includes('10.0.0.11:7000') || !block.includes('10.0.0.12:7000')) {
    throw new Error('the scaling block no longer has the lines this test moves to 127.0.0.1');
  }
  const local = block
    .replace('listen 443 ssl;', `listen 127.0.0.1:${port};`)
    .replace(/^\s*ssl_certificate(_key)? .*$/gm, '')
    .replace('10.0.0.11:7000', `127.0.0.1:${replicas[0]}`)
    .replace('10.0.0.12:7000', `127.0.0.1:${replicas[1]}`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`);
  // As root, workers would run as nobody and could not use the temp folder: keep them as root.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `${user}error_log ${dir}/error.log;\nevents {}\nhttp {\naccess_log ${dir}/access.log;\n${temp.join('\n')}\n${local}\n}\n`,
  );
  return conf;
}

/** `nginx -t` of a configuration: its exit code and what it said. */
export function testNginxConfig(binary: string, dir: string, conf: string): { code: number | null; output: string } {
  const r = spawnSync(binary, ['-t', '-p', dir, '-c', conf, '-g', `pid ${dir}/nginx.pid;`], { encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

export function startNginx(binary: string, dir: string, conf: string): ChildProcess {
  return spawn(binary, ['-p', dir, '-c', conf, '-g', `daemon off; pid ${dir}/nginx.pid;`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function nginxErrors(dir: string): string {
  return existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
}
