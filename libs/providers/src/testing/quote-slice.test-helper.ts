import { type Address } from 'viem';
import { type QuoteSlice } from '../provider-adapter.port';

export const WALLET: Address = '0x7a16fF8270133F063aAb6C9977183D9e72835428';
export const RECIPIENT: Address = '0x3f5CE5FBFe3E9af3971dD833D26bA9b5C936f0bE';
export const FEE_RECIPIENT: Address = '0x9E2a6f31C2D3B4a8c1E0f7a6B5c4D3e2F1a0B9c8';
export const NATIVE: Address = '0x0000000000000000000000000000000000000000';
export const USDC: Record<'ethereum' | 'arbitrum' | 'base', Address> = {
  ethereum: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  arbitrum: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  base: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
};

/** 100 USDC on Arbitrum to USDC on Base, 0.5 % slippage, no app fee; override what a case is about. */
export function quoteSlice(overrides: Partial<QuoteSlice> = {}): QuoteSlice {
  return {
    sliceId: 'slice-1',
    wallet: WALLET,
    recipient: RECIPIENT,
    refundTo: WALLET,
    source: { chainId: 42161, token: USDC.arbitrum, amount: 100_000000n, decimals: 6, symbol: 'USDC' },
    target: { chainId: 8453, token: USDC.base, decimals: 6, symbol: 'USDC' },
    slippageBps: 50,
    appFeeBps: 0,
    appFeeRecipient: null,
    ...overrides,
  };
}
