import { decodeEventLog, type Hex, parseAbi, toEventSelector } from 'viem';
import { type ReceiptLog } from '../provider-adapter.port';

/**
 * The SpokePool deposit events, copied from across-protocol/contracts
 * contracts/interfaces/V3SpokePoolInterface.sol (8ab07306, 2026-06-11):
 * - `FundsDeposited`, what every current SpokePool emits (bytes32 addresses, uint256 depositId);
 * - `V3FundsDeposited`, the legacy event ("unused, but included in the ABI for ease of migration"), which the
 *   Across docs' own deposit-id example still decodes (docs.across.to /introduction/tracking-deposits) and our
 *   sandbox's SpokePool still emits (apps/provider-sandbox/contracts/AcrossSpokePool.sol).
 * In both, `depositId` is the second indexed field: topics[2].
 */
export const acrossSpokePoolEventsAbi = parseAbi([
  'event FundsDeposited(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint256 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 indexed depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes message)',
  'event V3FundsDeposited(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint32 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, address indexed depositor, address recipient, address exclusiveRelayer, bytes message)',
]);

const DEPOSIT_TOPICS: ReadonlySet<string> = new Set(
  acrossSpokePoolEventsAbi.map((event) => toEventSelector(event).toLowerCase()),
);

/**
 * The `depositId` (base 10) of every SpokePool deposit event in a receipt's logs, in log order. It is what
 * `/deposit/status?originChainId=&depositId=` takes. Logs of other events are skipped; so is a deposit log
 * whose indexed fields are missing (not a SpokePool's).
 */
export function acrossDepositRefs(logs: readonly ReceiptLog[]): string[] {
  const refs: string[] = [];
  for (const log of logs) {
    const topic0 = log.topics[0]?.toLowerCase();
    if (topic0 === undefined || !DEPOSIT_TOPICS.has(topic0)) continue;
    const depositId = readDepositId(log);
    if (depositId !== null) refs.push(depositId.toString(10));
  }
  return refs;
}

function readDepositId(log: ReceiptLog): bigint | null {
  try {
    const { args } = decodeEventLog({
      abi: acrossSpokePoolEventsAbi,
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
      // The depositId is in the topics: a log whose data does not decode still names its deposit.
      strict: false,
    });
    const depositId = (args as { depositId?: bigint | number } | undefined)?.depositId;
    return depositId === undefined ? null : BigInt(depositId);
  } catch {
    return null;
  }
}
