import { isMarqueeError } from '../errors.js';
import { type Command, commandHelp, EXIT, type Io, parseCommandArgs } from './command.js';
import { checkCommand } from './commands/check.js';
import { exportCommand } from './commands/export.js';
import { healthCommand } from './commands/health.js';
import { importCommand } from './commands/import.js';
import { rotateKeyCommand } from './commands/rotate-key.js';
import { serveCommand } from './commands/serve.js';
import { statusCommand } from './commands/status.js';
import { printableStream } from './printable.js';
import { holdHangups, parentGone, tellParentStopBound } from './relaunch.js';
import { closestKey } from './settings.js';
import { version } from './version.js';

const COMMANDS: readonly Command[] = [
  serveCommand,
  importCommand,
  statusCommand,
  exportCommand,
  checkCommand,
  rotateKeyCommand,
  healthCommand,
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    'marquee: a Stremio add-on server for live TV with a programme guide and movie/series libraries',
    '',
    'Usage: marquee <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run `marquee <command> --help` for its options. `marquee --version` prints the version.',
    '',
  ].join('\n');
}

/**
 * The process's own streams and signals. A reader that stops reading (`marquee status | head -1`)
 * closes the pipe: the next write fails with EPIPE, which, unhandled, ended every command with a
 * stack trace. Now `serve` stops as on SIGTERM (the requests in flight are answered) and every
 * other command ends at once, quietly, with the exit code it has by then (0 before it has one);
 * other write errors stay what they were.
 *
 * Signals (issue 48): SIGINT and SIGTERM reach the commands that stop in order (`serve`, and
 * `import` and `health`, which stop their work and record nothing half done) through `stopped`;
 * the other commands end on them as Node ends. SIGHUP asks `serve` to reload what changed and
 * never ends it, whether or not a listener is registered yet (its default action would end the
 * process: exit 129, no log line). `boundStop` is the last word: the process ends when the bound
 * passes, however the stop is going.
 */
function defaultIo(name: string | undefined): Io {
  const command = COMMANDS.find((c) => c.name === name);
  let stop: (why: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  if (command?.stopsInOrder) {
    // Every signal, not just the first, is taken here: under systemd the parent and the relaunched
    // child both get SIGTERM, and the parent forwards its own, so one stop can arrive twice.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
    // Relaunched by the bin (relaunch.ts) and the parent died: stop as on SIGTERM.
    void parentGone().then(() => stop('parent process gone'));
  }
  const closedPipe = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (name === 'serve') stop('standard output closed');
    else process.exit();
  };
  process.stdout.on('error', closedPipe);
  process.stderr.on('error', closedPipe);
  if (name === 'serve') holdHangups();
  const onReload = (listener: () => void) => {
    process.on('SIGHUP', listener);
    return () => {
      process.off('SIGHUP', listener);
    };
  };
  const boundStop = (ms: number, forced?: () => void) => {
    tellParentStopBound(ms);
    setTimeout(() => {
      // The command returned (the bin set its code) but something still holds the process open.
      if (process.exitCode !== undefined) process.exit();
      forced?.();
      process.exit(EXIT.failed);
    }, ms).unref();
  };
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    stopped,
    onReload,
    boundStop,
  };
}

/**
 * The CLI: the only place that reads argv and the environment, prints and decides exit codes.
 *
 * @example process.exitCode = await main(['serve', '--port', '7000'])
 */
export async function main(argv: string[], given: Io = defaultIo(argv[0])): Promise<number> {
  // Everything printed may carry names from sources and other add-ons: control characters escaped.
  const io: Io = { ...given, stdout: printableStream(given.stdout), stderr: printableStream(given.stderr) };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    const guess = closestKey(
      name,
      COMMANDS.map((c) => c.name),
    );
    io.stderr.write(`marquee: unknown command "${name}"${guess ? `; did you mean "${guess}"?` : ''}\n\n${usage()}`);
    return EXIT.usage;
  }
  try {
    const { values, positionals } = parseCommandArgs(command, rest, io.env);
    if (values.help) {
      io.stdout.write(commandHelp(command));
      return EXIT.ok;
    }
    if (command.positionals?.required && positionals.length === 0) {
      io.stderr.write(`marquee ${command.name}: missing ${command.positionals.name}\n\n${commandHelp(command)}`);
      return EXIT.usage;
    }
    return await command.run(values, positionals, io);
  } catch (error) {
    if (isMarqueeError(error, 'INVALID_SETTINGS')) {
      io.stderr.write(`marquee ${command.name}: ${error.message}\n`);
      return EXIT.usage;
    }
    if (isMarqueeError(error, 'STORE_UNAVAILABLE')) {
      io.stderr.write(`marquee ${command.name}: ${error.message}\n`);
      return EXIT.unavailable;
    }
    io.stderr.write(`marquee ${command.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}
