import { zeroAddress, type Address } from 'viem';
import { createAnvilClient, startAnvil, type AnvilInstance } from '@svc/testing';
import { FeeKeeper } from '../fees/fee-keeper';
import { startFeeRpcProxy, type FeeRpcHooks } from '../fees/fee-rpc-proxy';
import { L1FeeBook } from '../fees/l1-fee-book';
import { installGasPriceOracle } from '../fees/install-gas-price-oracle';
import { sandboxFeeModel } from '../fees/sandbox-fee-models';
import { SANDBOX_ACCOUNTS, type SandboxAccounts } from './sandbox-accounts';
import { SANDBOX_ADDRESSES } from './sandbox-addresses';
import { deploySandboxContracts } from './deploy-sandbox-contracts';
import { SANDBOX_ERC20S, sandboxExtraTokens, type ExtraTokenSymbol } from './sandbox-deployment-plan';

export const SANDBOX_CHAIN_IDS = [1, 8453, 42161] as const;

/**
 * The sandbox's confirmation policy, written into its CHAINS_FILE (issue 24 item 3): a fill settles two blocks deep.
 * Its nodes mine every transaction at once and an empty block every SANDBOX_BLOCK_TIME_S, so a fill is final about
 * two seconds after it is mined, and the rule is exercised on every local flow.
 */
export const SANDBOX_CONFIRMATIONS = 2;
export const SANDBOX_BLOCK_TIME_S = 1;
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
  /** Circle's CCTP V2 pair (docs/sandbox.md "CCTP"): Across's USDC legs when the `cctp` fault routes them so. */
  cctpTokenMessenger: Address;
  cctpMessageTransmitter: Address;
  /** The Multicall3 the sandbox's CCTP finalizer batches `receiveMessage` calls through. */
  multicall3: Address;
}

export interface SandboxChains {
  /** Same shape as a CHAINS_FILE entry. */
  chains: { chainId: number; name: string; rpcUrl: string; nativeSymbol: 'ETH' }[];
  /** Per chain: USDC (6), USDT (6, TetherToken), WETH (18), ETH (native, zero address, 18), then any extras (18). */
  tokens: SandboxToken[];
  contracts: SandboxContracts[];
  accounts: SandboxAccounts;
  /** The L1 data fees charged on 8453 (docs/sandbox.md "Fees"). */
  l1Fees: L1FeeBook;
  /** Resolves once every block up to `blockNumber` on the chain has been charged its L1 data fees. */
  l1FeesCharged(chainId: number, blockNumber: bigint): Promise<void>;
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
  options: {
    ports?: Partial<Record<number, number>>;
    extraTokens?: number;
    host?: string;
    /** Seeds the base-fee walks (docs/sandbox.md "Fees"); default 1. */
    feeSeed?: number;
    log?: (line: string) => void;
  } = {},
): Promise<SandboxChains> {
  const extraTokens = sandboxExtraTokens(options.extraTokens ?? 0);
  const started = await Promise.allSettled(
    SANDBOX_CHAIN_IDS.map((chainId) => startSandboxNode(chainId, options.ports?.[chainId], options.host)),
  );
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const anvils = nodes.map((n) => n.anvil);
  const l1Fees = new L1FeeBook();
  const keepers = new Map<number, FeeKeeper>();
  const stop = async () => {
    await Promise.all([...keepers.values()].map((k) => k.stop()));
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    await Promise.all(
      anvils.map(async (anvil) => {
        await deploySandboxContracts(anvil, { extraTokens: extraTokens.length });
        const model = sandboxFeeModel(anvil.chainId)!;
        if (model.l1DataFee) await installGasPriceOracle(createAnvilClient(anvil), model.l1DataFee);
        const keeper = new FeeKeeper({
          chain: anvil,
          model,
          seed: options.feeSeed ?? 1,
          l1Fees,
          onError: (error) =>
            (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(
              `chain ${anvil.chainId}: fee keeping failed: ${String(error)}`,
            ),
        });
        keepers.set(anvil.chainId, keeper);
        await keeper.start();
      }),
    );
    // From now on a transaction reaches anvil only once the next block's base fee is the keeper's.
    nodes.forEach(
      (n) =>
        (n.hooks.send = (caps, forward, sent) => keepers.get(n.anvil.chainId)!.send(caps, forward, sent)),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    chains: nodes.map(({ anvil: a, rpcUrl }) => ({
      chainId: a.chainId,
      name: SANDBOX_CHAIN_NAMES[a.chainId as SandboxChainId],
      rpcUrl,
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
      cctpTokenMessenger: SANDBOX_ADDRESSES.cctpTokenMessenger,
      cctpMessageTransmitter: SANDBOX_ADDRESSES.cctpMessageTransmitter,
      multicall3: SANDBOX_ADDRESSES.multicall3,
    })),
    accounts: SANDBOX_ACCOUNTS,
    l1Fees,
    l1FeesCharged: (chainId, blockNumber) => keepers.get(chainId)?.charged(blockNumber) ?? Promise.resolve(),
    stop,
  };
}

/**
 * One chain: anvil on a free loopback port, behind the fee RPC (fee-rpc-proxy.ts) that answers the chain's tip, on
 * the pinned port and host when asked. The chain's RPC URL is the fee RPC's.
 */
async function startSandboxNode(
  chainId: SandboxChainId,
  port: number | undefined,
  host: string | undefined,
): Promise<{ anvil: AnvilInstance; rpcUrl: string; hooks: FeeRpcHooks; stop(): Promise<void> }> {
  const anvil = await startAnvil({ chainId, blockTime: SANDBOX_BLOCK_TIME_S, mixedMining: true });
  try {
    const hooks: FeeRpcHooks = { send: (_caps, forward) => forward() };
    const proxy = await startFeeRpcProxy({
      target: anvil.rpcUrl,
      tip: sandboxFeeModel(chainId)!.tip,
      port,
      host,
      hooks,
    });
    return {
      anvil,
      rpcUrl: proxy.url,
      hooks,
      stop: async () => {
        await proxy.close();
        await anvil.stop();
      },
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
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
