import { isAddressEqual, type Address, type Chain, type Client, type Hash, type Transport } from 'viem';
import { TraceUnavailableError } from '../errors/trace-unavailable-error';
import { TransactionNotMinedError } from '../errors/transaction-not-mined-error';
import { readReceipt } from './read-receipt';
import { readTransaction } from './read-transaction';
import { traceCalls, type CallFrame } from './trace-calls';

export interface ReadNativeValueReceivedParameters {
  hash: Hash;
  recipient: Address;
  /** Throw TraceUnavailableError instead of falling back when the node cannot trace (default false). */
  requireTrace?: boolean;
}

// Frames that move value to `to`. DELEGATECALL and CALLCODE report a value but move none to `to`.
const VALUE_MOVING = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT']);

/**
 * The native value (wei) `recipient` received in a mined transaction: the top-level value when the transaction
 * is sent to it, plus value sent to it by contracts during execution (a filler contract's payout, a forwarder),
 * found in the callTracer trace. Frames that reverted, and everything under them, moved nothing. A reverted
 * transaction gives 0. The sum is gross: value the recipient sent on is not subtracted.
 *
 * Fallback: when the node does not serve `debug_traceTransaction`, only the top-level value is counted, so value
 * delivered by a contract reads as 0 (an under-count, never an over-count). Pass `requireTrace` to get a
 * TraceUnavailableError instead. Throws TransactionNotMinedError when there is no receipt.
 */
export async function readNativeValueReceived(
  client: Client<Transport, Chain | undefined>,
  { hash, recipient, requireTrace = false }: ReadNativeValueReceivedParameters,
): Promise<bigint> {
  const [tx, receipt] = await Promise.all([readTransaction(client, { hash }), readReceipt(client, { hash })]);
  if (!tx || !receipt) throw new TransactionNotMinedError(hash, client.chain?.id);
  if (receipt.status !== 'success') return 0n;
  const trace = await traceCalls(client, { hash });
  if (trace) return valueTo(trace, recipient);
  if (requireTrace) throw new TraceUnavailableError(client.chain?.id);
  return tx.to && isAddressEqual(tx.to, recipient) ? tx.value : 0n;
}

function valueTo(frame: CallFrame, recipient: Address): bigint {
  if (frame.error) return 0n;
  const own =
    VALUE_MOVING.has(frame.type) && frame.to && frame.value && isAddressEqual(frame.to, recipient)
      ? BigInt(frame.value)
      : 0n;
  return (frame.calls ?? []).reduce((sum, call) => sum + valueTo(call, recipient), own);
}
