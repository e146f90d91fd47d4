import { type Address, type Hex } from 'viem';
import { type DepositSelector, type ReceiptLog } from './provider-adapter.port';

/** A log of a fill transaction's receipt with its position in the block (the span of a record is in these). */
export interface FillReceiptLog extends ReceiptLog {
  logIndex: number;
}

/** What an adapter is given to find one deposit's fill record in a fill transaction. */
export interface FillRecordQuery {
  /** The chain of the fill transaction (the leg's destination chain). */
  chainId: number;
  /** The fill transaction's receipt logs, in log order. */
  logs: readonly FillReceiptLog[];
  /** The fill transaction itself (Relay's order id rides in its calldata). */
  tx: { to: Address | null; input: Hex; value: bigint };
  /** This leg's deposit in its source transaction (its `ref` is the provider's id read from the source receipt). */
  deposit: DepositSelector | null;
  /** The leg's recipient and target token (the zero address for native), for a record that states no amount. */
  recipient?: Address;
  token?: Address;
  /**
   * The provider's contracts on the fill's chain (the calldata allowlist's targets there): a record emitted by any
   * other contract is not the provider's (providers review N12). Undefined: not checked (tests of the decoders).
   */
  emitters?: readonly Address[];
}

/** A deposit's fill record: its identity (the claim key), what it states, and the logs that hold its delivery. */
export interface FoundFillRecord {
  depositKey: string;
  amount: bigint;
  recipient: Address;
  token: Address;
  fromLogIndex: number;
  toLogIndex: number;
}

/**
 * One deposit's fill record as the provider's own contract wrote it (see `FillRecordFinding` in libs/domain,
 * which this maps onto): the deposit's identity (the claim key), the amount and recipient it states, and the logs
 * `[fromLogIndex, toLogIndex)` that hold its delivery. `interchangeable`: other records of the transaction that
 * nothing on chain tells apart from this one for this leg (CCTP V2 messages of one content: the same wallet burnt
 * the same amount to the same recipient in two source transactions); the leg's delivery is whichever of them, this
 * one first, no other leg has claimed.
 */
export type FillRecord =
  | ({ kind: 'found'; interchangeable?: readonly FoundFillRecord[] } & FoundFillRecord)
  /** `reason`: why none can be said to be this deposit's, when it is not simply that they name others (CCTP). */
  | { kind: 'other_deposits'; reason?: string }
  | { kind: 'none' };

/** Whether a log was emitted by one of `emitters` (all pass when the list is not given). */
export function emittedByAny(log: ReceiptLog, emitters: readonly Address[] | undefined): boolean {
  if (emitters === undefined) return true;
  const address = log.address.toLowerCase();
  return emitters.some((e) => e.toLowerCase() === address);
}

/** The log index one past the transaction's last log: the end of the last record's span. */
export function endOfLogs(logs: readonly FillReceiptLog[]): number {
  return logs.reduce((end, log) => Math.max(end, log.logIndex + 1), 0);
}

/** The last 20 bytes of a bytes32 address (Across's and CCTP's bytes32 recipients). */
export function bytes32ToAddress(value: Hex): Address {
  return `0x${value.slice(-40)}`;
}
