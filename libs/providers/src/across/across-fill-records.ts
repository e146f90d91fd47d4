import { type Address, decodeEventLog, type Hex, parseAbi, toEventSelector } from 'viem';
import {
  bytes32ToAddress,
  emittedByAny,
  endOfLogs,
  type FillReceiptLog,
  type FillRecord,
  type FillRecordQuery,
} from '../fill-record';
import { cctpFillRecord } from '../cctp/cctp-fill-record';
import { cctpIndexOf } from './across-indexed-deposits';

/**
 * The SpokePool fill events, copied from across-protocol/contracts contracts/interfaces/V3SpokePoolInterface.sol
 * (8ab07306, 2026-06-11): `FilledRelay`, what every current pool emits (bytes32 addresses, uint256 depositId), and
 * the legacy `FilledV3Relay` (address fields, uint32 depositId, the updated message in full). In both,
 * `originChainId` and `depositId` are topics[1] and topics[2], and `relayExecutionInfo.updatedOutputAmount` /
 * `updatedRecipient` are what the pool paid and to whom: `fillRelay` sets them to the deposit's outputAmount and
 * recipient, `fillRelayWithUpdatedDeposit` to the depositor's signed update (contracts/spoke-pools/SpokePool.sol
 * `fillRelay`, `_fillRelayV3`, `_transferTokensToRecipient`).
 */
export const acrossFillEventsAbi = parseAbi([
  'event FilledRelay(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint256 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 exclusiveRelayer, bytes32 indexed relayer, bytes32 depositor, bytes32 recipient, bytes32 messageHash, (bytes32 updatedRecipient, bytes32 updatedMessageHash, uint256 updatedOutputAmount, uint8 fillType) relayExecutionInfo)',
  'event FilledV3Relay(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint32 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, address exclusiveRelayer, address indexed relayer, address depositor, address recipient, bytes message, (address updatedRecipient, bytes updatedMessage, uint256 updatedOutputAmount, uint8 fillType) relayExecutionInfo)',
]);

const FILL_TOPICS: ReadonlySet<string> = new Set(
  acrossFillEventsAbi.map((event) => toEventSelector(event).toLowerCase()),
);

interface DecodedFill {
  logIndex: number;
  originChainId: bigint;
  depositId: bigint;
  outputToken: Address;
  recipient: Address;
  amount: bigint;
}

/** The claim key of an Across deposit: its origin chain and depositId name exactly one deposit. */
export function acrossDepositKey(originChainId: number | bigint, depositId: string | bigint): string {
  return `across-${originChainId}-${depositId}`;
}

/**
 * This deposit's fill record in an Across fill transaction, found by (originChainId, depositId) among the
 * `FilledRelay`/`FilledV3Relay` logs the destination SpokePool (`emitters`) emitted. The relayer fills up to 50
 * deposits in one `SpokePool.multicall` (across-protocol/relayer src/clients/MultiCallerClient.ts
 * `buildMultiCallBundles`, chunks of 50): each `_fillRelayV3` emits its record, then transfers the output
 * (SpokePool.sol `_fillRelayV3`: `_emitFilledRelayEvent` before `_transferTokensToRecipient`), so a record's
 * delivery sits in the logs after it, up to the next record (a message recipient's onward transfers included).
 * A CCTP-routed deposit (ref `cctp:<index>`) is filled by CCTP, not the pool: its record is the MessageReceived of
 * the message its burn sent (`deposit.cctpBurn`, cctp/cctp-fill-record.ts); a transaction with SpokePool records
 * but no CCTP receipt holds other deposits only.
 */
export function acrossFillRecord(originChainId: number, query: FillRecordQuery): FillRecord {
  const fills = decodeFills(query.logs, query.emitters);
  const ref = query.deposit?.ref ?? null;
  if (cctpIndexOf(ref) !== null) {
    const record = cctpFillRecord(query.deposit?.cctpBurn ?? null, query);
    return record.kind === 'none' && fills.length > 0 ? { kind: 'other_deposits' } : record;
  }
  if (fills.length === 0) return { kind: 'none' };
  // No depositId (not read from the source yet): none of these can be said to be this deposit's.
  if (ref === null || !/^\d+$/.test(ref)) return { kind: 'other_deposits' };
  const wanted = BigInt(ref);
  const at = fills.findIndex((f) => f.originChainId === BigInt(originChainId) && f.depositId === wanted);
  if (at < 0) return { kind: 'other_deposits' };
  const fill = fills[at];
  return {
    kind: 'found',
    depositKey: acrossDepositKey(originChainId, wanted),
    amount: fill.amount,
    recipient: fill.recipient,
    token: fill.outputToken,
    fromLogIndex: fill.logIndex + 1,
    toLogIndex: fills[at + 1]?.logIndex ?? endOfLogs(query.logs),
  };
}

function decodeFills(
  logs: readonly FillReceiptLog[],
  emitters: readonly Address[] | undefined,
): DecodedFill[] {
  const fills: DecodedFill[] = [];
  for (const log of logs) {
    const topic0 = log.topics[0]?.toLowerCase();
    if (topic0 === undefined || !FILL_TOPICS.has(topic0) || !emittedByAny(log, emitters)) continue;
    const fill = decodeFill(log);
    if (fill !== null) fills.push(fill);
  }
  return fills;
}

function decodeFill(log: FillReceiptLog): DecodedFill | null {
  try {
    const { eventName, args } = decodeEventLog({
      abi: acrossFillEventsAbi,
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
    });
    const info = args.relayExecutionInfo;
    if (eventName === 'FilledRelay') {
      return {
        logIndex: log.logIndex,
        originChainId: args.originChainId,
        depositId: args.depositId,
        outputToken: bytes32ToAddress(args.outputToken),
        recipient: bytes32ToAddress(info.updatedRecipient),
        amount: info.updatedOutputAmount,
      };
    }
    return {
      logIndex: log.logIndex,
      originChainId: args.originChainId,
      depositId: BigInt(args.depositId),
      outputToken: args.outputToken.toLowerCase() as Address,
      recipient: info.updatedRecipient.toLowerCase() as Address,
      amount: info.updatedOutputAmount,
    };
  } catch {
    // A log with a fill topic that does not decode is not a SpokePool's record.
    return null;
  }
}
