import { allocate } from './allocate';
import { AllocationInputError } from './allocation-input.error';
import { TOKENS, source, target } from './allocation.fixture';

describe('allocate, input the request validation should have refused', () => {
  const usdc = source(0, TOKENS.usdcEth, 1_000_000n, '1');
  const half = (id: string) => target(id, TOKENS.usdcArb, 50);

  it.each([
    ['no targets', { sources: [usdc], targets: [] }],
    ['duplicate target ids', { sources: [usdc], targets: [half('a'), half('a')] }],
    ['duplicate source indexes', { sources: [usdc, usdc], targets: [target('a', TOKENS.usdcArb)] }],
    ['a zero amount', { sources: [{ ...usdc, amount: 0n }], targets: [target('a', TOKENS.usdcArb)] }],
    [
      'a malformed usdValue',
      { sources: [{ ...usdc, usdValue: '1e3' }], targets: [target('a', TOKENS.usdcArb)] },
    ],
    [
      'a missing usdValue with two targets',
      { sources: [{ ...usdc, usdValue: null }], targets: [half('a'), half('b')] },
    ],
    [
      'a zero usdValue with two targets',
      { sources: [{ ...usdc, usdValue: '0.00' }], targets: [half('a'), half('b')] },
    ],
  ])('given %s, then it throws AllocationInputError', (_, input) => {
    expect(() => allocate(input)).toThrow(AllocationInputError);
  });
});
