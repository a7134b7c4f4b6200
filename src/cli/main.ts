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
import { parentGone } from './relaunch.js';
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
 */
function defaultIo(command: string | undefined): Io {
  let stop: (why: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
    // Relaunched by the bin (relaunch.ts) and the parent died: stop as on SIGTERM.
    void parentGone().then(() => resolve('parent process gone'));
  });
  const closedPipe = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (command === 'serve') stop('standard output closed');
    else process.exit();
  };
  process.stdout.on('error', closedPipe);
  process.stderr.on('error', closedPipe);
  const onReload = (listener: () => void) => {
    process.on('SIGHUP', listener);
    return () => {
      process.off('SIGHUP', listener);
    };
  };
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), stopped, onReload };
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
