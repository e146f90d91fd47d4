import { decodeEventLog, type Hex, parseAbi, toEventSelector } from 'viem';
import { emittedByAny, type FillRecord, type FillRecordQuery } from '../fill-record';

/**
 * The Swift contracts' `OrderFulfilled(bytes32 key, uint64 sequence, uint256 netAmount)`, nothing indexed: identical
 * in mayan-finance/swap-sdk src/evm/MayanSwiftArtifact.ts (V1) and src/evm/MayanSwiftV2Artifact.ts (V2), cd5a34ca.
 * The destination Swift contract emits it when a driver fulfils the order whose key it names.
 */
export const mayanOrderFulfilledAbi = parseAbi([
  'event OrderFulfilled(bytes32 key, uint64 sequence, uint256 netAmount)',
]);

const TOPIC = toEventSelector(mayanOrderFulfilledAbi[0]).toLowerCase();

/** The claim key of a Swift order. */
export const mayanDepositKey = (orderKey: string) => `mayan-${orderKey.toLowerCase()}`;

/**
 * This order's fill in a Mayan fill transaction, found by its order key among the `OrderFulfilled` records the
 * provider's Swift contracts (`emitters`) emitted. The record's third field is what the order paid its destination
 * address, in the output token's base units (18 decimals for native), and it is emitted after that payment, in the
 * same call (mayan-finance/swap-bridge):
 * - V1 `src/MayanSwift.sol` `fulfillOrder`/`fulfillSimple`: `netAmount = makePayments(...)`, which pays the referrer
 *   and the protocol fee first and then `safeTransfer(destAddr, netAmount)` (or `payViaCall` for native), then
 *   `emit OrderFulfilled(key, sequence, netAmount)`;
 * - V2 `src/swift/SwiftDest.sol` (f0f146d): `makePayments` pays `fulfillAmount` whole to `destAddr`
 *   (`safeTransfer`/`payEth`), then `emit OrderFulfilled(orderHash, sequence, fulfillAmount)`.
 * So the leg's amount is the record's, and its payment sits in the logs after the previous Swift record and up to
 * this one: a transaction fulfilling several orders gives each its own span, and the target token's transfers to the
 * recipient in that span must cover the amount (attributeFill). A native payout emits no Transfer: the native read
 * checks the value against the record's amount. A transaction fulfilling only other orders is `other_deposits`.
 */
export function mayanFillRecord(query: FillRecordQuery): FillRecord {
  const records = fulfilledRecords(query);
  if (records.length === 0) return { kind: 'none' };
  const ref = query.deposit?.ref?.toLowerCase() ?? null;
  const at = ref === null ? -1 : records.findIndex((r) => r.key === ref);
  if (at < 0) return { kind: 'other_deposits' };
  const { recipient, token } = query;
  if (recipient === undefined || token === undefined) return { kind: 'none' };
  const record = records[at];
  return {
    kind: 'found',
    depositKey: mayanDepositKey(record.key),
    amount: record.netAmount,
    recipient,
    token,
    fromLogIndex: at === 0 ? 0 : records[at - 1].logIndex + 1,
    toLogIndex: record.logIndex + 1,
  };
}

/** The Swift records of the transaction, in log order. */
function fulfilledRecords(query: FillRecordQuery): { key: string; netAmount: bigint; logIndex: number }[] {
  const records: { key: string; netAmount: bigint; logIndex: number }[] = [];
  for (const log of query.logs) {
    if (log.topics[0]?.toLowerCase() !== TOPIC || !emittedByAny(log, query.emitters)) continue;
    try {
      const { args } = decodeEventLog({
        abi: mayanOrderFulfilledAbi,
        topics: log.topics as [Hex, ...Hex[]],
        data: log.data,
      });
      records.push({ key: args.key.toLowerCase(), netAmount: args.netAmount, logIndex: log.logIndex });
    } catch {
      // Not a Swift record.
    }
  }
  return records;
}
