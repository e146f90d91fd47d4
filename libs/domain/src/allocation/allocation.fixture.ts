import { type AllocationSource, type AllocationTarget } from './allocation.types';

interface Token {
  chainId: number;
  address: string;
  symbol: string | null;
  decimals: number;
}

/** Real token identities on a few chains; mixed-case addresses on purpose (comparison is case-insensitive). */
export const TOKENS = {
  usdcEth: { chainId: 1, address: '0xA0b86991c6218b36c1d19D4a2E9Eb0cE3606eB48', symbol: 'USDC', decimals: 6 },
  daiEth: { chainId: 1, address: '0x6B175474E89094C44Da98b954EedeAC495271d0F', symbol: 'DAI', decimals: 18 },
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
  ethBase: {
    chainId: 8453,
    address: '0x0000000000000000000000000000000000000000',
    symbol: 'ETH',
    decimals: 18,
  },
  usdcArb: {
    chainId: 42161,
    address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    symbol: 'USDC',
    decimals: 6,
  },
  ethArb: {
    chainId: 42161,
    address: '0x0000000000000000000000000000000000000000',
    symbol: 'ETH',
    decimals: 18,
  },
} satisfies Record<string, Token>;

export function source(
  index: number,
  token: Token,
  amount: bigint,
  usdValue: string | null = null,
): AllocationSource {
  return { index, ...token, amount, usdValue };
}

export function target(id: string, token: Token, allocationPercent = 100): AllocationTarget {
  return { id, ...token, allocationPercent };
}
