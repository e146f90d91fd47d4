import { type SandboxChains } from '../chains/start-sandbox-chains';
import { type ProviderFault } from '../faults/provider-fault';
import { sandboxFeeModel, type SandboxFeeModel } from '../fees/sandbox-fee-models';
import { SANDBOX_MAYAN_API_KEY } from '../mayan/mayan-explorer-key';
import { QUOTE_SCENARIOS } from '../scenarios/quote-scenarios';
import { SANDBOX_SCENARIOS } from '../scenarios/sandbox-scenarios';
import { type SandboxFeeManifest, type SandboxManifest } from './sandbox-manifest';

/** Any value works: the sandbox accepts every key on /requests/v3, but the service must send one. */
const RELAY_API_KEY = 'sandbox';

export function buildManifest(params: {
  url: string;
  chains: SandboxChains;
  faults: ProviderFault[];
  files: { manifest: string; chains: string } | null;
  startedAt: Date;
  startupMs: number;
  /** Host name for the chains' RPC URLs as others see them; default: the loopback URLs the sandbox uses itself. */
  publicHost?: string;
  failureHoldMs: number;
}): SandboxManifest {
  const { url, chains } = params;
  // The deployer creates the contracts at the same nonces on every chain, so one forwarder address serves all.
  const forwarderAddress = chains.contracts[0].mayanForwarder;
  const providers = {
    relay: { baseUrl: `${url}/relay` },
    across: { baseUrl: `${url}/across` },
    mayan: { priceUrl: `${url}/mayan-price`, explorerUrl: `${url}/mayan-explorer`, forwarderAddress },
  };
  const { fillers } = chains.accounts;
  return {
    startedAt: params.startedAt.toISOString(),
    startupMs: params.startupMs,
    url,
    chains: chains.chains.map((c) => ({ ...c, rpcUrl: publicRpcUrl(c.rpcUrl, params.publicHost) })),
    tokens: chains.tokens,
    contracts: chains.contracts,
    wallets: {
      users: chains.accounts.users.map(({ address, privateKey }) => ({ address, privateKey })),
      fillers: {
        relay: { address: fillers.relay.address },
        across: { address: fillers.across.address },
        mayan: { address: fillers.mayan.address },
      },
    },
    providers,
    fees: chains.chains.flatMap((c) => {
      const model = sandboxFeeModel(c.chainId);
      return model ? [feeManifest(model)] : [];
    }),
    faults: params.faults,
    scenarios: {
      failureHoldMs: params.failureHoldMs,
      // As text, like every base-unit amount the sandbox serves.
      suffixes: Object.fromEntries(SANDBOX_SCENARIOS.map((s) => [s.scenario, s.suffix.toString()])),
      quoteSuffixes: Object.fromEntries(QUOTE_SCENARIOS.map((s) => [s.scenario, s.suffix.toString()])),
    },
    files: params.files,
    env: {
      ...(params.files ? { CHAINS_FILE: params.files.chains } : {}),
      RELAY_BASE_URL: providers.relay.baseUrl,
      RELAY_API_KEY,
      ACROSS_BASE_URL: providers.across.baseUrl,
      MAYAN_PRICE_URL: providers.mayan.priceUrl,
      MAYAN_EXPLORER_URL: providers.mayan.explorerUrl,
      // The only key the sandbox's explorer answers (mayan-explorer-key.ts): a client that polls without it fails.
      MAYAN_API_KEY: SANDBOX_MAYAN_API_KEY,
      MAYAN_FORWARDER_ADDRESS: forwarderAddress,
      // Every variable `npm run service` needs to boot against the sandbox: the app fee goes to the sandbox's deployer
      // (anvil's dev account 9; a public development account, which NODE_ENV=production refuses).
      SERVICE_FEE_RECIPIENT: chains.accounts.deployer.address,
      // The service refuses calls to anything but a provider's own contracts: here, the sandbox's.
      ...contractAllowlists(chains.contracts),
      // The sandbox's across indexer answers at once (the real one runs on a 10 s cadence), and its relay failures
      // turn into refunds after SANDBOX_FAILURE_HOLD_MS: the service may poll and wait accordingly.
      ACROSS_MIN_POLL_INTERVAL_MS: '1000',
      RELAY_FAILURE_GRACE_MS: String(Math.max(10_000, params.failureHoldMs * 3)),
    },
  };
}

/**
 * RELAY_CONTRACTS, ACROSS_CONTRACTS and MAYAN_CONTRACTS: per chain, the contract each simulator uses as the call
 * target and the approval spender.
 */
function contractAllowlists(contracts: SandboxChains['contracts']): Record<string, string> {
  const perChain = (pick: (c: SandboxChains['contracts'][number]) => string[]) =>
    JSON.stringify(
      Object.fromEntries(contracts.map((c) => [c.chainId, { targets: pick(c), spenders: pick(c) }])),
    );
  return {
    RELAY_CONTRACTS: perChain((c) => [c.relayDepository]),
    // Across's USDC legs may go over CCTP (the `cctp` fault): their swapTx calls TokenMessengerV2, as on mainnet
    // (libs/providers/src/vouch/across-contracts.ts lists Circle's beside each SpokePool).
    ACROSS_CONTRACTS: perChain((c) => [c.acrossSpokePool, c.cctpTokenMessenger]),
    MAYAN_CONTRACTS: perChain((c) => [c.mayanForwarder]),
  };
}

/** The anvil URL (`http://127.0.0.1:<port>`) with the host others reach the sandbox by. */
export function publicRpcUrl(rpcUrl: string, publicHost: string | undefined): string {
  if (!publicHost) return rpcUrl;
  const url = new URL(rpcUrl);
  url.hostname = publicHost;
  return url.toString().replace(/\/$/, '');
}

function feeManifest({ chainId, baseFee, tip, l1DataFee }: SandboxFeeModel): SandboxFeeManifest {
  return {
    chainId,
    baseFee: { min: baseFee.min.toString(), max: baseFee.max.toString(), start: baseFee.start.toString() },
    tip: tip.toString(),
    l1DataFee: l1DataFee && {
      oracle: l1DataFee.oracle,
      vault: l1DataFee.vault,
      formula: l1DataFee.formula,
      l1BaseFee: l1DataFee.l1BaseFee.toString(),
      blobBaseFee: l1DataFee.blobBaseFee.toString(),
      baseFeeScalar: l1DataFee.baseFeeScalar.toString(),
      blobBaseFeeScalar: l1DataFee.blobBaseFeeScalar.toString(),
    },
  };
}
