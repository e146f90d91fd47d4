import { UsageError } from './cli-errors';
import { type CliCommand, parseArgs } from './parse-args';

describe('parseArgs', () => {
  it.each<[string[], CliCommand]>([
    [[], { name: 'help' }],
    [['help'], { name: 'help' }],
    [['--help'], { name: 'help' }],
    [['quote', '-h'], { name: 'help' }],
    [['ping'], { name: 'ping' }],
    [['quote', '--file', 'q.json'], { name: 'quote', file: 'q.json' }],
    [['quote', '--file=q.json', '--key', 'K1'], { name: 'quote', file: 'q.json', key: 'K1' }],
    [['quote', '--fresh', '--file', 'q.json'], { name: 'quote', file: 'q.json', fresh: true }],
    [['quote', '--key=a=b', '--file', 'q.json'], { name: 'quote', file: 'q.json', key: 'a=b' }],
    [['prepare', 'is_1'], { name: 'prepare', intentSessionId: 'is_1' }],
    [
      ['prepare', '--file', 'p.json', 'is_1', '--key', 'K'],
      { name: 'prepare', intentSessionId: 'is_1', file: 'p.json', key: 'K' },
    ],
    [['submitted', 'att_1', '--file', 'e.json'], { name: 'submitted', attemptId: 'att_1', file: 'e.json' }],
    [['status', 'att_1'], { name: 'status', attemptId: 'att_1' }],
    [['demo', '--file', 'q.json'], { name: 'demo', file: 'q.json' }],
    [['demo', '--file', 'q.json', '--user', '3'], { name: 'demo', file: 'q.json', user: '3' }],
    [['sandbox-wallet', 'is_1'], { name: 'sandbox-wallet', prepared: 'is_1' }],
    [['sandbox-wallet', 'p.json', '--user=2'], { name: 'sandbox-wallet', prepared: 'p.json', user: '2' }],
  ])('%j', (argv, command) => {
    expect(parseArgs(argv)).toEqual(command);
  });

  it.each<[string[], RegExp]>([
    [['pong'], /unknown command: pong/],
    [['toString'], /unknown command/],
    [['ping', 'extra'], /ping takes no arguments, got extra/],
    [['ping', '--file', 'x'], /ping does not take --file/],
    [['quote'], /quote needs --file/],
    [['quote', '--file'], /--file needs a value/],
    [['quote', '--file='], /--file needs a value/],
    [['quote', '--file', 'a', '--file', 'b'], /--file given twice/],
    [['quote', '--file', 'a', '--verbose'], /quote does not take --verbose/],
    [['status', 'att_1', '--fresh'], /status does not take --fresh/],
    [['quote', '--file', 'a', '--fresh=yes'], /quote does not take --fresh/],
    [['quote', '--file', 'a', '--constructor', 'x'], /does not take --constructor/],
    [['prepare'], /prepare takes <intentSessionId>, got none/],
    [['prepare', 'a', 'b'], /prepare takes <intentSessionId>, got a b/],
    [['submitted', 'att_1'], /submitted needs --file/],
    [['submitted', '--file', 'e.json'], /submitted takes <attemptId>/],
    [['status'], /status takes <attemptId>/],
    [['status', 'att_1', '--key', 'K'], /status does not take --key/],
    [['demo'], /demo needs --file/],
    [['demo', '--file', 'q.json', '--key', 'K'], /demo does not take --key/],
    [['sandbox-wallet'], /sandbox-wallet takes <prepared>, got none/],
    [['sandbox-wallet', 'is_1', '--file', 'x'], /sandbox-wallet does not take --file/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(UsageError);
    expect(() => parseArgs(argv)).toThrow(message);
  });
});
