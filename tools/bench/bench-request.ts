/** A token as the sandbox manifest lists it. */
export interface ManifestToken {
  chainId: number;
  symbol: string;
  address: string;
  decimals: number;
}

export interface BenchSource {
  chainId: number;
  address: string;
  amount: string;
  symbol: string;
  decimals: number;
}

export interface BenchRequestPlan {
  body: {
    walletAddress: string;
    recipient: string;
    sources: BenchSource[];
    target: {
      chainId: number;
      address: string;
      targetToken: { address: string; symbol: string; decimals: number };
    };
    slippageBps: number;
  };
  /** Sources on another chain than the target: each is one provider quote per provider. */
  routedSources: number;
  /** The source that is the target token itself (chain and address): delivered as is, no quote. */
  noopSources: number;
}

export const TARGET_CHAIN_ID = 8453;

/** Whole-token amounts per symbol: about $100 of each. */
function wholeAmount(symbol: string): string {
  return symbol === 'WETH' || symbol === 'ETH' ? '0.05' : '100';
}

function toBaseUnits(whole: string, decimals: number): string {
  const [int, frac = ''] = whole.split('.');
  return (BigInt(int) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0')).toString();
}

/**
 * A quote request with `count` distinct (chainId, address) sources into USDC on the target chain (default base): the
 * target token itself (a no-op slice), every other source on the two other chains, split as evenly as their tokens
 * allow, so every slice but one routes. A different token on the target chain would need a same-chain swap, which no
 * provider routes, so none is used.
 */
export function planBenchRequest(params: {
  tokens: readonly ManifestToken[];
  wallet: string;
  count: number;
  targetChainId?: number;
}): BenchRequestPlan {
  const { tokens, wallet, count, targetChainId = TARGET_CHAIN_ID } = params;
  const usdcOnTarget = tokens.find((t) => t.chainId === targetChainId && t.symbol === 'USDC');
  if (!usdcOnTarget) throw new Error(`the manifest lists no USDC on chain ${targetChainId}`);
  const otherChains = [...new Set(tokens.map((t) => t.chainId))]
    .filter((c) => c !== targetChainId)
    .sort((a, b) => a - b);
  const perChain = otherChains.map((chainId) => tokens.filter((t) => t.chainId === chainId));
  const routed: ManifestToken[] = [];
  // Round-robin over the other chains, so they differ by at most one source.
  for (let i = 0; routed.length < count - 1 && i < Math.max(0, ...perChain.map((l) => l.length)); i += 1) {
    for (const list of perChain) {
      if (routed.length < count - 1 && list[i]) routed.push(list[i]);
    }
  }
  if (routed.length < count - 1) {
    throw new Error(
      `${count} sources need ${count - 1} tokens off chain ${targetChainId}, the sandbox lists ` +
        `${routed.length}: raise SANDBOX_EXTRA_TOKENS`,
    );
  }
  const sources = [usdcOnTarget, ...routed].map((t) => ({
    chainId: t.chainId,
    address: t.address,
    amount: toBaseUnits(wholeAmount(t.symbol), t.decimals),
    symbol: t.symbol,
    decimals: t.decimals,
  }));
  return {
    body: {
      walletAddress: wallet,
      recipient: wallet,
      sources,
      target: {
        chainId: targetChainId,
        address: usdcOnTarget.address,
        targetToken: { address: usdcOnTarget.address, symbol: 'USDC', decimals: usdcOnTarget.decimals },
      },
      slippageBps: 50,
    },
    routedSources: routed.length,
    noopSources: 1,
  };
}

/** Extra tokens per chain a sandbox needs for `count` sources planned as above (4 standard identities each). */
export function extraTokensFor(count: number, otherChains = 2): number {
  return Math.max(0, Math.ceil((count - 1) / otherChains) - 4);
}
