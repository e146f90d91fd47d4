import { type Account, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { BatchExecutorArtifact, TestTokenArtifact } from '../anvil/test-contract-artifacts';
import { type SandboxDriver } from './sandbox-driver';

export interface SpamTransfer {
  token: Hex;
  to: Hex;
  amount: bigint;
}

/** Transfers per transaction: about 35 000 gas each, so a batch stays under a 16.7 M transaction gas cap (EIP-7825). */
const PER_BATCH = 250;

/**
 * Sends ERC-20 transfers from `account` as a busy or spammed wallet would have them on chain: each a real `Transfer`
 * event from the wallet, 250 to a transaction through an EIP-7702 delegation to `executor` (a BatchExecutor on that
 * chain), so 10 000 of them take 40 blocks instead of moving an automining chain's clock 10 000 blocks ahead.
 */
export async function sendTransfersInBatches(
  driver: SandboxDriver,
  account: Account,
  chainId: number,
  executor: Hex,
  transfers: SpamTransfer[],
): Promise<{ transactions: number }> {
  const wallet = driver.wallet(account, chainId);
  let transactions = 0;
  for (let i = 0; i < transfers.length; i += PER_BATCH) {
    const calls = transfers.slice(i, i + PER_BATCH).map((t) => ({
      target: t.token,
      value: 0n,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [t.to, t.amount] }),
    }));
    const authorization = await wallet.signAuthorization({
      account,
      contractAddress: executor,
      executor: 'self',
    });
    const hash = await wallet.sendTransaction({
      account,
      to: account.address,
      authorizationList: [authorization],
      gas: 15_000_000n,
      data: encodeFunctionData({
        abi: BatchExecutorArtifact.abi,
        functionName: 'executeBatch',
        args: [calls],
      }),
    });
    const receipt = await driver.reader(chainId).waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`spam batch ${transactions} reverted (${hash})`);
    transactions++;
  }
  return { transactions };
}

/** A token nobody lists (a free airdrop), deployed on `chainId` with `amount` minted to `holder`. */
export async function deploySpamToken(
  driver: SandboxDriver,
  deployer: Account,
  chainId: number,
  holder: Hex,
  amount: bigint,
): Promise<Hex> {
  const wallet = driver.wallet(deployer, chainId);
  const reader = driver.reader(chainId);
  const deployed = await wallet.deployContract({
    abi: TestTokenArtifact.abi,
    bytecode: TestTokenArtifact.bytecode,
    args: ['Free Airdrop', 'SPAM', 18],
  });
  const token = (await reader.waitForTransactionReceipt({ hash: deployed })).contractAddress!;
  const minted = await wallet.writeContract({
    address: token,
    abi: TestTokenArtifact.abi,
    functionName: 'mint',
    args: [holder, amount],
  });
  await reader.waitForTransactionReceipt({ hash: minted });
  return token;
}
