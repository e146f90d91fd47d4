import { type Address } from 'viem';
import { type QuoteSlice } from '../provider-adapter.port';
import { type MayanChain } from './mayan-chains';

/**
 * Body of `POST /quote` (reference/providers.md §3.2): Swift only, since it is the route whose transaction
 * we know how to build; the referrer fee is Mayan's name for our app fee.
 */
export function mayanQuoteRequest(
  slice: QuoteSlice,
  chains: { from: MayanChain; to: MayanChain },
  referrer: Address | null,
): Record<string, unknown> {
  return {
    amountIn64: slice.source.amount.toString(),
    fromToken: slice.source.token,
    fromChain: chains.from.name,
    toToken: slice.target.token,
    toChain: chains.to.name,
    slippageBps: slice.slippageBps,
    ...(referrer !== null && slice.appFeeBps > 0 ? { referrer, referrerBps: slice.appFeeBps } : {}),
    destinationAddress: slice.recipient,
    swift: true,
    mctp: false,
    fastMctp: false,
    wormhole: false,
    monoChain: false,
    gasless: false,
    fullList: false,
  };
}
