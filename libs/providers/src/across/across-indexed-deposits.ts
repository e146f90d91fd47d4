import { type CctpBurn, cctpSentBurns, isCctpBurnLog } from '../cctp/cctp-burn';
import { type ReceiptLog } from '../provider-adapter.port';
import { acrossDepositRefs } from './across-deposit-refs';

/**
 * CCTP's burn event, as Across's indexer decodes it (across-protocol/indexer packages/indexer/src/data-indexing/
 * model/abis.ts: TokenMessengerV2 `DepositForBurn`), and CCTP V1's (circlefin/evm-cctp-contracts
 * src/TokenMessenger.sol): cctp/cctp-events.ts. An Across leg routed over CCTP (the Swap API's `depositForBurn`,
 * frontend api/_bridges/cctp/strategy.ts) emits one of these instead of a SpokePool deposit.
 */
export { cctpBurnEventsAbi } from '../cctp/cctp-events';

/** The ref of a CCTP-routed Across deposit: `cctp:<its index on the indexer>`. */
export const CCTP_REF_PREFIX = 'cctp:';

/**
 * Every Across deposit of a source transaction, in call (log) order, as its ref: a SpokePool deposit by its
 * depositId, a CCTP burn by `cctp:<index>`, the `index` the indexer gives it. The indexer lists a transaction's
 * deposits intents first (by event id), then CCTP, then OFT (across-protocol/indexer packages/indexer-api/src/
 * services/deposits.ts `getDepositStatusByTxnRef`), so a CCTP burn's index is the number of SpokePool deposits in
 * the transaction plus its rank among the burns, whatever the call order (providers review N3: counting in call
 * order gave a CCTP leg before a SpokePool leg the other's deposit, and each leg read the other's fill).
 */
export function acrossIndexedDeposits(logs: readonly ReceiptLog[]): string[] {
  const intents = acrossDepositRefs(logs);
  const refs: string[] = [];
  let intent = 0;
  let burn = 0;
  for (const log of logs) {
    if (acrossDepositRefs([log]).length === 1) refs.push(intents[intent++]);
    else if (isCctpBurnLog(log)) refs.push(`${CCTP_REF_PREFIX}${intents.length + burn++}`);
  }
  return refs;
}

/** The indexer's index of a CCTP-routed deposit named by `ref`; null for a SpokePool deposit's ref. */
export function cctpIndexOf(ref: string | null): number | null {
  if (ref === null || !ref.startsWith(CCTP_REF_PREFIX)) return null;
  const index = Number(ref.slice(CCTP_REF_PREFIX.length));
  return Number.isInteger(index) && index >= 0 ? index : null;
}

/**
 * The CCTP burn message of each Across deposit of a source transaction, in the order of acrossIndexedDeposits: null
 * for a SpokePool deposit (its FilledRelay names it by depositId) or a burn whose message was not read.
 */
export function acrossCctpBurns(logs: readonly ReceiptLog[]): (CctpBurn | null)[] {
  const burns = cctpSentBurns(logs);
  let burn = 0;
  return acrossIndexedDeposits(logs).map((ref) =>
    cctpIndexOf(ref) === null ? null : (burns[burn++] ?? null),
  );
}
