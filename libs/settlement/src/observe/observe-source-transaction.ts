import type { Address, Chain, Client, Hash, Log, Transaction, Transport } from 'viem';
import { getBlock } from 'viem/actions';
import { ChainRpcError, readAccountKind, readReceipt, readTransaction } from '@svc/chains';
import { decodeBatchedCalls } from './decode-batched-calls';
import { type ExecutedCall, matchPreparedCalls, type PreparedCall } from './match-prepared-calls';
import { WrongChainClientError } from './wrong-chain-client-error';

export interface ObserveSourceTransactionParameters {
  chainId: number;
  txHash: Hash;
  /** The account that had to send the transaction (the attempt's wallet). */
  wallet: Address;
  /** The prepared calls of this chain (pass only those not confirmed yet to tell identical calls apart). */
  preparedCalls: readonly PreparedCall[];
}

export type SourceTransactionObservation =
  /** The node does not know the hash (yet, or it was dropped): look again later. */
  | { outcome: 'unknown' }
  | { outcome: 'pending' }
  /** Not the wallet's execution of prepared calls: evidence to reject. */
  | { outcome: 'mismatched'; reason: string }
  /**
   * The wallet executed these prepared calls and the transaction reverted. minedAt: the block's time, epoch ms.
   * executed: the calls as run (the transaction's own, or its batch's), which other attempts' calls may equal too.
   */
  | { outcome: 'reverted'; callIds: string[]; blockNumber: bigint; minedAt: number; executed: ExecutedCall[] }
  /** logs: the receipt's, where the providers' deposit events tell several deposits of one transaction apart. */
  | {
      outcome: 'confirmed';
      callIds: string[];
      blockNumber: bigint;
      minedAt: number;
      logs: Log[];
      executed: ExecutedCall[];
    };

/**
 * What a reported source-chain transaction hash shows: whether the wallet sent it, which prepared calls it
 * executed and whether it succeeded. A plain transaction must equal one prepared call; an EIP-7702 account's
 * self-call may run several through a standard batch entry point (see decodeBatchedCalls), each of which must equal
 * a distinct prepared call. ERC-4337 user operations (sent by a bundler) read as sent by another account. Throws
 * ChainRpcError when the node fails (retry), WrongChainClientError when the client is for another chain.
 */
export async function observeSourceTransaction(
  client: Client<Transport, Chain | undefined>,
  { chainId, txHash, wallet, preparedCalls }: ObserveSourceTransactionParameters,
): Promise<SourceTransactionObservation> {
  if (client.chain && client.chain.id !== chainId) throw new WrongChainClientError(chainId, client.chain.id);
  const tx = await readTransaction(client, { hash: txHash });
  if (!tx) return { outcome: 'unknown' };
  if (tx.blockNumber === null) return { outcome: 'pending' };
  // Mined a moment ago, or reorganised out: look again.
  const receipt = await readReceipt(client, { hash: txHash });
  if (!receipt) return { outcome: 'pending' };

  if (tx.chainId !== undefined && tx.chainId !== chainId) {
    return { outcome: 'mismatched', reason: `signed for chain ${tx.chainId}` };
  }
  if (tx.from.toLowerCase() !== wallet.toLowerCase()) {
    return { outcome: 'mismatched', reason: 'sent by another account' };
  }
  const matched = await matchTransaction(client, tx, preparedCalls);
  if (!matched.callIds) return { outcome: 'mismatched', reason: matched.reason };
  const { blockNumber } = receipt;
  const minedAt = await readBlockTime(client, blockNumber);
  const { callIds, executed } = matched;
  return receipt.status === 'success'
    ? { outcome: 'confirmed', callIds, blockNumber, minedAt, logs: receipt.logs, executed }
    : { outcome: 'reverted', callIds, blockNumber, minedAt, executed };
}

/** The block's timestamp in epoch ms: when the transaction was mined, to tell evidence older than the attempt. */
async function readBlockTime(client: Client, blockNumber: bigint): Promise<number> {
  try {
    const block = await getBlock(client, { blockNumber });
    return Number(block.timestamp) * 1000;
  } catch (err) {
    throw new ChainRpcError(client, `eth_getBlockByNumber(${blockNumber})`, err);
  }
}

type Match = { callIds: string[]; executed: ExecutedCall[] } | { callIds: null; reason: string };

async function matchTransaction(
  client: Client,
  tx: Transaction,
  preparedCalls: readonly PreparedCall[],
): Promise<Match> {
  const single: ExecutedCall[] = [{ to: tx.to, value: tx.value, data: tx.input }];
  const plain = matchPreparedCalls(single, preparedCalls);
  if (plain) return { callIds: plain, executed: single };
  const selfCall = tx.to !== null && tx.to.toLowerCase() === tx.from.toLowerCase() && tx.input !== '0x';
  if (!selfCall) return { callIds: null, reason: 'matches no prepared call' };
  // The account's code now: an account that delegated in this very transaction shows the delegation too.
  const account = await readAccountKind(client, { address: tx.from });
  if (account.kind !== 'eip7702') return { callIds: null, reason: 'matches no prepared call' };
  const batch = decodeBatchedCalls(tx.input);
  if (!batch.supported) return { callIds: null, reason: `batched execution not understood: ${batch.reason}` };
  const callIds = matchPreparedCalls(batch.calls, preparedCalls);
  return callIds
    ? { callIds, executed: [...batch.calls] }
    : { callIds: null, reason: 'batched calls match no prepared calls' };
}
