import { createPublicClient, createWalletClient, defineChain, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** One call or transaction of a chain action, as the prepare response returns it. */
interface ReturnedCall {
  to: string;
  data: string;
  value: string;
  gas?: string | null;
}

/** The parts of a prepare response (libs/contract PrepareResponse) the wallet's part needs. */
export interface PreparedForWalletPart {
  attemptId: string;
  chainActions: {
    chainId: number;
    transactions: ReturnedCall[] | null;
    calls: ReturnedCall[] | null;
  }[];
  walletAuthorization?: {
    domain: { name: string; version: string };
    types: Record<string, readonly { name: string; type: string }[]>;
    primaryType: string;
    message: Record<string, unknown>;
  } | null;
}

/** A chain the wallet may send to: its id and the RPC URL to send through. */
export interface WalletPartChain {
  chainId: number;
  name: string;
  rpcUrl: string;
}

/** What happened, step by step, for printing. */
export type WalletPartStep =
  | { kind: 'signed'; signature: Hex }
  | {
      kind: 'transaction';
      chainId: number;
      /** 0-based position in the chain action. */
      index: number;
      count: number;
      to: string;
      hash: Hex;
      blockNumber: bigint;
      elapsedMs: number;
    };

export interface WalletPartResult {
  chainResults: { chainId: number; txHashes: Hex[] }[];
  signature: Hex;
  /** The POST /attempts/{id}/submitted body: every transaction hash per chain and the signature. */
  submittedBody: {
    chainResults: { chainId: number; txHashes: Hex[] }[];
    walletAuthorization: { signature: Hex };
  };
}

/**
 * What a user's wallet does with a prepare response: signs the walletAuthorization typed data exactly as returned,
 * then, for each chain action in the order returned, sends its transactions (or, for a `wallet_sendCalls` action, its
 * calls one after another) on that chain, each after the previous one's receipt, so approvals land before the deposit
 * that needs them. A reverted transaction stops it with an error. Used by the partner CLI's `sandbox-wallet` / `demo`
 * and by `runSandboxFlow`; the caller decides which chains and key are safe (the sandbox's).
 */
export async function doWalletPart(o: {
  prepared: PreparedForWalletPart;
  privateKey: Hex;
  chains: readonly WalletPartChain[];
  onStep?: (step: WalletPartStep) => void;
  pollingIntervalMs?: number;
  now?: () => number;
}): Promise<WalletPartResult> {
  const now = o.now ?? Date.now;
  const account = privateKeyToAccount(o.privateKey);
  if (!o.prepared.walletAuthorization) {
    throw new Error(`attempt ${o.prepared.attemptId} carries no walletAuthorization to sign`);
  }
  const signature = await account.signTypedData(o.prepared.walletAuthorization);
  o.onStep?.({ kind: 'signed', signature });

  const chainResults: WalletPartResult['chainResults'] = [];
  for (const action of o.prepared.chainActions) {
    const entry = o.chains.find((c) => c.chainId === action.chainId);
    if (!entry) throw new Error(`no RPC for chain ${action.chainId}`);
    const chain = defineChain({
      id: entry.chainId,
      name: entry.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [entry.rpcUrl] } },
    });
    const wallet = createWalletClient({ account, chain, transport: http(entry.rpcUrl) });
    const reader = createPublicClient({
      chain,
      transport: http(entry.rpcUrl),
      pollingInterval: o.pollingIntervalMs ?? 100,
    });
    const txs = action.transactions ?? action.calls ?? [];
    const txHashes: Hex[] = [];
    for (const [index, tx] of txs.entries()) {
      const started = now();
      const gas = tx.gas && BigInt(tx.gas) > 0n ? BigInt(tx.gas) : undefined;
      const hash = await wallet.sendTransaction({
        to: tx.to as Hex,
        data: tx.data as Hex,
        value: BigInt(tx.value),
        ...(gas === undefined ? {} : { gas }),
      });
      const receipt = await reader.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') {
        throw new Error(
          `transaction ${hash} (${index + 1} of ${txs.length}) on chain ${action.chainId} reverted`,
        );
      }
      txHashes.push(hash);
      o.onStep?.({
        kind: 'transaction',
        chainId: action.chainId,
        index,
        count: txs.length,
        to: tx.to,
        hash,
        blockNumber: receipt.blockNumber,
        elapsedMs: now() - started,
      });
    }
    chainResults.push({ chainId: action.chainId, txHashes });
  }
  return { chainResults, signature, submittedBody: { chainResults, walletAuthorization: { signature } } };
}
