import {
  zeroAddress,
  type Address,
  type Chain,
  type Client,
  type Hash,
  type Transaction,
  type Transport,
} from 'viem';
import {
  TraceUnavailableError,
  TransactionNotMinedError,
  readErc20Transfers,
  readNativeValueReceived,
  readReceipt,
  readTransaction,
} from '@svc/chains';

export interface ReadSettledAmountParameters {
  /** The provider's fill (or payout) transaction on the destination chain. */
  fillTxHash: Hash;
  recipient: Address;
  /** The output token; the zero address for the native currency. */
  token: Address;
}

/**
 * - `not_found`: the node does not know the hash (it may lag behind the provider, or the hash is wrong);
 * - `not_mined`: pending, or reorganised out;
 * - `reverted`: the fill transaction failed;
 * - `untraceable`: native value reached the recipient through a contract and the node cannot trace calls.
 */
export type UnreadableReason = 'not_found' | 'not_mined' | 'reverted' | 'untraceable';

export type SettledAmount =
  | {
      basis: 'exact';
      amount: bigint;
      /** Set when the delivery is in another token than the one asked: the native currency for a WETH target. */
      deliveredToken?: Address;
    }
  | { basis: 'unreadable'; reason: UnreadableReason };

/**
 * The amount the recipient received in a fill transaction, read from the chain: the sum of the token's Transfer
 * events to the recipient, or for the native currency the value sent to it, top-level and by contracts (traced).
 * Gross: what the recipient sent on in the same transaction is not subtracted. Exact 0 means nothing arrived. When
 * the chain cannot tell, the amount is unreadable and the caller falls back to the provider's figure. Throws
 * ChainRpcError when the node fails: a reason to retry, not to fall back.
 */
export async function readSettledAmount(
  client: Client<Transport, Chain | undefined>,
  { fillTxHash: hash, recipient, token }: ReadSettledAmountParameters,
): Promise<SettledAmount> {
  const [tx, receipt] = await Promise.all([readTransaction(client, { hash }), readReceipt(client, { hash })]);
  if (!tx) return unreadable('not_found');
  if (!receipt) return unreadable('not_mined');
  if (receipt.status !== 'success') return unreadable('reverted');
  try {
    if (token.toLowerCase() === zeroAddress) return await readNative(client, tx, recipient);
    const transfers = await readErc20Transfers(client, { hash, token, to: recipient });
    return exact(transfers.reduce((sum, transfer) => sum + transfer.value, 0n));
  } catch (err) {
    // The receipt went away between two reads: a reorganisation.
    if (err instanceof TransactionNotMinedError) return unreadable('not_mined');
    throw err;
  }
}

/** The native value `recipient` received in a mined, successful transaction: traced, else what the transaction says. */
export async function readNative(
  client: Client,
  tx: Transaction,
  recipient: Address,
): Promise<SettledAmount> {
  try {
    return exact(await readNativeValueReceived(client, { hash: tx.hash, recipient, requireTrace: true }));
  } catch (err) {
    if (!(err instanceof TraceUnavailableError)) throw err;
    return readNativeUntraced(tx, recipient);
  }
}

/**
 * Native value without a trace: only what the transaction itself says is certain. A transaction sent to the
 * recipient delivers its top-level value whatever its calldata: Relay's direct native fill carries the order id as
 * calldata, and Relay's own oracle counts `tx.value` when `tx.to == recipient && input.startsWith(orderId)`
 * (relayprotocol/relay-protocol-oracle src/services/attestation/vm/ethereum-vm/index.ts `getSolverPaidAmount`).
 * A zero-value call to the recipient with calldata runs its code, which could pay it: that, and value a filler
 * contract pays out by an internal call (Across's SpokePool `sendValue`, Mayan's `payEth`), reads 0 in the receipt,
 * so it is `untraceable`, never a 0 that would reject the fill.
 */
function readNativeUntraced(tx: Transaction, recipient: Address): SettledAmount {
  const toRecipient = tx.to?.toLowerCase() === recipient.toLowerCase();
  if (toRecipient && (tx.value > 0n || tx.input === '0x')) return exact(tx.value);
  return unreadable('untraceable');
}

function exact(amount: bigint): SettledAmount {
  return { basis: 'exact', amount };
}

function unreadable(reason: UnreadableReason): SettledAmount {
  return { basis: 'unreadable', reason };
}
