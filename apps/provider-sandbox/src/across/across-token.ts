import { getAddress } from 'viem';
import { type QuoteToken } from '../pricing/compute-quote';
import { tokenName } from '../tokens/token-directory';

/** Across's token object (reference §2.2); native tokens keep the zero address. */
export function acrossToken(token: QuoteToken) {
  return {
    address: getAddress(token.address),
    symbol: token.symbol,
    decimals: token.decimals,
    chainId: token.chainId,
    name: tokenName(token.symbol),
  };
}
