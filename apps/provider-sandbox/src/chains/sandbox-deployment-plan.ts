import { encodeDeployData, encodeFunctionData, parseUnits, type Address, type Hex } from 'viem';
import {
  AcrossSpokePoolArtifact,
  MayanForwarderArtifact,
  MayanSwiftArtifact,
  RelayDepositoryArtifact,
  TestTokenArtifact,
  TetherTokenArtifact,
} from '../contracts/artifacts';
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

// Measured deployments take 210k-470k gas, a first mint about 70k. Fixed limits spare an estimate per
// transaction and keep all 34 well under anvil's 30M block gas limit.
const DEPLOY_GAS = 1_000_000n;
const MINT_GAS = 100_000n;

const DEPLOY_DATA: Record<SandboxDeployment, Hex> = {
  usdc: encodeDeployData({ ...TestTokenArtifact, args: ['USD Coin', 'USDC', 6] }),
  usdt: encodeDeployData({ ...TetherTokenArtifact }),
  weth: encodeDeployData({ ...TestTokenArtifact, args: ['Wrapped Ether', 'WETH', 18] }),
  relayDepository: RelayDepositoryArtifact.bytecode,
  acrossSpokePool: encodeDeployData({ ...AcrossSpokePoolArtifact, args: [SANDBOX_ADDRESSES.weth] }),
  mayanSwift: MayanSwiftArtifact.bytecode,
  mayanForwarder: MayanForwarderArtifact.bytecode,
};

/**
 * The deployer's transactions on a fresh sandbox chain, in nonce order: the seven deployments, then the mints
 * (1,000,000 of each token to every user, 10,000,000 to every filler, in whole tokens).
 */
export function planSandboxDeployment(): PlannedTransaction[] {
  const deployments = SANDBOX_DEPLOYMENT_ORDER.map((name): PlannedTransaction => ({
    label: `deploy ${name}`,
    data: DEPLOY_DATA[name],
    gas: DEPLOY_GAS,
    expectedAddress: SANDBOX_ADDRESSES[name],
  }));
  const recipients = [
    ...SANDBOX_ACCOUNTS.users.map((u) => ({ address: u.address, amount: USER_MINT })),
    ...Object.values(SANDBOX_ACCOUNTS.fillers).map((f) => ({ address: f.address, amount: FILLER_MINT })),
  ];
  const mints = SANDBOX_ERC20S.flatMap((token) =>
    recipients.map(({ address, amount }): PlannedTransaction => ({
      label: `mint ${token.symbol} to ${address}`,
      to: SANDBOX_ADDRESSES[token.key],
      data: encodeFunctionData({
        abi: TestTokenArtifact.abi,
        functionName: 'mint',
        args: [address, parseUnits(amount.toString(), token.decimals)],
      }),
      gas: MINT_GAS,
    })),
  );
  return [...deployments, ...mints];
}
