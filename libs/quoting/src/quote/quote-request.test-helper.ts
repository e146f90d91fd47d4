import { type QuoteRequest, type SourceInput, type TargetInput } from '@svc/contract';
import { type QuoteSlice } from '@svc/providers';
import { type Address } from 'viem';

/** Test support for the quote use case's specs, the partner's side: real token identities, validated requests. */

export const WALLET: Address = '0x7a16fF8270133F063aAb6C9977183D9e72835428';
export const RECIPIENT: Address = '0x3f5CE5FBFe3E9af3971dD833D26bA9b5C936f0bE';
export const FEE_RECIPIENT: Address = '0x9E2a6f31C2D3B4a8c1E0f7a6B5c4D3e2F1a0B9c8';

export interface Token {
  chainId: number;
  address: Address;
  symbol: string;
  decimals: number;
}

export const TOKEN = {
  usdcEth: { chainId: 1, address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC', decimals: 6 },
  daiEth: { chainId: 1, address: '0x6B175474E89094C44Da98b954EedeAC495271d0F', symbol: 'DAI', decimals: 18 },
  usdcArb: {
    chainId: 42161,
    address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    symbol: 'USDC',
    decimals: 6,
  },
  usdcBase: {
    chainId: 8453,
    address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    symbol: 'USDC',
    decimals: 6,
  },
  wethBase: {
    chainId: 8453,
    address: '0x4200000000000000000000000000000000000006',
    symbol: 'WETH',
    decimals: 18,
  },
} satisfies Record<string, Token>;

export function source(token: Token, amount: bigint, extra: { usdValue?: string; symbol?: boolean } = {}) {
  const input: SourceInput = {
    chainId: token.chainId,
    address: token.address,
    amount: amount.toString(),
    decimals: token.decimals,
  };
  if (extra.symbol !== false) input.symbol = token.symbol;
  if (extra.usdValue !== undefined) input.usdValue = extra.usdValue;
  return input;
}

export function target(
  id: string,
  token: Token,
  extra: { allocationPercent?: number; priceUSD?: string; symbol?: boolean } = {},
): TargetInput {
  return {
    id,
    chainId: token.chainId,
    address: token.address,
    allocationPercent: extra.allocationPercent ?? 100,
    targetToken: {
      address: token.address,
      decimals: token.decimals,
      ...(extra.symbol === false ? {} : { symbol: token.symbol }),
      ...(extra.priceUSD === undefined ? {} : { priceUSD: extra.priceUSD }),
    },
  };
}

type RequestOptions = Partial<
  Pick<QuoteRequest, 'recipient' | 'slippageBps' | 'allowPartial' | 'feeBps' | 'maxWaitMs'>
>;

/** A validated request (defaults applied), single-target form for one target, multi-target for more. */
export function quoteRequest(
  sources: SourceInput[],
  targets: TargetInput[],
  options: RequestOptions = {},
): QuoteRequest {
  const fields = {
    walletAddress: WALLET,
    recipient: RECIPIENT,
    sources,
    slippageBps: 50,
    allowPartial: false,
    ...options,
  };
  return targets.length === 1 ? { ...fields, target: targets[0] } : { ...fields, targets };
}

/** What the service asks a provider for: 100 USDC from Arbitrum to USDC on Base unless told otherwise. */
export function quoteSlice(overrides: Partial<QuoteSlice> = {}): QuoteSlice {
  return {
    sliceId: 't0:0',
    wallet: WALLET,
    recipient: RECIPIENT,
    refundTo: WALLET,
    source: {
      chainId: 42161,
      token: TOKEN.usdcArb.address,
      amount: 100_000000n,
      decimals: 6,
      symbol: 'USDC',
    },
    target: { chainId: 8453, token: TOKEN.usdcBase.address, decimals: 6, symbol: 'USDC' },
    slippageBps: 50,
    appFeeBps: 0,
    appFeeRecipient: null,
    ...overrides,
  };
}
