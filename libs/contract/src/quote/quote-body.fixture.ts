import { getAddress } from 'viem';
import { type PartnerRequestPolicy } from '../validation/validation-result';

export const WALLET = getAddress('0xd8da6bf26964af9d7eed9e03e53415d37aa96045');
export const USDC_ETHEREUM = getAddress('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
export const USDC_BASE = getAddress('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913');
export const WETH = getAddress('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2');
export const NATIVE = '0x0000000000000000000000000000000000000000';
/** Mixed case whose EIP-55 checksum is wrong (the first letter's case flipped). */
export const BAD_CHECKSUM = USDC_ETHEREUM.replace('A', 'a');

export const POLICY: PartnerRequestPolicy = {
  maxFeeBps: 300,
  callbackUrl: 'https://partner.example/webhooks',
};

type Json = Record<string, unknown>;

export function sourceBody(overrides: Json = {}): Json {
  return { chainId: 1, address: USDC_ETHEREUM, amount: '1000000', decimals: 6, ...overrides };
}

export function targetBody(overrides: Json = {}, tokenOverrides: Json = {}): Json {
  return {
    chainId: 8453,
    address: USDC_BASE,
    targetToken: { address: USDC_BASE, decimals: 6, ...tokenOverrides },
    ...overrides,
  };
}

/** A valid single-target quote body. */
export function quoteBody(overrides: Json = {}): Json {
  return { walletAddress: WALLET, sources: [sourceBody()], target: targetBody(), ...overrides };
}

/** A valid multi-target quote body: two sources with USD values, targets split 60/40. */
export function multiTargetBody(overrides: Json = {}): Json {
  return {
    walletAddress: WALLET,
    sources: [sourceBody({ usdValue: '1.00' }), sourceBody({ chainId: 10, usdValue: '2.5' })],
    targets: [
      targetBody({ allocationPercent: 60 }),
      targetBody({ chainId: 1, address: WETH, allocationPercent: 40 }, { address: WETH, decimals: 18 }),
    ],
    ...overrides,
  };
}

/** `count` distinct sources (different chain ids), each with a USD value. */
export function distinctSources(count: number): Json[] {
  return Array.from({ length: count }, (_, index) => sourceBody({ chainId: index + 1, usdValue: '1' }));
}
