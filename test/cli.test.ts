/**
 * The `marquee` command as a person meets it, run in-process through `main(argv, io)`: help,
 * version, usage errors, the settings file and its overrides, and `import` with the live-TV
 * fixtures (a good import, then a broken guide that must leave the data served).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCommand } from '../src/cli/commands/check.js';
import { exportCommand } from '../src/cli/commands/export.js';
import { importCommand } from '../src/cli/commands/import.js';
import { serveCommand } from '../src/cli/commands/serve.js';
import { version } from '../src/cli/version.js';
import { openStore } from '../src/store/index.js';
import { fixture } from './fixtures/livetv/setup.js';
import { runCli, startCli } from './helpers/cli.js';
import { httpRequest } from './helpers/http.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh working directory inside the test's temp dir. */
function workdir(name: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
}

describe('help, version and usage errors', () => {
  it('prints the version and the command list', async () => {
    const cwd = workdir('help');
    expect(await runCli(['--version'], { cwd })).toEqual({ code: 0, stdout: `${version()}\n`, stderr: '' });
    expect(version()).toMatch(/^\d+\.\d+\.\d+/);
    const help = await runCli(['--help'], { cwd });
    expect(help.code).toBe(0);
    for (const name of ['serve', 'import', 'export', 'check'])
      expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    // No command at all is a usage error that still shows the usage.
    const bare = await runCli([], { cwd });
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe(help.stdout);
  });

  it.each([serveCommand, importCommand, exportCommand, checkCommand])('documents `$name --help`', async (command) => {
    const { code, stdout, stderr } = await runCli([command.name, '--help'], { cwd: workdir('help') });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain(`Usage: marquee ${command.name}`);
    for (const [name, spec] of Object.entries(command.options)) {
      expect(stdout).toContain(`--${name}`);
      if (spec.env) expect(stdout).toContain(`env ${spec.env}`);
    }
    expect(stdout).toMatch(/Exit codes: 0 [^\n]*, 1 [^\n]*, 2 /);
  });

  it('suggests the command or flag meant, as for settings keys', async () => {
    const cwd = workdir('suggest');
    const command = await runCli(['serv'], { cwd });
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/^marquee: unknown command "serv"; did you mean "serve"\?\n/);
    const cases: [string[], string][] = [
      [['serve', '--prot', '7110'], 'marquee serve: unknown option --prot; did you mean --port?'],
      [['import', '--playlists', 'x.m3u'], 'marquee import: unknown option --playlists; did you mean --playlist?'],
      [
        ['check', 'http://127.0.0.1:9/manifest.json', '--max-genre', '50'],
        'marquee check: unknown option --max-genre; did you mean --max-genres?',
      ],
      [['serve', '--tls-crt', 'a.pem'], 'marquee serve: unknown option --tls-crt; did you mean --tls-cert?'],
      [['status', '--jsno'], 'marquee status: unknown option --jsno; did you mean --json?'],
      // Other names for a flag, too far from it in spelling to be guessed.
      [['import', '--guide', 'g.xml'], 'marquee import: unknown option --guide; did you mean --epg?'],
      [['serve', '--XMLTV=g.xml'], 'marquee serve: unknown option --XMLTV; did you mean --epg?'],
      [['import', '--m3u', 'p.m3u'], 'marquee import: unknown option --m3u; did you mean --playlist?'],
      [['serve', '--port'], 'marquee serve: --port needs a value'],
      [['import', 'x.m3u'], 'marquee import: unexpected argument "x.m3u": this command takes options only'],
    ];
    for (const [argv, line] of cases) {
      const result = await runCli(argv, { cwd });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toBe(`${line}\nRun \`marquee ${argv[0]} --help\` for the options.\n`);
    }
    // Nothing like any flag: no guess.
    const far = await runCli(['serve', '--frobnicate'], { cwd });
    expect(far.stderr).toMatch(/^marquee serve: unknown option --frobnicate\n/);
    expect(existsSync(join(cwd, 'marquee.db'))).toBe(false);
  });

  it('refuses an unknown command and an unknown flag with exit 2', async () => {
    const cwd = workdir('usage');
    const unknown = await runCli(['frobnicate'], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^marquee: unknown command "frobnicate"/);
    expect(unknown.stderr).toContain('Usage: marquee <command>');

    const flag = await runCli(['import', '--playlist', 'x.m3u', '--bogus'], { cwd });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown option --bogus\n');
    expect(flag.stderr).toContain('marquee import --help');
    expect(existsSync(join(cwd, 'marquee.db'))).toBe(false);

    const missing = await runCli(['check'], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('marquee check: missing manifest URL');

    const port = await runCli(['serve', '--port', '70000'], { cwd });
    expect(port).toMatchObject({ code: 2, stdout: '' });
    expect(port.stderr).toContain('--port');
    expect(port.stderr).toContain('"70000"');

    const fromEnv = await runCli(['serve'], { cwd, env: { MARQUEE_PORT: 'seven' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('MARQUEE_PORT');
  });
});

describe('the settings file', () => {
  const YAML_PROBLEMS = [
    'port: eighty',
    'prot: 7000',
    'livetv:',
    '  playlists: [channels.m3u]',
    '  horizonDays: -2',
    '  guide: guide.xml',
    'log:',
    '  format: xml',
    '',
  ].join('\n');

  it.each([
    ['marquee.yaml', YAML_PROBLEMS],
    [
      'marquee.json',
      JSON.stringify({
        port: 'eighty',
        prot: 7000,
        livetv: { playlists: ['channels.m3u'], horizonDays: -2, guide: 'guide.xml' },
        log: { format: 'xml' },
      }),
    ],
  ])('lists every problem of %s with its path (exit 2)', async (name, text) => {
    const cwd = workdir(`bad-${name}`);
    writeFileSync(join(cwd, name), text);
    for (const argv of [['serve'], ['import'], ['export', '--out', 'out']]) {
      const { code, stdout, stderr } = await runCli(argv, { cwd });
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(`${join(cwd, name)} has 5 problems:`);
      for (const path of ['$.port', '$.livetv.horizonDays', '$.log.format']) {
        expect(stderr).toMatch(
          new RegExp(`^  ${path.replace(/[$.]/g, '\\$&')}: \\S.* \\(in ${name} line \\d+\\)$`, 'm'),
        );
      }
      // A mistyped key is named with where it is and what was probably meant.
      const line = (n: number) => (name.endsWith('.yaml') ? ` line ${n}` : ' line 1');
      expect(stderr).toContain(`  unknown key \`prot\` in ${name}${line(2)}; did you mean \`port\`?`);
      expect(stderr).toContain(`  unknown key \`guide\` in ${name}${line(6)}; did you mean \`guides\`?`);
    }
    expect(existsSync(join(cwd, 'marquee.db'))).toBe(false);
  });

  it('names the file and the syntax error of a file that does not parse', async () => {
    const cwd = workdir('syntax');
    writeFileSync(join(cwd, 'broken.json'), '{ "port": 7000, }');
    const json = await runCli(['serve', '--config', 'broken.json'], { cwd });
    expect(json.code).toBe(2);
    expect(json.stderr).toContain(`${join(cwd, 'broken.json')} is not valid JSON`);
    writeFileSync(join(cwd, 'broken.yaml'), 'port: [7000\n');
    const yaml = await runCli(['serve'], { cwd, env: { MARQUEE_CONFIG: 'broken.yaml' } });
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain(`${join(cwd, 'broken.yaml')} is not valid YAML`);
    const absent = await runCli(['serve', '--config', 'nowhere.yaml'], { cwd });
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain(`cannot read the configuration file ${join(cwd, 'nowhere.yaml')}`);
  });

  it('takes the database from the file, then MARQUEE_DB, then --db; file paths are relative to the file', async () => {
    const cwd = workdir('precedence-db');
    mkdirSync(join(cwd, 'conf'));
    copyFileSync(fixture('channels.m3u'), join(cwd, 'conf', 'channels.m3u'));
    writeFileSync(join(cwd, 'conf', 'marquee.yaml'), 'db: ../from-file.db\nlivetv:\n  playlists: [channels.m3u]\n');
    const env = { MARQUEE_CONFIG: 'conf/marquee.yaml' };
    const created = () => ['from-file.db', 'from-env.db', 'from-flag.db'].filter((f) => existsSync(join(cwd, f)));

    expect((await runCli(['import'], { cwd, env })).code).toBe(0);
    expect(created()).toEqual(['from-file.db']);
    expect((await runCli(['import'], { cwd, env: { ...env, MARQUEE_DB: 'from-env.db' } })).code).toBe(0);
    expect(created()).toEqual(['from-file.db', 'from-env.db']);
    const flag = await runCli(['import', '--db', 'from-flag.db'], { cwd, env: { ...env, MARQUEE_DB: 'from-env.db' } });
    expect(flag.code).toBe(0);
    expect(created()).toEqual(['from-file.db', 'from-env.db', 'from-flag.db']);
  });

  describe('the port: file < MARQUEE_PORT < --port', () => {
    let busy: Server;
    let busyPort: number;
    beforeAll(async () => {
      busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      busyPort = (busy.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

    /** Start serve, read the port it printed, stop it; the exit code and port. */
    async function servedPort(argv: string[], env: Record<string, string>, cwd: string) {
      const cli = startCli(['serve', ...argv], { cwd, env });
      const printed = await cli.waitForStdout(/manifest: +http:\/\/127\.0\.0\.1:(\d+)\//).catch(() => undefined);
      cli.stop();
      const result = await cli.done;
      return { ...result, port: printed ? Number(printed[1]) : undefined };
    }

    it('uses the file port, which is taken here, unless the environment or a flag says otherwise', async () => {
      const cwd = workdir('precedence-port');
      writeFileSync(join(cwd, 'marquee.json'), JSON.stringify({ port: busyPort }));
      const fromFile = await servedPort([], {}, cwd);
      expect(fromFile.code).toBe(1);
      expect(fromFile.stderr).toContain(`port ${busyPort} on 127.0.0.1 is already in use`);

      const fromEnv = await servedPort([], { MARQUEE_PORT: '0' }, cwd);
      expect(fromEnv.code).toBe(0);
      expect(fromEnv.port).toBeGreaterThan(0);
      expect(fromEnv.port).not.toBe(busyPort);

      const fromFlag = await servedPort(['--port', '0'], { MARQUEE_PORT: String(busyPort) }, cwd);
      expect(fromFlag.code).toBe(0);
      expect(fromFlag.port).not.toBe(busyPort);
      const envOnly = await servedPort([], { MARQUEE_PORT: String(busyPort) }, workdir('precedence-port-env'));
      expect(envOnly.code).toBe(1);
    });
  });
});

/**
 * The fixture guide with its days moved so that its main day (2026-03-01) is today: the import
 * keeps 48 hours back, so the fixture's own dates would all be dropped as past.
 */
function guideForToday(into: string): string {
  const shiftDays = Math.floor((Date.now() - Date.parse('2026-03-01T00:00:00Z')) / 86_400_000);
  const text = readFileSync(fixture('guide.xml'), 'utf8').replace(
    /"(\d{4})(\d{2})(\d{2})(\d{6} [+-]\d{4})"/g,
    (_all, y: string, m: string, d: string, rest: string) => {
      const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d) + shiftDays));
      return `"${day.toISOString().slice(0, 10).replaceAll('-', '')}${rest}"`;
    },
  );
  const path = join(into, 'guide.xml');
  writeFileSync(path, text);
  return path;
}

describe('marquee import', () => {
  let cwd: string;
  let sources: string[];
  let channels: number;
  beforeAll(() => {
    cwd = workdir('import');
    sources = ['--playlist', fixture('channels.m3u'), '--epg', guideForToday(cwd)];
  });

  it('imports the fixture playlist and guide and prints the report', async () => {
    const { code, stdout, stderr } = await runCli(['import', ...sources, '--db', 'tv.db'], { cwd });
    expect(code).toBe(0);
    const line =
      /^live TV: (\d+) channels \((\d+) streams, (\d+) groups\), (\d+) programmes; (\d+) channels? with a guide, (\d+) without; (\d+) warnings?/m.exec(
        stdout,
      );
    expect(line, stdout).not.toBeNull();
    channels = Number(line![1]);
    expect(channels).toBe(8);
    expect(Number(line![4])).toBeGreaterThan(5);
    expect(Number(line![5])).toBeGreaterThan(2);
    expect(Number(line![5]) + Number(line![6])).toBe(channels);
    expect(stdout).toMatch(/^ {2}without a guide: .*No Guide Channel/m);
    // The skipped entry is reported with its file and line.
    expect(stdout).toMatch(/^ {2}warning: .*channels\.m3u:\d+: stream URL "relative\/path\.ts"/m);
    // Progress goes to stderr as plain lines when it is not a terminal: no carriage returns or colours.
    expect(stderr).toMatch(/^playlist .*channels\.m3u .*100%/m);
    expect(stderr).toMatch(/^guide .*guide\.xml .*100%/m);
    expect(stderr).not.toMatch(/[\r\x1b]/);
    expect(existsSync(join(cwd, 'tv.db'))).toBe(true);
  });

  it('prints the report as JSON with --json, and nothing else', async () => {
    const { code, stdout, stderr } = await runCli(['import', ...sources, '--db', 'tv.db', '--json'], { cwd });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const report = JSON.parse(stdout);
    expect(report.livetv.status).toBe('imported');
    expect(report.livetv.counts.channels).toBe(channels);
    expect(report.livetv.unmatched).toContain('No Guide Channel');
    expect(report.livetv.warnings[0]).toMatchObject({ source: fixture('channels.m3u'), line: expect.any(Number) });
    expect(report.library).toBeUndefined();
  });

  it('keeps serving the data when a guide is broken, exits 1, and `status` names the guide', async () => {
    // The configured guide file turns into an HTML page.
    const guide = join(cwd, 'guide.xml');
    copyFileSync(fixture('not-a-guide.xml'), guide);
    const argv = ['import', ...sources, '--db', 'tv.db'];
    const { code, stdout } = await runCli(argv, { cwd });
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^ {2}kept: guide .*guide\.xml failed: line \d+: the root element is <html>.*; keeping the last good data from /m,
    );

    const json = await runCli([...argv, '--json'], { cwd });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout).livetv;
    expect(report.status).toBe('imported');
    expect(report.sources.map((s: { outcome: string }) => s.outcome)).toEqual(['imported', 'kept']);

    const status = await runCli(['status', '--db', 'tv.db'], { cwd });
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/^KEPT guide .*guide\.xml$/m);
    expect(status.stdout).toMatch(/last attempt: .*kept: failed: line \d+: the root element is <html>/);
    const statusJson = JSON.parse((await runCli(['status', '--db', 'tv.db', '--json'], { cwd })).stdout);
    expect(statusJson.ok).toBe(false);
    expect(statusJson.sources[1]).toMatchObject({ kind: 'guide', source: guide, ok: false });

    guideForToday(cwd);
    expect((await runCli(argv, { cwd })).code).toBe(0);
    expect((await runCli(['status', '--db', 'tv.db'], { cwd })).code).toBe(0);
    copyFileSync(fixture('not-a-guide.xml'), guide);
    expect((await runCli(argv, { cwd })).code).toBe(1);

    // `serve` on that database (no source configured) serves what the first import stored.
    const cli = startCli(['serve', '--db', 'tv.db', '--port', '0', '--quiet'], { cwd });
    try {
      const [, base] = await cli.waitForStdout(/manifest: +(http:\/\/\S+)\/manifest\.json/);
      const manifest = (await httpRequest(base!, '/manifest.json')).json();
      expect(manifest.id).not.toBe('org.marquee.demo');
      const tv = manifest.catalogs.find((c: { type: string }) => c.type === 'tv');
      const list = await httpRequest(base!, `/catalog/tv/${tv.id}.json`);
      expect(list.status).toBe(200);
      const names = list.json().metas.map((m: { name: string }) => m.name);
      expect(names).toHaveLength(channels);
      expect(names).toContain('No Guide Channel');
      // The programmes of the first import are still there: today's guide day has them.
      const today = new Date().toISOString().slice(0, 10);
      const day = (await httpRequest(base!, `/catalog/tv/${tv.id}/date=${today}.json`)).json();
      const programmes = day.metasDetailed.flatMap((m: { videos?: unknown[] }) => m.videos ?? []);
      expect(programmes.length).toBeGreaterThan(3);
    } finally {
      cli.stop();
    }
    expect((await cli.done).code).toBe(0);
    guideForToday(cwd);
  });

  it('serves the demo with --demo without touching the stored data', async () => {
    const demo = startCli(['serve', '--demo', '--db', 'tv.db', '--port', '0', '--quiet'], { cwd });
    try {
      const [, base] = await demo.waitForStdout(/manifest: +(http:\/\/\S+)\/manifest\.json/);
      expect((await httpRequest(base!, '/manifest.json')).json().id).toBe('org.marquee.demo');
      expect((await httpRequest(base!, '/catalog/tv/mq-tv-channels.json')).json().metas).toHaveLength(6);
    } finally {
      demo.stop();
    }
    expect((await demo.done).code).toBe(0);
    // The demo (six channels) was not imported over the stored line-up.
    const store = openStore(join(cwd, 'tv.db'));
    try {
      expect(store.counts().channels).toBe(channels);
    } finally {
      store.close();
    }
  });

  it('exits 2 when there is nothing to import', async () => {
    const result = await runCli(['import', '--db', 'empty.db'], { cwd: workdir('nothing') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nothing to import');
  });
});
