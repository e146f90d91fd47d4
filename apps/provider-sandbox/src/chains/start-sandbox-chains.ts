import { zeroAddress, type Address } from 'viem';
import { startAnvil, type AnvilInstance } from '@svc/testing';
import { SANDBOX_ACCOUNTS, type SandboxAccounts } from './sandbox-accounts';
import { SANDBOX_ADDRESSES } from './sandbox-addresses';
import { deploySandboxContracts } from './deploy-sandbox-contracts';
import { SANDBOX_ERC20S, sandboxExtraTokens, type ExtraTokenSymbol } from './sandbox-deployment-plan';

export const SANDBOX_CHAIN_IDS = [1, 8453, 42161] as const;
export type SandboxChainId = (typeof SANDBOX_CHAIN_IDS)[number];

export const SANDBOX_CHAIN_NAMES: Record<SandboxChainId, string> = {
  1: 'ethereum',
  8453: 'base',
  42161: 'arbitrum',
};

export interface SandboxToken {
  chainId: number;
  /** BENCHnn only for the extra tokens a sandbox deploys when asked to (`extraTokens`). */
  symbol: 'USDC' | 'USDT' | 'WETH' | 'ETH' | ExtraTokenSymbol;
  address: Address;
  decimals: number;
}

export interface SandboxContracts {
  chainId: number;
  relayDepository: Address;
  acrossSpokePool: Address;
  mayanForwarder: Address;
  /** Swift V1, kept for V1 orders built by hand; quotes name V2. */
  mayanSwift: Address;
  mayanSwiftV2: Address;
  /** The router `GET /mayan-price/get-swap/evm` names for wrap-and-lock (ETH in, WETH out). */
  mayanSwapRouter: Address;
}

export interface SandboxChains {
  /** Same shape as a CHAINS_FILE entry. */
  chains: { chainId: number; name: string; rpcUrl: string; nativeSymbol: 'ETH' }[];
  /** Per chain: USDC (6), USDT (6, TetherToken), WETH (18), ETH (native, zero address, 18), then any extras (18). */
  tokens: SandboxToken[];
  contracts: SandboxContracts[];
  accounts: SandboxAccounts;
  stop(): Promise<void>;
}

/**
 * Starts one anvil per sandbox chain (ethereum 1, base 8453, arbitrum 42161) and deploys the tokens and provider
 * contracts on each, at the same addresses everywhere (`SANDBOX_ADDRESSES`), with users and fillers funded.
 * `ports` pins a chain's RPC port; by default free ports are used. `extraTokens` (default 0) deploys that many
 * more 18-decimal test tokens per chain (BENCH01…) after everything else, so the standard addresses stay put.
 * If anything fails, the nodes are stopped.
 */
export async function startSandboxChains(
  options: { ports?: Partial<Record<number, number>>; extraTokens?: number; host?: string } = {},
): Promise<SandboxChains> {
  const extraTokens = sandboxExtraTokens(options.extraTokens ?? 0);
  const started = await Promise.allSettled(
    SANDBOX_CHAIN_IDS.map((chainId) =>
      startAnvil({ chainId, port: options.ports?.[chainId], host: options.host }),
    ),
  );
  const anvils = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(anvils.map((a) => a.stop()));
  };
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    await Promise.all(
      anvils.map((anvil) => deploySandboxContracts(anvil, { extraTokens: extraTokens.length })),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    chains: anvils.map((a) => ({
      chainId: a.chainId,
      name: SANDBOX_CHAIN_NAMES[a.chainId as SandboxChainId],
      rpcUrl: a.rpcUrl,
      nativeSymbol: 'ETH' as const,
    })),
    tokens: anvils.flatMap((a) => [
      ...sandboxTokens(a),
      ...extraTokens.map(({ symbol, address, decimals }) => ({
        chainId: a.chainId,
        symbol,
        address,
        decimals,
      })),
    ]),
    contracts: anvils.map((a) => ({
      chainId: a.chainId,
      relayDepository: SANDBOX_ADDRESSES.relayDepository,
      acrossSpokePool: SANDBOX_ADDRESSES.acrossSpokePool,
      mayanForwarder: SANDBOX_ADDRESSES.mayanForwarder,
      mayanSwift: SANDBOX_ADDRESSES.mayanSwift,
      mayanSwiftV2: SANDBOX_ADDRESSES.mayanSwiftV2,
      mayanSwapRouter: SANDBOX_ADDRESSES.mayanSwapRouter,
    })),
    accounts: SANDBOX_ACCOUNTS,
    stop,
  };
}

function sandboxTokens({ chainId }: AnvilInstance): SandboxToken[] {
  return [
    ...SANDBOX_ERC20S.map((t) => ({
      chainId,
      symbol: t.symbol,
      address: SANDBOX_ADDRESSES[t.key],
      decimals: t.decimals,
    })),
    { chainId, symbol: 'ETH', address: zeroAddress, decimals: 18 },
  ];
}
