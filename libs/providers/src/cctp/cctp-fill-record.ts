import { type Address, decodeEventLog, type Hex } from 'viem';
import {
  bytes32ToAddress,
  emittedByAny,
  type FillReceiptLog,
  type FillRecord,
  type FoundFillRecord,
  type FillRecordQuery,
} from '../fill-record';
import { type CctpBurn, cctpBurnContent } from './cctp-burn';
import { CCTP_TOPICS, cctpMessageReceivedAbi, cctpMintAndWithdrawAbi } from './cctp-events';
import { type CctpBurnBody, decodeCctpBurnBody } from './cctp-message';

/** One CCTP message received in a fill transaction, with the mint it made. */
export interface CctpReceipt {
  cctpVersion: 1 | 2;
  sourceDomain: number;
  /** V1: decimal uint64; V2: bytes32 hex, lowercase. */
  nonce: string;
  sender: Hex;
  body: CctpBurnBody;
  /** What the mint recipient received: MintAndWithdraw's `amount` (V2: the burn amount less feeExecuted). */
  minted: bigint;
  mintRecipient: Address;
  mintToken: Address;
  /** The logs of this message's receipt: after the previous MessageReceived, up to (without) its own. */
  fromLogIndex: number;
  toLogIndex: number;
}

interface Mint {
  cctpVersion: 1 | 2;
  mintRecipient: Address;
  amount: bigint;
  mintToken: Address;
  fee: bigint;
}

/** The claim key of a CCTP message: its source domain and nonce name exactly one message (the nonce is used once). */
export const cctpDepositKey = (sourceDomain: number, nonce: string) =>
  `cctp-${sourceDomain}-${nonce.toLowerCase()}`;

/**
 * The CCTP messages a transaction received, in log order. `receiveMessage` lets the TokenMessenger's handler mint
 * (the token's Transfer to the mint recipient, then `MintAndWithdraw`) and then emits `MessageReceived`
 * (circlefin/evm-cctp-contracts src/MessageTransmitter.sol and src/v2/MessageTransmitterV2.sol `receiveMessage`;
 * src/v2/TokenMessengerV2.sol `_handleReceiveMessage`), so a message's logs are those after the previous
 * MessageReceived up to its own, and its mint is the `MintAndWithdraw` among them, as Across's indexer pairs them
 * (CCTPIndexerDataHandler.ts `matchMessageReceivedWithMintAndWithdrawEvents`: the mint before the MessageReceived).
 * A relayer batches several `receiveMessage` in one transaction (across-protocol/relayer src/finalizer/utils/cctp/
 * anyToAny.ts: one receiveMessage call per ready message, sent together). A message counts only with a
 * `MintAndWithdraw` emitted by one of `emitters` (the allowlisted TokenMessenger) that mints what its burn body says:
 * the body's mint recipient, its amount less V2's feeExecuted, feeCollected = feeExecuted. The MessageTransmitter is
 * no call target of ours, so it is not in the allowlist; a look-alike MessageReceived outside a real receive has no
 * such mint before it and counts for nothing.
 */
export function cctpReceipts(logs: readonly FillReceiptLog[], emitters?: readonly Address[]): CctpReceipt[] {
  const receipts: CctpReceipt[] = [];
  let from = logs[0]?.logIndex ?? 0;
  let mints: Mint[] = [];
  for (const log of logs) {
    const topic0 = log.topics[0]?.toLowerCase();
    if (topic0 === CCTP_TOPICS.mintAndWithdrawV1 || topic0 === CCTP_TOPICS.mintAndWithdrawV2) {
      const mint = emittedByAny(log, emitters) ? readMint(log) : null;
      if (mint !== null) mints.push(mint);
      continue;
    }
    if (topic0 !== CCTP_TOPICS.messageReceivedV1 && topic0 !== CCTP_TOPICS.messageReceivedV2) continue;
    const receipt = readReceived(log, mints.at(-1) ?? null, from);
    if (receipt !== null) receipts.push(receipt);
    from = log.logIndex + 1;
    mints = [];
  }
  return receipts;
}

/**
 * This leg's CCTP message in a fill transaction (issue 24 item 1, providers review N1): the MessageReceived of the
 * burn its source transaction sent (`burn`). V1: by (source domain, nonce), both in the sent message. V2: the nonce is
 * not known from the source, so by the burn's content (cctpBurnContent); when several messages of the transaction
 * carry that content they cannot be told apart. When the source transaction burnt exactly as many of them (two legs
 * of one attempt) each leg takes its rank's. Otherwise the same wallet burnt the same amount to the same recipient in
 * other transactions too (another attempt, or the user's own transfer): the messages are interchangeable for this
 * leg, which is found with its rank's (or the last) first and the others as `interchangeable`, and settles with the
 * first of them no other leg has claimed (`readFill`). Each is the same wallet's burn of the same amount to the same
 * recipient, so whichever a leg takes, what it says arrived did arrive.
 */
export function cctpFillRecord(burn: CctpBurn | null, query: FillRecordQuery): FillRecord {
  const receipts = cctpReceipts(query.logs, query.emitters);
  if (receipts.length === 0) return { kind: 'none' };
  if (burn === null) {
    return {
      kind: 'other_deposits',
      reason: "this leg's CCTP burn message was not read from its source transaction",
    };
  }
  const { header } = burn;
  if (header.cctpVersion === 1) {
    const own = receipts.find(
      (r) => r.cctpVersion === 1 && r.sourceDomain === header.sourceDomain && r.nonce === header.nonce,
    );
    return own === undefined ? { kind: 'other_deposits' } : { kind: 'found', ...found(own) };
  }
  const content = cctpBurnContent(header.sourceDomain, header.sender, burn.body);
  const matching = receipts.filter(
    (r) => r.cctpVersion === 2 && cctpBurnContent(r.sourceDomain, r.sender, r.body) === content,
  );
  if (matching.length === 0) return { kind: 'other_deposits' };
  if (matching.length === 1) return { kind: 'found', ...found(matching[0]) };
  if (matching.length === burn.twins.count) return { kind: 'found', ...found(matching[burn.twins.rank]) };
  const first = Math.min(burn.twins.rank, matching.length - 1);
  return {
    kind: 'found',
    ...found(matching[first]),
    interchangeable: matching.filter((_, i) => i !== first).map(found),
  };
}

function found(receipt: CctpReceipt): FoundFillRecord {
  return {
    depositKey: cctpDepositKey(receipt.sourceDomain, receipt.nonce),
    amount: receipt.minted,
    recipient: receipt.mintRecipient,
    token: receipt.mintToken,
    fromLogIndex: receipt.fromLogIndex,
    toLogIndex: receipt.toLogIndex,
  };
}

function readMint(log: FillReceiptLog): Mint | null {
  try {
    const { args } = decodeEventLog({
      abi: cctpMintAndWithdrawAbi,
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
    });
    return {
      cctpVersion: 'feeCollected' in args ? 2 : 1,
      mintRecipient: args.mintRecipient.toLowerCase() as Address,
      amount: args.amount,
      mintToken: args.mintToken.toLowerCase() as Address,
      fee: 'feeCollected' in args ? args.feeCollected : 0n,
    };
  } catch {
    return null;
  }
}

function readReceived(log: FillReceiptLog, mint: Mint | null, from: number): CctpReceipt | null {
  if (mint === null) return null;
  let args;
  try {
    ({ args } = decodeEventLog({
      abi: cctpMessageReceivedAbi,
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
    }));
  } catch {
    return null;
  }
  const cctpVersion = 'finalityThresholdExecuted' in args ? 2 : 1;
  const body = decodeCctpBurnBody(args.messageBody, cctpVersion);
  if (body === null || mint.cctpVersion !== cctpVersion) return null;
  const fee = body.feeExecuted ?? 0n;
  const mintRecipient = bytes32ToAddress(body.mintRecipient);
  const agrees =
    mint.mintRecipient === mintRecipient.toLowerCase() &&
    mint.amount === body.amount - fee &&
    mint.fee === fee;
  if (!agrees) return null;
  return {
    cctpVersion,
    sourceDomain: args.sourceDomain,
    nonce: typeof args.nonce === 'bigint' ? args.nonce.toString(10) : args.nonce.toLowerCase(),
    sender: args.sender.toLowerCase() as Hex,
    body,
    minted: mint.amount,
    mintRecipient,
    mintToken: mint.mintToken,
    fromLogIndex: from,
    toLogIndex: log.logIndex,
  };
}
