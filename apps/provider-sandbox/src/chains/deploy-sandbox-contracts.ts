import {
  createPublicClient,
  http,
  isAddressEqual,
  parseGwei,
  TransactionReceiptNotFoundError,
  type Hash,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { setTimeout as delay } from 'node:timers/promises';
import { SANDBOX_ACCOUNTS } from './sandbox-accounts';
import { SANDBOX_ADDRESSES } from './sandbox-addresses';
import { planSandboxDeployment } from './sandbox-deployment-plan';

export class SandboxDeploymentError extends Error {
  override readonly name = 'SandboxDeploymentError' as const;
}

const RECEIPT_TIMEOUT_MS = 15_000;

/**
 * Runs the deployment plan on a fresh automining chain: every transaction is signed locally with explicit nonce,
 * gas and fees (no estimate or nonce round trips), sent without waiting for receipts, then every receipt is
 * checked (success, and each contract at its expected address).
 */
export async function deploySandboxContracts(
  chain: { chainId: number; rpcUrl: string },
  options: { extraTokens?: number } = {},
): Promise<void> {
  const client = createPublicClient({ transport: http(chain.rpcUrl) });
  const deployer = privateKeyToAccount(SANDBOX_ACCOUNTS.deployer.privateKey);
  const plan = planSandboxDeployment(options);
  const signed = await Promise.all(
    plan.map((tx, nonce) =>
      deployer.signTransaction({
        type: 'eip1559',
        chainId: chain.chainId,
        nonce,
        gas: tx.gas,
        // anvil starts at a 1 gwei base fee, and blocks this empty only lower it.
        maxFeePerGas: parseGwei('10'),
        maxPriorityFeePerGas: parseGwei('1'),
        to: tx.to,
        data: tx.data,
      }),
    ),
  );
  // One at a time, in nonce order, without waiting for receipts: anvil handles a batch's requests concurrently,
  // and a transaction that arrives before its predecessor can be left pending by automine.
  const hashes: Hash[] = [];
  for (const raw of signed) hashes.push(await client.sendRawTransaction({ serializedTransaction: raw }));
  const receipts = await waitForReceipts(client, hashes);
  receipts.forEach((receipt, i) => {
    const { label, expectedAddress } = plan[i];
    if (receipt.status !== 'success') {
      throw new SandboxDeploymentError(
        `chain ${chain.chainId}: ${label} reverted (${receipt.transactionHash})`,
      );
    }
    if (
      expectedAddress &&
      !(receipt.contractAddress && isAddressEqual(receipt.contractAddress, expectedAddress))
    ) {
      throw new SandboxDeploymentError(
        `chain ${chain.chainId}: ${label} landed at ${receipt.contractAddress}, not ${expectedAddress} ` +
          `(was the deployer's nonce not 0?)`,
      );
    }
  });
  // The sandbox WETH is minted without ETH behind it; the ETH a withdraw pays out (the pool unwrapping a WETH output
  // for an EOA, S16) comes from this balance, set on the chain, not by a transaction (the deployer's nonces stay put).
  await client.request({
    method: 'anvil_setBalance',
    params: [SANDBOX_ADDRESSES.weth, `0x${WETH_ETH_BACKING.toString(16)}`],
  } as never);
}

/** 10^9 ETH: more than all the WETH the sandbox mints (10^7 per filler, 10^6 per user, per chain). */
const WETH_ETH_BACKING = 10n ** 27n;

async function waitForReceipts(client: PublicClient, hashes: Hash[]): Promise<TransactionReceipt[]> {
  const receipts: (TransactionReceipt | null)[] = hashes.map(() => null);
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
  for (;;) {
    await Promise.all(
      hashes.map(async (hash, i) => {
        if (receipts[i]) return;
        receipts[i] = await client.getTransactionReceipt({ hash }).catch((err: unknown) => {
          if (err instanceof TransactionReceiptNotFoundError) return null;
          throw err;
        });
      }),
    );
    if (receipts.every((r) => r !== null)) return receipts;
    if (Date.now() > deadline) {
      throw new SandboxDeploymentError(`${receipts.filter((r) => !r).length} transactions not mined in time`);
    }
    await delay(5);
  }
}
