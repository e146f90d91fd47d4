import { UsageError } from './cli-errors';
import { scanArgs } from '@svc/platform';

export type CliCommand =
  | { name: 'help' }
  | { name: 'attempt'; attemptId: string; json: boolean; verifyChain: boolean; api: string | null }
  | { name: 'verify'; since: number | null; partnerId: string | null; storeOnly: boolean; json: boolean }
  | { name: 'fees'; partnerId: string; from: number; to: number; csv: boolean };

export function parseArgs(argv: readonly string[]): CliCommand {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (rest.includes('--help') || rest.includes('-h')) return { name: 'help' };
  switch (name) {
    case 'attempt': {
      const { positional, flags, values } = scan(rest, ['json', 'verify-chain'], ['api']);
      if (positional.length !== 1) throw new UsageError('attempt takes one <attemptId>');
      if (values.api !== undefined && !/^https?:\/\//.test(values.api))
        throw new UsageError('--api must be an http(s) URL');
      return {
        name: 'attempt',
        attemptId: positional[0],
        json: flags.has('json'),
        verifyChain: flags.has('verify-chain'),
        api: values.api ?? null,
      };
    }
    case 'verify': {
      const { positional, flags, values } = scan(rest, ['all', 'store-only', 'json'], ['since', 'partner']);
      if (positional.length > 0 || !flags.has('all'))
        throw new UsageError('verify checks every attempt: give --all (one attempt: use `attempt`)');
      return {
        name: 'verify',
        since: values.since === undefined ? null : parseDate(values.since, '--since', 'start'),
        partnerId: values.partner ?? null,
        storeOnly: flags.has('store-only'),
        json: flags.has('json'),
      };
    }
    case 'fees': {
      const { positional, flags, values } = scan(rest, ['csv'], ['partner', 'from', 'to']);
      if (positional.length > 0) throw new UsageError(`fees takes no arguments, got ${positional.join(' ')}`);
      const missing = ['partner', 'from', 'to'].filter((flag) => values[flag] === undefined);
      if (missing.length > 0) throw new UsageError(`fees needs ${missing.map((m) => `--${m}`).join(', ')}`);
      const from = parseDate(values.from!, '--from', 'start');
      const to = parseDate(values.to!, '--to', 'end');
      if (to <= from) throw new UsageError('--to must be after --from');
      return { name: 'fees', partnerId: values.partner!, from, to, csv: flags.has('csv') };
    }
    default:
      throw new UsageError(`unknown command: ${name}`);
  }
}

/**
 * Epoch ms of an ISO date or date-time (UTC unless it names a zone). A bare date is the start of that day, or for
 * the end of a range the start of the next one (`--to 2026-01-31` includes the 31st).
 */
export function parseDate(value: string, flag: string, bound: 'start' | 'end'): number {
  const bareDate = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(bareDate ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(value))
    throw new UsageError(`${flag} must be an ISO date (2026-01-31) or date-time, got ${value}`);
  return bareDate && bound === 'end' ? ms + 86_400_000 : ms;
}

/** Splits arguments into positionals, boolean flags and `--name value` / `--name=value` options. */
function scan(args: readonly string[], booleans: readonly string[], valued: readonly string[]) {
  return scanArgs(args, { booleans, valued }, (message) => new UsageError(message));
}
