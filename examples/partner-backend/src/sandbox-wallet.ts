import { readFileSync } from 'node:fs';
import { createPublicClient, createWalletClient, defineChain, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type PreparedAttempt, type WalletResult } from './wallet-types';

/** The parts of the provider sandbox's manifest (`.sandbox/manifest.json`, written by `npm start`) used here. */
interface SandboxManifest {
  chains: { chainId: number; name: string; rpcUrl: string }[];
  wallets: { users: { address: string; privateKey: string }[] };
}

/**
 * SANDBOX ONLY: plays the user's wallet with one of anvil's funded development accounts (the manifest's
 * `wallets.users[userIndex]`, `SANDBOX_USER`), on the sandbox's local chains.
 *
 * In production this code does not exist on your backend. Your frontend hands `chainActions` and
 * `walletAuthorization` to the user's wallet (e.g. with viem or wagmi in the browser), which:
 *   1. sends each chain action's transactions, in order, on its chain (eth_sendTransaction), and
 *   2. signs the EIP-712 authorization (eth_signTypedData_v4);
 * then the frontend posts the hashes and the signature to POST /orders/{attemptId}/submitted.
 * A private key never reaches a partner's backend.
 */
export function sandboxWallet(
  manifestPath: string,
  userIndex = 0,
): {
  pay: (prepared: PreparedAttempt) => Promise<WalletResult>;
} {
  return {
    async pay(prepared) {
      // Read at each payment: `npm start` rewrites the manifest (new ports) every time it starts.
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as SandboxManifest;
      const user = manifest.wallets.users[userIndex];
      if (!user) throw new Error(`${manifestPath} names no funded sandbox wallet ${userIndex}`);
      const account = privateKeyToAccount(user.privateKey as Hex);
      const chainResults: WalletResult['chainResults'] = [];
      for (const action of prepared.chainActions) {
        const entry = manifest.chains.find((c) => c.chainId === action.chainId);
        if (!entry) throw new Error(`chain ${action.chainId} is not a sandbox chain`);
        if (!action.transactions) throw new Error('this demo wallet sends plain transactions only');
        const chain = defineChain({
          id: entry.chainId,
          name: entry.name,
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: { default: { http: [entry.rpcUrl] } },
        });
        const wallet = createWalletClient({ account, chain, transport: http(entry.rpcUrl) });
        const reader = createPublicClient({ chain, transport: http(entry.rpcUrl), pollingInterval: 50 });
        const txHashes: string[] = [];
        // Step 1: the chain actions, in order, each transaction mined before the next is sent.
        for (const tx of action.transactions) {
          const hash = await wallet.sendTransaction({
            to: tx.to as Hex,
            data: tx.data as Hex,
            value: BigInt(tx.value),
          });
          await reader.waitForTransactionReceipt({ hash });
          txHashes.push(hash);
        }
        chainResults.push({ chainId: action.chainId, txHashes });
      }
      // Step 2: the EIP-712 authorization, exactly as the service returned it.
      const signature = await account.signTypedData(prepared.walletAuthorization);
      return { chainResults, signature };
    },
  };
}
