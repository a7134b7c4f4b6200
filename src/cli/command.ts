import { parseArgs } from 'node:util';
import { MarqueeError } from '../errors.js';
import { closestKey } from './settings.js';

/** One option of a command: parsed by node:util parseArgs, documented in --help and the README table. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly description: string;
  readonly short?: string;
  /** Placeholder in help (`--port N`). */
  readonly value?: string;
  /** May be given several times (a list). */
  readonly multiple?: boolean;
  /** A string option whose value may be left out (`--accept-shrink` alone): it is then `''`. */
  readonly optionalValue?: boolean;
  /** The environment variable that sets it when the flag is absent (`MARQUEE_PORT`). */
  readonly env?: string;
  /** Shown in help; the command applies defaults itself (settings merge). */
  readonly default?: string;
  /** Other names people give it (`--guide` for `--epg`): not accepted, but answered with "did you mean". */
  readonly aka?: readonly string[];
}

export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /**
   * Resolves when the process is asked to stop (SIGINT/SIGTERM). Only the commands that stop in
   * order (`serve`, `import`, `health`) are told: the others end as Node ends on those signals.
   */
  readonly stopped: Promise<string>;
  /** Registers a listener for a reload request (SIGHUP); returns how to unregister it. */
  readonly onReload?: (listener: () => void) => () => void;
  /**
   * Once asked to stop: the process ends at most `ms` from now, whatever still runs (a read that
   * hangs, a synchronous step). `forced` is called first when the command has not returned by
   * then (the process then exits 1); a command that returned exits with its own code.
   */
  readonly boundStop?: (ms: number, forced?: () => void) => void;
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly positionals?: { readonly name: string; readonly required: boolean };
  /** Extra help text: exit codes, examples. */
  readonly notes?: string;
  /**
   * Stops in order on SIGINT/SIGTERM (`Io.stopped`), bounded by `Io.boundStop`. Without it the
   * command ends at once on those signals, as any program does.
   */
  readonly stopsInOrder?: boolean;
  run(values: OptionValues, positionals: string[], io: Io): Promise<number>;
}

/** Exit codes, documented in the README. */
export const EXIT = { ok: 0, failed: 1, usage: 2, unavailable: 3 } as const;

export const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', description: 'show this help' };

/**
 * Parse argv for a command: flags first, then `MARQUEE_*` variables for flags not given.
 * Unknown flags are an error (exit 2) that names them.
 */
export function parseCommandArgs(
  command: Command,
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
): { values: OptionValues; positionals: string[] } {
  const options = { ...command.options, help: HELP_OPTION };
  // A bare `--name` of an option whose value may be left out: followed by nothing or by another
  // flag, it takes the value ''.
  const args = argv.map((arg, i) => {
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name === undefined || !options[name as keyof typeof options]?.optionalValue) return arg;
    const next = argv[i + 1];
    return next === undefined || next.startsWith('-') ? `${arg}=` : arg;
  });
  checkOptionNames(command, args, options);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      options: Object.fromEntries(
        Object.entries(options).map(([name, spec]) => [
          name,
          {
            type: spec.type,
            ...(spec.short ? { short: spec.short } : {}),
            ...(spec.multiple ? { multiple: true } : {}),
          },
        ]),
      ),
      allowPositionals: command.positionals !== undefined,
      strict: true,
    });
  } catch (error) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `${parseProblem(error)}\nRun \`marquee ${command.name} --help\` for the options.`,
    );
  }
  const values = { ...parsed.values } as OptionValues;
  for (const [name, spec] of Object.entries(options)) {
    if (values[name] !== undefined || !spec.env) continue;
    const fromEnv = env[spec.env];
    if (fromEnv === undefined || fromEnv === '') continue;
    if (spec.type === 'boolean') values[name] = /^(1|true|yes|on)$/i.test(fromEnv);
    else
      values[name] = spec.multiple
        ? fromEnv
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : fromEnv;
  }
  return { values, positionals: parsed.positionals };
}

/** `marquee <command> --help` text, generated from the option specs so it never drifts. */
export function commandHelp(command: Command): string {
  const rows = Object.entries({ ...command.options, help: HELP_OPTION }).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? (spec.optionalValue ? ` [${spec.value}]` : ` ${spec.value}`) : ''}`;
    const extras = [
      spec.default ? `default ${spec.default}` : '',
      spec.env ? `env ${spec.env}` : '',
      spec.multiple ? 'repeatable' : '',
    ]
      .filter(Boolean)
      .join('; ');
    return [flag, spec.description + (extras ? ` (${extras})` : '')] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return [
    `${command.summary}`,
    '',
    `Usage: ${command.usage}`,
    '',
    'Options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`),
    ...(command.notes ? ['', command.notes] : []),
    '',
  ].join('\n');
}

/**
 * Unknown flags, named with the one most likely meant (as unknown settings keys are):
 * `serve --prot 7110` is "unknown option --prot; did you mean --port?".
 */
function checkOptionNames(
  command: Command,
  args: readonly string[],
  options: Readonly<Record<string, OptionSpec>>,
): void {
  const names = Object.keys(options);
  const shorts = new Map(Object.entries(options).flatMap(([name, spec]) => (spec.short ? [[spec.short, name]] : [])));
  for (const arg of args) {
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0]!;
      if (name === '' || Object.hasOwn(options, name)) continue;
      const guess =
        Object.entries(options).find(([, spec]) => spec.aka?.includes(name.toLowerCase()))?.[0] ??
        closestKey(name, names);
      throw new MarqueeError(
        'INVALID_SETTINGS',
        `unknown option --${name}${guess ? `; did you mean --${guess}?` : ''}\nRun \`marquee ${command.name} --help\` for the options.`,
      );
    }
    if (/^-[A-Za-z]/.test(arg) && !shorts.has(arg[1]!)) {
      throw new MarqueeError(
        'INVALID_SETTINGS',
        `unknown option ${arg.slice(0, 2)}\nRun \`marquee ${command.name} --help\` for the options.`,
      );
    }
  }
}

/** node:util's parse errors, said as the settings' are. */
function parseProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  // "Option '-p, --port <value>' argument missing": the long form names it.
  const option = /'(?:-\w, )?(-{1,2}[\w-]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    return /argument missing/.test(message) ? `${option} needs a value` : `${option} takes no value`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const value = /'([^']*)'/.exec(message)?.[1];
    return `unexpected argument ${JSON.stringify(value ?? '')}: this command takes options only`;
  }
  return message;
}
