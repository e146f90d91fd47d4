import { UsageError } from './cli-errors';
import { parseArgs, parseDate } from './parse-args';

describe('parseArgs', () => {
  it('reads the three commands with their options', () => {
    expect(
      parseArgs(['attempt', 'at_1', '--json', '--verify-chain', '--api', 'http://127.0.0.1:3000']),
    ).toEqual({
      name: 'attempt',
      attemptId: 'at_1',
      json: true,
      verifyChain: true,
      api: 'http://127.0.0.1:3000',
    });
    expect(parseArgs(['verify', '--all', '--since=2026-01-02', '--partner', 'p1'])).toEqual({
      name: 'verify',
      since: Date.parse('2026-01-02T00:00:00Z'),
      partnerId: 'p1',
      storeOnly: false,
      json: false,
    });
    expect(
      parseArgs(['fees', '--partner', 'p1', '--from', '2026-01-01', '--to', '2026-01-31', '--csv']),
    ).toEqual({
      name: 'fees',
      partnerId: 'p1',
      from: Date.parse('2026-01-01T00:00:00Z'),
      to: Date.parse('2026-02-01T00:00:00Z'),
      csv: true,
    });
  });

  it.each([
    [['attempt'], 'attempt takes one <attemptId>'],
    [['verify'], 'give --all'],
    [['fees', '--partner', 'p1'], 'fees needs --from, --to'],
    [['fees', '--partner', 'p1', '--from', '2026-02-01', '--to', '2026-01-01'], '--to must be after --from'],
    [['attempt', 'at_1', '--api', 'ftp://x'], '--api must be an http(s) URL'],
    [['verify', '--all', '--since', 'yesterday'], '--since must be an ISO date'],
    [['audit'], 'unknown command: audit'],
    [['attempt', 'at_1', '--force'], 'unknown option --force'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(UsageError);
    expect(() => parseArgs(argv)).toThrow(message);
  });
});

describe('parseDate', () => {
  it('takes a bare date as a whole UTC day, a date-time as it is', () => {
    expect(parseDate('2026-01-31', '--to', 'end')).toBe(Date.parse('2026-02-01T00:00:00Z'));
    expect(parseDate('2026-01-31', '--from', 'start')).toBe(Date.parse('2026-01-31T00:00:00Z'));
    expect(parseDate('2026-01-31T12:00:00+02:00', '--to', 'end')).toBe(Date.parse('2026-01-31T10:00:00Z'));
  });
});
