import { UsageError } from './cli-errors';
import { scanArgs } from '@svc/platform';

/** Which entries `list` prints: retrying and abandoned (default), retrying only, or abandoned only. */
export type ListFilter = 'failing' | 'retrying' | 'abandoned';

export type CliCommand =
  | { name: 'help' }
  | { name: 'list'; filter: ListFilter; attemptId?: string }
  | { name: 'redeliver'; attemptId: string; eventId: string; by?: string };

export function parseArgs(argv: readonly string[]): CliCommand {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (rest.includes('--help') || rest.includes('-h')) return { name: 'help' };
  switch (name) {
    case 'list':
      return parseList(rest);
    case 'redeliver':
      return parseRedeliver(rest);
    default:
      throw new UsageError(`unknown command: ${name}`);
  }
}

function parseList(args: readonly string[]): CliCommand {
  const { positional, flags, values } = scan(args, ['failed', 'abandoned'], ['attempt']);
  if (positional.length > 0) throw new UsageError(`list takes no arguments, got ${positional.join(' ')}`);
  if (flags.has('failed') && flags.has('abandoned'))
    throw new UsageError('--failed and --abandoned exclude each other');
  const filter: ListFilter = flags.has('failed')
    ? 'retrying'
    : flags.has('abandoned')
      ? 'abandoned'
      : 'failing';
  return { name: 'list', filter, ...(values.attempt === undefined ? {} : { attemptId: values.attempt }) };
}

function parseRedeliver(args: readonly string[]): CliCommand {
  const { positional, values } = scan(args, [], ['by']);
  if (positional.length !== 2) {
    throw new UsageError(
      `redeliver takes <attemptId> <eventId>, got ${positional.length === 0 ? 'none' : positional.join(' ')}`,
    );
  }
  const [attemptId, eventId] = positional;
  return { name: 'redeliver', attemptId, eventId, ...(values.by === undefined ? {} : { by: values.by }) };
}

/** Splits arguments into positionals, boolean flags and `--name value` / `--name=value` options. */
function scan(args: readonly string[], booleans: readonly string[], valued: readonly string[]) {
  return scanArgs(args, { booleans, valued }, (message) => new UsageError(message));
}
