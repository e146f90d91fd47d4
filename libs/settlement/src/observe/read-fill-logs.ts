import { readReceipt, readTransaction } from '@svc/chains';
import { type TokenTransferLog } from '@svc/domain';
import { type FillReceiptLog } from '@svc/providers';
import {
  type Address,
  type Chain,
  type Client,
  type Hash,
  type Hex,
  hexToBigInt,
  toEventSelector,
  type Transport,
} from 'viem';
import { type UnreadableReason } from './read-settled-amount';

const TRANSFER_TOPIC = toEventSelector(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/** A mined, successful fill transaction: its calldata and its receipt's logs, the inputs of a fill attribution. */
export interface FillLogs {
  tx: { to: Address | null; input: Hex; value: bigint };
  logs: FillReceiptLog[];
}

/**
 * The fill transaction and its receipt's logs, or why they cannot be read (`not_found`: the node does not know
 * the hash; `not_mined`: pending or reorganised out; `reverted`). Throws ChainRpcError when the node fails.
 */
export async function readFillLogs(
  client: Client<Transport, Chain | undefined>,
  hash: Hash,
): Promise<{ basis: 'exact'; fill: FillLogs } | { basis: 'unreadable'; reason: UnreadableReason }> {
  const [tx, receipt] = await Promise.all([readTransaction(client, { hash }), readReceipt(client, { hash })]);
  if (!tx) return { basis: 'unreadable', reason: 'not_found' };
  if (!receipt) return { basis: 'unreadable', reason: 'not_mined' };
  if (receipt.status !== 'success') return { basis: 'unreadable', reason: 'reverted' };
  return {
    basis: 'exact',
    fill: {
      tx: { to: tx.to ?? null, input: tx.input, value: tx.value },
      logs: receipt.logs.map((log) => ({
        address: log.address,
        topics: log.topics,
        data: log.data,
        logIndex: log.logIndex,
      })),
    },
  };
}

/** The `token`'s ERC-20 Transfer logs in a receipt, in log order (a log of another contract or shape is skipped). */
export function tokenTransfers(logs: readonly FillReceiptLog[], token: string): TokenTransferLog[] {
  const address = token.toLowerCase();
  const transfers: TokenTransferLog[] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== address || log.topics.length !== 3) continue;
    if (log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC || log.data.length !== 66) continue;
    transfers.push({
      to: `0x${log.topics[2].slice(-40)}`,
      amount: hexToBigInt(log.data).toString(),
      logIndex: log.logIndex,
    });
  }
  return transfers;
}
