import { UsageError } from './cli-errors';

export type CliCommand =
  | { name: 'help' }
  | { name: 'ping' }
  | { name: 'quote'; file: string; key?: string; fresh?: boolean }
  | { name: 'prepare'; intentSessionId: string; file?: string; key?: string }
  | { name: 'submitted'; attemptId: string; file: string; key?: string }
  | { name: 'status'; attemptId: string }
  | { name: 'sandbox-wallet'; prepared: string; user?: string }
  | { name: 'demo'; file: string; user?: string };

/** The commands that are one API call each (the others, sandbox-only, run several). */
export type ApiCommand = Extract<CliCommand, { name: 'ping' | 'quote' | 'prepare' | 'submitted' | 'status' }>;

type OptionName = 'file' | 'key' | 'user';
/** Options that take no value. */
type FlagName = 'fresh';

/** What each command accepts: positional argument names, and options (true = required). */
const GRAMMAR: Record<
  Exclude<CliCommand['name'], 'help'>,
  { positional: string[]; options: Partial<Record<OptionName, boolean>>; flags?: FlagName[] }
> = {
  ping: { positional: [], options: {} },
  quote: { positional: [], options: { file: true, key: false }, flags: ['fresh'] },
  prepare: { positional: ['intentSessionId'], options: { file: false, key: false } },
  submitted: { positional: ['attemptId'], options: { file: true, key: false } },
  status: { positional: ['attemptId'], options: {} },
  'sandbox-wallet': { positional: ['prepared'], options: { user: false } },
  demo: { positional: [], options: { file: true, user: false } },
};

export function parseArgs(argv: readonly string[]): CliCommand {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (!Object.prototype.hasOwnProperty.call(GRAMMAR, name)) throw new UsageError(`unknown command: ${name}`);
  const grammar = GRAMMAR[name as keyof typeof GRAMMAR];

  const positional: string[] = [];
  const options: Partial<Record<OptionName, string>> = {};
  const flags: Partial<Record<FlagName, true>> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--help' || arg === '-h') return { name: 'help' };
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [flag, inline] = splitOption(arg);
    if (grammar.flags?.includes(flag as FlagName) && inline === undefined) {
      flags[flag as FlagName] = true;
      continue;
    }
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
    ...flags,
  } as CliCommand;
}

function splitOption(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq === -1 ? [arg.slice(2), undefined] : [arg.slice(2, eq), arg.slice(eq + 1)];
}
