import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from 'viem';
import { type ProviderCall, type ProviderQuote } from '../provider-quote';
import { NATIVE, quoteSlice, USDC } from '../testing/quote-slice.test-helper';
import { ACROSS_CONTRACTS } from './across-contracts';
import { mayanContracts } from './mayan-contracts';
import { type ContractAllowlist } from './provider-contracts';
import { RELAY_CONTRACTS } from './relay-contracts';
import { vouchQuote } from './vouch-quote';

const DEPOSITORY: Address = '0x4cd00e387622c35bddb9b4c962c136462338bc31';
const ROUTER: Address = '0xb92fe925dc43a0ecde6c8b1a2709c170ec4fff4f';
const ATTACKER: Address = '0xbadbadbadbadbadbadbadbadbadbadbadbadbad0';
/** Relay on Arbitrum: the depository takes deposits and approvals, the router only calls. */
const ALLOWLIST: ContractAllowlist = new Map([
  [42161, { targets: [DEPOSITORY, ROUTER], spenders: [DEPOSITORY] }],
  [8453, { targets: [DEPOSITORY], spenders: [DEPOSITORY] }],
]);

const erc20Slice = quoteSlice(); // 100 USDC on Arbitrum, 0.5 % slippage
const nativeSlice = quoteSlice({
  source: { chainId: 8453, token: NATIVE, amount: 5n * 10n ** 16n, decimals: 18 },
});

function approve(token: Address, spender: Address, amount: bigint): ProviderCall {
  return {
    chainId: 42161,
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
    value: 0n,
    gas: null,
    kind: 'approve',
    approval: { token, spender, amount },
  };
}

function deposit(overrides: Partial<ProviderCall> = {}): ProviderCall {
  return {
    chainId: 42161,
    to: DEPOSITORY,
    data: '0xe8017952',
    value: 0n,
    gas: null,
    kind: 'deposit',
    ...overrides,
  };
}

function quote(overrides: Partial<ProviderQuote> = {}): ProviderQuote {
  return {
    provider: 'relay',
    sliceId: 'slice-1',
    expectedOutputRaw: 99_958977n,
    minimumOutputRaw: 99_459182n,
    inputUsd: null,
    outputUsd: null,
    feeUsd: null,
    feeBreakdown: [],
    lossUsd: null,
    etaSeconds: null,
    calls: [approve(USDC.arbitrum, DEPOSITORY, 100_000000n), deposit()],
    providerRequestId: null,
    validUntil: null,
    trackingContext: { provider: 'relay', requestId: '0x01', originChainId: 42161, destinationChainId: 8453 },
    appFee: null,
    ...overrides,
  };
}

const nativeQuote = (value: bigint) =>
  quote({ calls: [deposit({ chainId: 8453, value })], expectedOutputRaw: 180n, minimumOutputRaw: 180n });

describe('vouchQuote', () => {
  it('passes an approval of the source token to a listed spender followed by a deposit to a listed contract', () => {
    expect(vouchQuote(quote(), erc20Slice, ALLOWLIST)).toBeNull();
  });

  it('passes an unlimited approval here: prepare builds its own for the exact amount (plan-approvals.ts)', () => {
    const calls = [approve(USDC.arbitrum, DEPOSITORY, maxUint256), deposit()];
    expect(vouchQuote(quote({ calls }), erc20Slice, ALLOWLIST)).toBeNull();
  });

  it('passes a native deposit whose value is exactly the amount', () => {
    expect(vouchQuote(nativeQuote(nativeSlice.source.amount), nativeSlice, ALLOWLIST)).toBeNull();
  });

  describe('refuses', () => {
    it.each<[string, ProviderQuote, 'chain' | 'target' | 'approval' | 'spender' | 'value']>([
      ['a deposit to a contract that is not listed', quote({ calls: [deposit({ to: ATTACKER })] }), 'target'],
      [
        'an unnamed step ("other") to a contract that is not listed',
        quote({ calls: [deposit(), deposit({ to: ATTACKER, kind: 'other' })] }),
        'target',
      ],
      [
        'a transfer of the source token dressed as a deposit',
        quote({ calls: [deposit({ to: USDC.arbitrum })] }),
        'target',
      ],
      [
        'an approval to a spender that is not listed',
        quote({ calls: [approve(USDC.arbitrum, ATTACKER, 100_000000n), deposit()] }),
        'spender',
      ],
      [
        'an approval to a contract listed only as a target (a router anyone can drive)',
        quote({ calls: [approve(USDC.arbitrum, ROUTER, 100_000000n), deposit()] }),
        'spender',
      ],
      [
        'an approval of a token the partner did not name',
        quote({ calls: [approve(USDC.base, DEPOSITORY, 100_000000n), deposit()] }),
        'approval',
      ],
      [
        'an approval sent to another token than its details name',
        quote({ calls: [{ ...approve(USDC.arbitrum, DEPOSITORY, 1n), to: USDC.base }, deposit()] }),
        'approval',
      ],
      [
        'approval details naming another token than the call goes to',
        quote({
          calls: [
            {
              ...approve(USDC.arbitrum, DEPOSITORY, 1n),
              approval: { token: USDC.base, spender: DEPOSITORY, amount: 1n },
            },
            deposit(),
          ],
        }),
        'approval',
      ],
      [
        'approval details that the calldata contradicts',
        quote({
          calls: [
            {
              ...approve(USDC.arbitrum, ATTACKER, maxUint256),
              approval: { token: USDC.arbitrum, spender: DEPOSITORY, amount: 1n },
            },
            deposit(),
          ],
        }),
        'approval',
      ],
      ['a call on another chain', quote({ calls: [deposit({ chainId: 1 })] }), 'chain'],
      ['value on a token deposit', quote({ calls: [deposit({ value: 1n })] }), 'value'],
      [
        'value on a token approval',
        quote({ calls: [{ ...approve(USDC.arbitrum, DEPOSITORY, 100_000000n), value: 1n }, deposit()] }),
        'value',
      ],
    ])('%s', (_, hostile, rule) => {
      expect(vouchQuote(hostile, erc20Slice, ALLOWLIST)).toMatchObject({ rule });
    });

    it('a chain where the provider has no listed contract', () => {
      expect(
        vouchQuote(quote(), quoteSlice({ source: { ...erc20Slice.source, chainId: 10 } }), ALLOWLIST),
      ).toMatchObject({
        rule: 'chain',
        reason: 'no relay contract is allowed on chain 10',
      });
    });

    it('a target chain where the provider has no listed contract: the list bounds both ends of a leg (N-L3)', () => {
      const toOptimism = quoteSlice({ target: { ...erc20Slice.target, chainId: 10 } });
      expect(vouchQuote(quote(), toOptimism, ALLOWLIST)).toMatchObject({
        rule: 'chain',
        reason: 'no relay contract is allowed on chain 10, the target chain',
      });
    });

    it('any approval when the source is the native asset', () => {
      const calls = [
        { ...approve(USDC.base, DEPOSITORY, 1n), chainId: 8453 },
        deposit({ chainId: 8453, value: nativeSlice.source.amount }),
      ];
      expect(vouchQuote(quote({ calls }), nativeSlice, ALLOWLIST)).toMatchObject({
        rule: 'approval',
        reason: 'call 0 approves a token, but the source is the native asset',
      });
    });

    it.each([
      ['more than the amount', nativeSlice.source.amount + 1n],
      ['less than the amount', nativeSlice.source.amount - 1n],
      ['no value at all', 0n],
    ])('a native deposit sending %s', (_, value) => {
      expect(vouchQuote(nativeQuote(value), nativeSlice, ALLOWLIST)).toMatchObject({ rule: 'value' });
    });

    it('native value split so that the calls together send more than the amount', () => {
      const calls = [
        deposit({ chainId: 8453, value: nativeSlice.source.amount }),
        deposit({ chainId: 8453, value: 1n, kind: 'other' }),
      ];
      expect(
        vouchQuote(quote({ calls, minimumOutputRaw: 99_958977n }), nativeSlice, ALLOWLIST),
      ).toMatchObject({
        rule: 'value',
      });
    });
  });

  describe('minimum output', () => {
    const withOutputs = (expected: bigint, minimum: bigint) =>
      quote({ expectedOutputRaw: expected, minimumOutputRaw: minimum });

    it('refuses a minimum above the expected output', () => {
      expect(vouchQuote(withOutputs(1000n, 1001n), erc20Slice, ALLOWLIST)).toMatchObject({ rule: 'minimum' });
    });

    it('refuses a minimum of zero, and one a unit under expected × (1 − slippage) less 1 bps of rounding', () => {
      expect(vouchQuote(withOutputs(99_958977n, 0n), erc20Slice, ALLOWLIST)).toMatchObject({
        rule: 'minimum',
      });
      // 99 958 977 × (50 + 1) bps = 509 791 (rounded up) + 1 unit: the floor is 99 449 185.
      expect(vouchQuote(withOutputs(99_958977n, 99_449185n), erc20Slice, ALLOWLIST)).toBeNull();
      expect(vouchQuote(withOutputs(99_958977n, 99_449184n), erc20Slice, ALLOWLIST)).toMatchObject({
        rule: 'minimum',
      });
    });

    it("passes Relay's own answer (minimum = expected × 0.995, relay fixtures/quote-erc20-approve.json)", () => {
      expect(vouchQuote(withOutputs(99_958977n, 99_459182n), erc20Slice, ALLOWLIST)).toBeNull();
    });

    it('passes a minimum equal to the expected output (an Across bridge without swaps)', () => {
      expect(vouchQuote(withOutputs(249_621203n, 249_621203n), erc20Slice, ALLOWLIST)).toBeNull();
    });

    it('passes an Across destination swap with an app fee charged on the swap minimum, and no lower', () => {
      // Gross swap output 1 000 000, slippage 0.5 %, app fee 3 % of the swap minimum (cross-swap-service.ts).
      const slice = quoteSlice({ slippageBps: 50, appFeeBps: 300 });
      const swapMinimum = 995_000n;
      const fee = (swapMinimum * 300n) / 10_000n;
      const honest = quote({ expectedOutputRaw: 1_000_000n - fee, minimumOutputRaw: swapMinimum - fee });
      expect(vouchQuote(honest, slice, ALLOWLIST)).toBeNull();
      const lower = quote({
        expectedOutputRaw: 1_000_000n - fee,
        minimumOutputRaw: swapMinimum - fee - 200n,
      });
      expect(vouchQuote(lower, slice, ALLOWLIST)).toMatchObject({ rule: 'minimum' });
    });

    it("passes a minimum floored to Swift's 8 decimals on an 18-decimal token", () => {
      const slice = quoteSlice({ target: { chainId: 8453, token: NATIVE, decimals: 18 } });
      const expected = 49_957631_123456_789n;
      const floored = ((expected * 9_949n) / 10_000n / 10n ** 10n) * 10n ** 10n;
      expect(vouchQuote(withOutputs(expected, floored), slice, ALLOWLIST)).toBeNull();
    });
  });

  describe('the published defaults', () => {
    it('list the contracts the providers answer with, and not the routers as spenders', () => {
      const relay = RELAY_CONTRACTS.get(42161)!;
      expect(relay.spenders).toContain(DEPOSITORY);
      expect(relay.targets).toContain(ROUTER);
      expect(relay.spenders).not.toContain(ROUTER);
      expect(RELAY_CONTRACTS.get(59144)!.targets).toContain('0x59916da825d2d2ec1bf878d71c88826f6633ecca');
      // across fixtures/swap-approval-erc20.json (Ethereum) and swap-approval-native.json (Arbitrum).
      expect(ACROSS_CONTRACTS.get(1)!.spenders).toContain('0x89415a82d909a7238d69094C3Dd1dCC1aCbDa85C');
      expect(ACROSS_CONTRACTS.get(42161)!.targets).toContain('0x767e4c20F521a829dE4Ffc40C25176676878147f');
      const mayan = mayanContracts('0x337685fdaB40D39bd02028545a4FfA7D287cC3E2');
      expect(mayan.get(8453)).toEqual({
        targets: ['0x337685fdaB40D39bd02028545a4FfA7D287cC3E2'],
        spenders: ['0x337685fdaB40D39bd02028545a4FfA7D287cC3E2'],
      });
      expect(mayan.get(324)).toBeUndefined();
    });
  });
});
