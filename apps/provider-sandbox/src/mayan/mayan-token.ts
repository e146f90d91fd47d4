import { getAddress } from 'viem';
import { type QuoteToken } from '../pricing/compute-quote';
import { isNative, tokenName } from '../tokens/token-directory';

/** Mayan's Token object (reference §3.2). */
export function mayanToken(token: QuoteToken, wormholeId: number) {
  return {
    name: tokenName(token.symbol),
    symbol: token.symbol,
    contract: getAddress(token.address),
    mint: '',
    chainId: token.chainId,
    wChainId: wormholeId,
    decimals: token.decimals,
    logoURI: '',
    coingeckoId: '',
    verified: true,
    standard: isNative(token.address) ? 'native' : 'erc20',
    supportsPermit: false,
  };
}
