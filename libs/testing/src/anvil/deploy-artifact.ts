import { encodeDeployData, getAddress, type Abi, type Account, type Address, type Hex } from 'viem';
import type { AnvilClient } from './anvil-client';

export interface DeployArtifactParameters {
  artifact: { abi: Abi; bytecode: Hex };
  account: Account;
  /** Constructor arguments, if the contract takes any. */
  args?: readonly unknown[];
}

/** Deploys a compiled contract and resolves with its checksummed address once the deployment has succeeded. */
export async function deployArtifact(
  client: AnvilClient,
  { artifact, account, args }: DeployArtifactParameters,
): Promise<Address> {
  const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args });
  const hash = await client.sendTransaction({ account, data });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`deployment ${hash} failed (${receipt.status})`);
  }
  return getAddress(receipt.contractAddress);
}
