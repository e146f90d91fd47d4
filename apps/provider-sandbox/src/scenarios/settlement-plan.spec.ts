import { getAddress, maxUint256, zeroAddress, type Address } from 'viem';
import { type SandboxToken } from '../chains/start-sandbox-chains';
import { DEFAULT_PRICES } from '../pricing/price-table';
import { TokenDirectory } from '../tokens/token-directory';
import { settlementPlan, type PlanInput } from './settlement-plan';

const addr = (n: number): Address => getAddress(`0x${n.toString(16).padStart(40, '0')}`);
const TOKENS: SandboxToken[] = [1, 8453].flatMap((chainId) => [
  { chainId, symbol: 'ETH', address: zeroAddress, decimals: 18 },
  { chainId, symbol: 'USDC', address: addr(0xc1), decimals: 6 },
  { chainId, symbol: 'USDT', address: addr(0xc2), decimals: 6 },
  { chainId, symbol: 'WETH', address: addr(0xc3), decimals: 18 },
]);
const market = { tokens: new TokenDirectory(TOKENS), prices: DEFAULT_PRICES };
const [USDC, USDT, WETH] = [addr(0xc1), addr(0xc2), addr(0xc3)];
const depositor = addr(0xd0);
const recipient = addr(0xe0);
const refundAddress = addr(0xf0);

/** 40.000xxx USDC on chain 1 for 0.0133 WETH on 8453 (min 0.0130). */
function input(overrides: Partial<PlanInput>): PlanInput {
  return {
    scenario: 'normal',
    refund: false,
    sourceChainId: 1,
    depositor,
    inputToken: USDC,
    inputAmount: 40_000_000n,
    destinationChainId: 8453,
    recipient,
    outputToken: WETH,
    outputAmount: 13_300_000_000_000_000n,
    minimumOutput: 13_000_000_000_000_000n,
    ...overrides,
  };
}

const refundOnSource = { chainId: 1, token: USDC, to: depositor, amount: 40_000_000n, reverts: false };

describe('settlementPlan', () => {
  it('fills a normal deposit with its output, and refunds it when asked', () => {
    expect(settlementPlan(market, input({}))).toEqual({
      kind: 'fill',
      transfer: {
        chainId: 8453,
        token: WETH,
        to: recipient,
        amount: 13_300_000_000_000_000n,
        reverts: false,
      },
      reported: { token: WETH, amount: 13_300_000_000_000_000n },
    });
    expect(settlementPlan(market, input({ refund: true, failReason: 'X' }))).toEqual({
      kind: 'refund',
      transfer: refundOnSource,
      failReason: 'X',
    });
  });

  it('a scenario wins over the refund flag', () => {
    expect(settlementPlan(market, input({ scenario: 'zero-fill', refund: true })).kind).toBe('fill');
  });

  it('holds a failure before refunding, and fails for good without moving funds', () => {
    expect(settlementPlan(market, input({ scenario: 'failure-then-refund' }))).toEqual({
      kind: 'refund',
      transfer: refundOnSource,
      failReason: 'SOLVER_CAPACITY_EXCEEDED',
      holdAs: 'failed',
    });
    expect(settlementPlan(market, input({ scenario: 'final-failure' }))).toEqual({
      kind: 'fail',
      failReason: 'SOLVER_CAPACITY_EXCEEDED',
      refundFailReason: 'AMOUNT_TOO_LOW_TO_REFUND',
    });
  });

  it('reverts a fill by sending more than the filler holds, native output as WETH, and reports the promise', () => {
    const plan = settlementPlan(market, input({ scenario: 'reverted-fill', outputToken: zeroAddress }));
    expect(plan).toMatchObject({
      kind: 'fill',
      transfer: { token: WETH, amount: maxUint256, reverts: true },
      reported: { token: zeroAddress, amount: 13_300_000_000_000_000n },
    });
  });

  it('short-fills half the minimum (at least 1) and zero-fills 0, reporting what moved', () => {
    expect(settlementPlan(market, input({ scenario: 'short-fill' }))).toMatchObject({
      transfer: { amount: 6_500_000_000_000_000n },
      reported: { amount: 6_500_000_000_000_000n },
    });
    expect(settlementPlan(market, input({ scenario: 'short-fill', minimumOutput: 1n }))).toMatchObject({
      transfer: { amount: 1n },
    });
    expect(settlementPlan(market, input({ scenario: 'zero-fill' }))).toMatchObject({
      transfer: { amount: 0n, token: WETH },
      reported: { amount: 0n },
    });
  });

  it('pays the same value in another token: USDT for USDC, USDC for anything else', () => {
    expect(
      settlementPlan(
        market,
        input({ scenario: 'wrong-token-fill', outputToken: USDC, outputAmount: 39_900_000n }),
      ),
    ).toMatchObject({
      transfer: { token: USDT, amount: 39_900_000n },
      reported: { token: USDC, amount: 39_900_000n },
    });
    // 0.0133 WETH at $3000 = 39.9 USDC.
    expect(settlementPlan(market, input({ scenario: 'wrong-token-fill' }))).toMatchObject({
      transfer: { token: USDC, amount: 39_900_000n },
      reported: { token: WETH },
    });
  });

  it('sends the bridged token to the fallback recipient when the destination action fails', () => {
    const plan = settlementPlan(
      market,
      input({
        scenario: 'destination-action-failed',
        bridged: { token: USDC, fallbackRecipient: refundAddress },
      }),
    );
    expect(plan).toEqual({
      kind: 'fill',
      transfer: { chainId: 8453, token: USDC, to: refundAddress, amount: 39_900_000n, reverts: false },
      reported: { token: USDC, amount: 39_900_000n },
    });
  });

  it('holds a delayed fill', () => {
    expect(settlementPlan(market, input({ scenario: 'delayed' }))).toMatchObject({
      kind: 'fill',
      holdAs: 'delayed',
    });
  });

  describe('an Across app fee paid by the MulticallHandler (S8)', () => {
    const feeTo = addr(0xfe);
    const appFee = { to: feeTo, amount: 13_300_000_000_000n };

    it.each(['normal', 'delayed'] as const)(
      '%s: the fee goes out before the fill, the recipient gets the rest',
      (scenario) => {
        expect(settlementPlan(market, input({ scenario, appFee }))).toMatchObject({
          kind: 'fill',
          appFee: { chainId: 8453, token: WETH, to: feeTo, amount: 13_300_000_000_000n, reverts: false },
          transfer: { to: recipient, amount: 13_300_000_000_000_000n },
          reported: { token: WETH, amount: 13_300_000_000_000_000n },
        });
      },
    );

    it.each(['short-fill', 'reverted-fill', 'refund'] as const)('%s: no fee moves', (scenario) => {
      expect(settlementPlan(market, input({ scenario, appFee }))).not.toHaveProperty('appFee');
    });

    it('a failed destination action drains the whole bridge leg, the fee included, in the bridged token', () => {
      const plan = settlementPlan(
        market,
        input({
          scenario: 'destination-action-failed',
          appFee,
          bridged: { token: USDC, fallbackRecipient: refundAddress, outputAmount: 13_313_300_000_000_000n },
        }),
      );
      // 0.0133133 WETH at $3000 = 39.9399 USDC.
      expect(plan).toEqual({
        kind: 'fill',
        transfer: { chainId: 8453, token: USDC, to: refundAddress, amount: 39_939_900n, reverts: false },
        reported: { token: USDC, amount: 39_939_900n },
      });
    });
  });
});
