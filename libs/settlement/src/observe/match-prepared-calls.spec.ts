import {
  matchPreparedCalls,
  rivalOwners,
  type ExecutedCall,
  type PreparedCall,
} from './match-prepared-calls';

const token = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const approve =
  '0x095ea7b3000000000000000000000000aabbccddeeff00112233445566778899aabbccdd00000000000000000000000000000000000000000000000000000000000003e8';

const prepared: PreparedCall[] = [
  { callId: 'chain:8453:call:0', to: token, data: approve, value: '0' },
  {
    callId: 'chain:8453:call:1',
    to: '0x000000000000000000000000000000000000dEaD',
    data: '0x',
    value: '1000',
  },
];

const call = (overrides: Partial<ExecutedCall> = {}): ExecutedCall => ({
  to: token,
  value: 0n,
  data: approve,
  ...overrides,
});

describe('matchPreparedCalls', () => {
  it('given a call equal to a prepared one, then its callId', () => {
    expect(matchPreparedCalls([call()], prepared)).toEqual(['chain:8453:call:0']);
  });

  it('compares addresses and calldata case-insensitively, values as numbers', () => {
    const shouted = {
      ...prepared[0],
      to: token.toUpperCase().replace('0X', '0x'),
      data: approve.toUpperCase(),
    };
    expect(matchPreparedCalls([call({ to: token.toLowerCase() as `0x${string}` })], [shouted])).toEqual([
      'chain:8453:call:0',
    ]);
    const native = call({ to: '0x000000000000000000000000000000000000dead', value: 1000n, data: '0x' });
    expect(matchPreparedCalls([native], [{ ...prepared[1], value: '0x3e8' }])).toEqual(['chain:8453:call:1']);
    expect(matchPreparedCalls([native], [{ ...prepared[1], value: 1000n, data: '' }])).toEqual([
      'chain:8453:call:1',
    ]);
  });

  it('given any difference in to, value or data, then null', () => {
    expect(
      matchPreparedCalls([call({ to: '0x000000000000000000000000000000000000dEaD' })], prepared),
    ).toBeNull();
    expect(matchPreparedCalls([call({ value: 1n })], prepared)).toBeNull();
    expect(
      matchPreparedCalls([call({ data: `${approve.slice(0, -1)}9` as `0x${string}` })], prepared),
    ).toBeNull();
    expect(matchPreparedCalls([call({ to: null })], prepared)).toBeNull();
  });

  it('an empty or malformed prepared value is no value at all', () => {
    expect(matchPreparedCalls([call()], [{ ...prepared[0], value: '' }])).toBeNull();
    expect(matchPreparedCalls([call()], [{ ...prepared[0], value: '0.0' }])).toBeNull();
  });

  it('a batch matches when every call is a distinct prepared call, in execution order', () => {
    const native = call({ to: prepared[1].to as `0x${string}`, value: 1000n, data: '0x' });
    expect(matchPreparedCalls([native, call()], prepared)).toEqual([
      'chain:8453:call:1',
      'chain:8453:call:0',
    ]);
    expect(matchPreparedCalls([call(), call()], prepared)).toBeNull();
    const twice = [...prepared, { ...prepared[0], callId: 'chain:8453:call:2' }];
    expect(matchPreparedCalls([call(), call()], twice)).toEqual(['chain:8453:call:0', 'chain:8453:call:2']);
    expect(matchPreparedCalls([call(), call({ value: 5n })], prepared)).toBeNull();
  });

  it('no calls match nothing', () => {
    expect(matchPreparedCalls([], prepared)).toBeNull();
  });
});

describe("rivalOwners (ADR 0009: a transaction two open attempts could own is nobody's by search)", () => {
  const approveOnly = [prepared[0]];
  const otherAmount = [{ ...prepared[0], data: approve.replace(/3e8$/, '3e9') }];

  it('given another attempt that prepared the very same call, when the executed call is it, then that attempt', () => {
    expect(
      rivalOwners([call()], 'a-self', [
        { attemptId: 'a-self', preparedCalls: approveOnly },
        { attemptId: 'a-twin', preparedCalls: approveOnly },
      ]),
    ).toEqual(['a-twin']);
  });

  it('given only the attempt itself, or others whose calls differ, then no rival', () => {
    expect(rivalOwners([call()], 'a-self', [{ attemptId: 'a-self', preparedCalls: approveOnly }])).toEqual(
      [],
    );
    expect(rivalOwners([call()], 'a-self', [{ attemptId: 'a-other', preparedCalls: otherAmount }])).toEqual(
      [],
    );
  });

  it('given a batch, then a rival must have prepared every call of it', () => {
    const batch = [
      call(),
      call({ to: '0x000000000000000000000000000000000000dEaD', value: 1000n, data: '0x' }),
    ];
    expect(
      rivalOwners(batch, 'a-self', [
        { attemptId: 'a-approve-only', preparedCalls: approveOnly },
        { attemptId: 'a-both', preparedCalls: prepared },
      ]),
    ).toEqual(['a-both']);
  });
});
