import { UsageError } from './cli-errors';

export type CliCommand =
  | { name: 'help' }
  | { name: 'ping' }
  | { name: 'quote'; file: string; key?: string }
  | { name: 'prepare'; intentSessionId: string; file?: string; key?: string }
  | { name: 'submitted'; attemptId: string; file: string; key?: string }
  | { name: 'status'; attemptId: string };

type OptionName = 'file' | 'key';

/** What each command accepts: positional argument names, and options (true = required). */
const GRAMMAR: Record<
  Exclude<CliCommand['name'], 'help'>,
  { positional: string[]; options: Partial<Record<OptionName, boolean>> }
> = {
  ping: { positional: [], options: {} },
  quote: { positional: [], options: { file: true, key: false } },
  prepare: { positional: ['intentSessionId'], options: { file: false, key: false } },
  submitted: { positional: ['attemptId'], options: { file: true, key: false } },
  status: { positional: ['attemptId'], options: {} },
};

export function parseArgs(argv: readonly string[]): CliCommand {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (!Object.prototype.hasOwnProperty.call(GRAMMAR, name)) throw new UsageError(`unknown command: ${name}`);
  const grammar = GRAMMAR[name as keyof typeof GRAMMAR];

  const positional: string[] = [];
  const options: Partial<Record<OptionName, string>> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--help' || arg === '-h') return { name: 'help' };
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [flag, inline] = splitOption(arg);
    if (!Object.prototype.hasOwnProperty.call(grammar.options, flag))
      throw new UsageError(`${name} does not take --${flag}`);
    if (options[flag as OptionName] !== undefined) throw new UsageError(`--${flag} given twice`);
    const value = inline ?? rest[++i];
    if (value === undefined || value === '') throw new UsageError(`--${flag} needs a value`);
    options[flag as OptionName] = value;
  }

  if (positional.length !== grammar.positional.length) {
    const expected = grammar.positional.map((p) => `<${p}>`).join(' ') || 'no arguments';
    throw new UsageError(
      `${name} takes ${expected}, got ${positional.length === 0 ? 'none' : positional.join(' ')}`,
    );
  }
  for (const [flag, required] of Object.entries(grammar.options)) {
    if (required && options[flag as OptionName] === undefined)
      throw new UsageError(`${name} needs --${flag}`);
  }
  return {
    name,
    ...Object.fromEntries(grammar.positional.map((p, i) => [p, positional[i]])),
    ...options,
  } as CliCommand;
}

function splitOption(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq === -1 ? [arg.slice(2), undefined] : [arg.slice(2, eq), arg.slice(eq + 1)];
}
