import { getAbiItem } from 'viem';
import { AcrossSpokePoolArtifact, MayanSwiftArtifact, RelayDepositoryArtifact } from '../contracts/artifacts';

/** The deposit events of the three providers' sandbox contracts, fetched in one getLogs per poll. */
export const DEPOSIT_EVENTS = [
  getAbiItem({ abi: RelayDepositoryArtifact.abi, name: 'RelayErc20Deposit' }),
  getAbiItem({ abi: RelayDepositoryArtifact.abi, name: 'RelayNativeDeposit' }),
  getAbiItem({ abi: AcrossSpokePoolArtifact.abi, name: 'V3FundsDeposited' }),
  getAbiItem({ abi: MayanSwiftArtifact.abi, name: 'OrderCreated' }),
] as const;
