import { decodeEventLog, type Hex } from 'viem';
import { type ReceiptLog } from '../provider-adapter.port';
import { CCTP_TOPICS, cctpBurnEventsAbi, cctpMessageSentAbi } from './cctp-events';
import {
  type CctpBurnBody,
  type CctpMessageHeader,
  decodeCctpBurnBody,
  decodeCctpMessage,
} from './cctp-message';

/**
 * One CCTP burn of a source transaction: the message its MessageSent carried (header and burn body) and, for V2, how
 * many burns of the transaction carry the same content and which of them this is. V1's header names the message's
 * nonce; V2's is empty, since Circle's attestation service assigns it off chain (across-protocol/relayer
 * src/utils/CCTPUtils.ts: "This nonce makes sense only for v1 events, as it's emitted on src chain send"; Across's
 * indexer reads it from Circle's attestation API, indexer packages/indexer/src/data-indexing/service/
 * CctpFinalizerService.ts, then joins MessageReceived on (sourceDomain, nonce), indexer-api services/deposits.ts).
 */
export interface CctpBurn {
  header: CctpMessageHeader;
  body: CctpBurnBody;
  twins: { rank: number; count: number };
}

/** Whether a log is a CCTP `DepositForBurn` (V1 or V2, all three indexed fields present). */
export function isCctpBurnLog(log: ReceiptLog): boolean {
  const topic0 = (log.topics[0] as Hex | undefined)?.toLowerCase();
  return (
    (topic0 === CCTP_TOPICS.depositForBurnV2 || topic0 === CCTP_TOPICS.depositForBurnV1) &&
    log.topics.length === 4
  );
}

/**
 * The burn message of each `DepositForBurn` of a source transaction, in log order (one entry per isCctpBurnLog log;
 * null where it cannot be read). Each burn is paired with the first unpaired `MessageSent` before it, as Across's
 * indexer pairs them (packages/indexer/src/data-indexing/service/CCTPIndexerDataHandler.ts
 * `matchDepositForBurnWithMessageSentEvents`; TokenMessenger emits DepositForBurn right after the transmitter's
 * MessageSent), and kept only when the message says what the event says (version, amount, mint recipient, burn token,
 * and V1's nonce).
 */
export function cctpSentBurns(logs: readonly ReceiptLog[]): (CctpBurn | null)[] {
  const sent: { at: number; header: CctpMessageHeader | null }[] = [];
  const burns: (Omit<CctpBurn, 'twins'> | null)[] = [];
  let paired = 0;
  logs.forEach((log, at) => {
    const topic0 = (log.topics[0] as Hex | undefined)?.toLowerCase();
    if (topic0 === CCTP_TOPICS.messageSent) sent.push({ at, header: readMessageSent(log) });
    if (!isCctpBurnLog(log)) return;
    const message = paired < sent.length ? sent[paired++] : undefined;
    burns.push(message?.header ? readBurn(log, message.header) : null);
  });
  return withTwins(burns);
}

/**
 * What a V2 burn's message says that its MessageReceived repeats on the destination (source domain, the source
 * TokenMessenger, the burn body but for feeExecuted and expirationBlock, which the attestation fills in): two burns
 * with the same content cannot be told apart there.
 */
export function cctpBurnContent(
  sourceDomain: number,
  sender: Hex,
  body: Pick<
    CctpBurnBody,
    'version' | 'burnToken' | 'mintRecipient' | 'amount' | 'messageSender' | 'maxFee' | 'hookData'
  >,
): string {
  return [
    sourceDomain,
    sender.toLowerCase(),
    body.version,
    body.burnToken.toLowerCase(),
    body.mintRecipient.toLowerCase(),
    body.amount,
    body.messageSender.toLowerCase(),
    body.maxFee ?? '',
    (body.hookData ?? '').toLowerCase(),
  ].join('|');
}

function withTwins(burns: (Omit<CctpBurn, 'twins'> | null)[]): (CctpBurn | null)[] {
  const key = (b: Omit<CctpBurn, 'twins'>) => cctpBurnContent(b.header.sourceDomain, b.header.sender, b.body);
  const counts = new Map<string, number>();
  for (const b of burns) if (b) counts.set(key(b), (counts.get(key(b)) ?? 0) + 1);
  const seen = new Map<string, number>();
  return burns.map((b) => {
    if (b === null) return null;
    const rank = seen.get(key(b)) ?? 0;
    seen.set(key(b), rank + 1);
    return { ...b, twins: { rank, count: counts.get(key(b)) ?? 1 } };
  });
}

function readMessageSent(log: ReceiptLog): CctpMessageHeader | null {
  try {
    const { args } = decodeEventLog({
      abi: cctpMessageSentAbi,
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
    });
    return decodeCctpMessage(args.message);
  } catch {
    return null;
  }
}

function readBurn(log: ReceiptLog, header: CctpMessageHeader): Omit<CctpBurn, 'twins'> | null {
  let event;
  try {
    event = decodeEventLog({ abi: cctpBurnEventsAbi, topics: log.topics as [Hex, ...Hex[]], data: log.data });
  } catch {
    return null;
  }
  const { args } = event;
  const cctpVersion = 'nonce' in args ? 1 : 2;
  if (header.cctpVersion !== cctpVersion) return null;
  if ('nonce' in args && header.nonce !== args.nonce.toString(10)) return null;
  const body = decodeCctpBurnBody(header.body, cctpVersion);
  const agrees =
    body !== null &&
    body.amount === args.amount &&
    body.mintRecipient === args.mintRecipient.toLowerCase() &&
    body.burnToken.slice(-40) === args.burnToken.slice(2).toLowerCase();
  return agrees ? { header, body } : null;
}
