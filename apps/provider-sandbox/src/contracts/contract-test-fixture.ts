import { parseEventLogs, type Abi, type Hash, type TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createAnvilClient, startAnvil, type AnvilClient, type AnvilInstance } from '@svc/testing';
import { deploySandboxContracts } from '../chains/deploy-sandbox-contracts';
import { SANDBOX_ACCOUNTS } from '../chains/sandbox-accounts';

export interface ContractTestFixture {
  anvil: AnvilInstance;
  client: AnvilClient;
  user: ReturnType<typeof privateKeyToAccount>;
  /** Waits for the receipt and fails unless the transaction succeeded. */
  mined(hash: Hash): Promise<TransactionReceipt>;
  /** The decoded events of a receipt. */
  events<const abi extends Abi>(
    abi: abi,
    receipt: TransactionReceipt,
  ): ReturnType<typeof parseEventLogs<abi>>;
}

/** Test helper: one anvil with the sandbox deployment (as on every sandbox chain) and the first user's account. */
export async function startContractTestChain(chainId = 8453): Promise<ContractTestFixture> {
  const anvil = await startAnvil({ chainId });
  await deploySandboxContracts(anvil);
  const client = createAnvilClient(anvil);
  return {
    anvil,
    client,
    user: privateKeyToAccount(SANDBOX_ACCOUNTS.users[0].privateKey),
    async mined(hash) {
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`${hash} reverted`);
      return receipt;
    },
    events: (abi, receipt) => parseEventLogs({ abi, logs: receipt.logs }),
  };
}
