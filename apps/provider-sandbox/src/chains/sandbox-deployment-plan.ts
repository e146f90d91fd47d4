import {
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  parseUnits,
  type Address,
  type Hex,
} from 'viem';
import {
  AcrossSpokePoolArtifact,
  MayanForwarderArtifact,
  MayanSwapRouterArtifact,
  MayanSwiftArtifact,
  MayanSwiftV2Artifact,
  MessageTransmitterV2Artifact,
  Multicall3Artifact,
  RelayDepositoryArtifact,
  TestTokenArtifact,
  TetherTokenArtifact,
  TokenMessengerV2Artifact,
  WrappedNativeArtifact,
} from '../contracts/artifacts';
import { CCTP_MESSAGE_BODY_VERSION, CCTP_MESSAGE_VERSION } from '../cctp/cctp-message';
import { SANDBOX_ACCOUNTS } from './sandbox-accounts';
import { SANDBOX_ADDRESSES, SANDBOX_DEPLOYMENT_ORDER, type SandboxDeployment } from './sandbox-addresses';

export interface PlannedTransaction {
  label: string;
  /** Absent for a deployment. */
  to?: Address;
  data: Hex;
  gas: bigint;
  /** For a deployment: where CREATE must put it. */
  expectedAddress?: Address;
}

export const SANDBOX_ERC20S = [
  { key: 'usdc', symbol: 'USDC', decimals: 6 },
  { key: 'usdt', symbol: 'USDT', decimals: 6 },
  { key: 'weth', symbol: 'WETH', decimals: 18 },
] as const;

export const USER_MINT = 1_000_000n;
export const FILLER_MINT = 10_000_000n;

/** Most extra tokens a sandbox deploys (two-digit symbols). */
export const MAX_EXTRA_TOKENS = 99;

export type ExtraTokenSymbol = `BENCH${string}`;

/**
 * An extra 18-decimal TestToken (BENCH01, BENCH02, …), deployed only when asked for (benchmarks need more distinct
 * tokens than the standard three), after the whole standard deployment so the standard addresses never move.
 */
export interface ExtraToken {
  symbol: ExtraTokenSymbol;
  name: string;
  address: Address;
  decimals: 18;
}

const MINT_RECIPIENTS = [
  ...SANDBOX_ACCOUNTS.users.map((u) => ({ address: u.address, amount: USER_MINT })),
  ...Object.values(SANDBOX_ACCOUNTS.fillers).map((f) => ({ address: f.address, amount: FILLER_MINT })),
];

/** The deployer's nonces the standard deployment uses: its deployments and mints. */
export const STANDARD_TRANSACTION_COUNT =
  SANDBOX_DEPLOYMENT_ORDER.length + SANDBOX_ERC20S.length * MINT_RECIPIENTS.length;

/** The first `count` extra tokens, at the deployer's nonces right after the standard deployment. */
export function sandboxExtraTokens(count: number): ExtraToken[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_EXTRA_TOKENS) {
    throw new RangeError(`extra tokens: must be an integer from 0 to ${MAX_EXTRA_TOKENS}, got ${count}`);
  }
  return Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(2, '0');
    return {
      symbol: `BENCH${n}`,
      name: `Bench Token ${n}`,
      address: getContractAddress({
        from: SANDBOX_ACCOUNTS.deployer.address,
        nonce: BigInt(STANDARD_TRANSACTION_COUNT + i),
      }),
      decimals: 18,
    };
  });
}

export function isExtraTokenSymbol(symbol: string): symbol is ExtraTokenSymbol {
  return /^BENCH\d{2}$/.test(symbol);
}

// Measured deployments take 210k-470k gas, a first mint about 70k. Fixed limits spare an estimate per
// transaction and keep all 36 well under anvil's 30M block gas limit.
const DEPLOY_GAS = 1_000_000n;
const MINT_GAS = 100_000n;

const DEPLOY_DATA: Record<SandboxDeployment, Hex> = {
  usdc: encodeDeployData({ ...TestTokenArtifact, args: ['USD Coin', 'USDC', 6] }),
  usdt: encodeDeployData({ ...TetherTokenArtifact }),
  // WETH9's deposit/withdraw on a mintable test token: the pool unwraps a WETH output to an EOA (S16).
  weth: encodeDeployData({ ...WrappedNativeArtifact, args: ['Wrapped Ether', 'WETH', 18] }),
  relayDepository: RelayDepositoryArtifact.bytecode,
  acrossSpokePool: encodeDeployData({ ...AcrossSpokePoolArtifact, args: [SANDBOX_ADDRESSES.weth] }),
  mayanSwift: MayanSwiftArtifact.bytecode,
  mayanForwarder: MayanForwarderArtifact.bytecode,
  mayanSwiftV2: encodeDeployData({ ...MayanSwiftV2Artifact, args: [SANDBOX_ADDRESSES.weth] }),
  mayanSwapRouter: MayanSwapRouterArtifact.bytecode,
  // The sandbox's own attester signs the CCTP messages (cctp/cctp-attestation.ts); it also collects CCTP fees.
  cctpMessageTransmitter: encodeDeployData({
    ...MessageTransmitterV2Artifact,
    args: [SANDBOX_ACCOUNTS.deployer.address, CCTP_MESSAGE_VERSION],
  }),
  cctpTokenMessenger: encodeDeployData({
    ...TokenMessengerV2Artifact,
    args: [
      SANDBOX_ADDRESSES.cctpMessageTransmitter,
      CCTP_MESSAGE_BODY_VERSION,
      SANDBOX_ADDRESSES.usdc,
      SANDBOX_ACCOUNTS.deployer.address,
    ],
  }),
  multicall3: Multicall3Artifact.bytecode,
};

/**
 * The deployer's transactions on a fresh sandbox chain, in nonce order: the twelve deployments, then the mints
 * (1,000,000 of each token to every user, 10,000,000 to every filler, in whole tokens); then, only when
 * `extraTokens` is set, the extra tokens' deployments and their mints, funded the same way.
 */
export function planSandboxDeployment(options: { extraTokens?: number } = {}): PlannedTransaction[] {
  const deployments = SANDBOX_DEPLOYMENT_ORDER.map((name): PlannedTransaction => ({
    label: `deploy ${name}`,
    data: DEPLOY_DATA[name],
    gas: DEPLOY_GAS,
    expectedAddress: SANDBOX_ADDRESSES[name],
  }));
  const mints = SANDBOX_ERC20S.flatMap((token) =>
    mintsOf({ ...token, address: SANDBOX_ADDRESSES[token.key] }),
  );
  const extras = sandboxExtraTokens(options.extraTokens ?? 0);
  const extraDeployments = extras.map((token): PlannedTransaction => ({
    label: `deploy ${token.symbol}`,
    data: encodeDeployData({ ...TestTokenArtifact, args: [token.name, token.symbol, token.decimals] }),
    gas: DEPLOY_GAS,
    expectedAddress: token.address,
  }));
  return [...deployments, ...mints, ...extraDeployments, ...extras.flatMap(mintsOf)];
}

function mintsOf(token: { symbol: string; address: Address; decimals: number }): PlannedTransaction[] {
  return MINT_RECIPIENTS.map(({ address, amount }) => ({
    label: `mint ${token.symbol} to ${address}`,
    to: token.address,
    data: encodeFunctionData({
      abi: TestTokenArtifact.abi,
      functionName: 'mint',
      args: [address, parseUnits(amount.toString(), token.decimals)],
    }),
    gas: MINT_GAS,
  }));
}
