import { type Address, decodeEventLog, getAddress, type Hex, parseAbi, toEventSelector } from 'viem';
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

/**
 * What each SpokePool deposit event of a receipt says about its own end, in log order (the order of
 * acrossDepositRefs): `fillDeadlineAt`, the event's `fillDeadline` (unix seconds, as ms): after it no relayer can
 * fill and the deposit is refunded with a later bundle (docs.across.to /introduction/refunds; frontend
 * api/_fill-deadline.ts sets it to the quote timestamp + 2 h by default); `refundToken`, the event's `inputToken`,
 * which is what a refund pays: `_distributeRelayerRefunds` transfers the refund leaf's `l2TokenAddress`, the
 * deposit's input token, so a native-input deposit (input token WETH) is refunded in WETH, not ETH
 * (across-protocol/contracts contracts/spoke-pools/SpokePool.sol, `_distributeRelayerRefunds`; provider review N7).
 * Nulls for a field the log does not decode.
 */
export function acrossDepositTerms(
  logs: readonly ReceiptLog[],
): { fillDeadlineAt: number | null; refundToken: Address | null }[] {
  const terms: { fillDeadlineAt: number | null; refundToken: Address | null }[] = [];
  for (const log of logs) {
    const topic0 = log.topics[0]?.toLowerCase();
    if (topic0 === undefined || !DEPOSIT_TOPICS.has(topic0)) continue;
    if (readDepositId(log) === null) continue;
    terms.push(readTerms(log));
  }
  return terms;
}

function readTerms(log: ReceiptLog): { fillDeadlineAt: number | null; refundToken: Address | null } {
  try {
    const { args } = decodeEventLog({
      abi: acrossSpokePoolEventsAbi,
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
    });
    const { fillDeadline, inputToken } = args as { fillDeadline?: number; inputToken?: Hex };
    return {
      fillDeadlineAt: typeof fillDeadline === 'number' && fillDeadline > 0 ? fillDeadline * 1000 : null,
      refundToken: inputToken === undefined ? null : tokenAddress(inputToken),
    };
  } catch {
    return { fillDeadlineAt: null, refundToken: null };
  }
}

/** An address, or the low 20 bytes of a bytes32 one (FundsDeposited's `inputToken`). */
function tokenAddress(value: Hex): Address | null {
  if (value.length === 42) return getAddress(value);
  if (value.length === 66 && /^0x0{24}/i.test(value)) return getAddress(`0x${value.slice(26)}`);
  return null;
}
