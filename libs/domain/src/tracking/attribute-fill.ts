/**
 * The deposit key of a fill attributed without a provider record: the transaction's only delivery to the recipient,
 * `sole-delivery-<its log index>` for a token transfer, `sole-delivery` for native value (one per transaction).
 */
export const FALLBACK_DEPOSIT_KEY = 'sole-delivery';

/**
 * What the provider's adapter found of this leg's deposit in the fill transaction's logs:
 * - `found`: the provider's own fill record of this deposit (Across `FilledRelay`, CCTP `MessageReceived`, Mayan
 *   `OrderFulfilled`, Relay's order id in the calldata): the amount and recipient it states, and the span of logs
 *   (`[fromLogIndex, toLogIndex)`) where its delivery's transfers sit;
 * - `other_deposits`: the transaction holds the provider's fill records, none of them this deposit's (or this leg's
 *   deposit identity is not known yet, so none can be said to be its);
 * - `none`: the transaction holds no record the adapter can read (an unknown layout, an older sandbox's plain
 *   transfer). Only then may the leg fall back to the transaction's sole transfer to the recipient: a transaction
 *   with records is attributed by them alone, so a fallback never takes a transfer a record gives another leg.
 *   `reason` (optional, later builds) says why none is this leg's when the records cannot tell.
 * A `found` record may name `interchangeable` others: records nothing on chain tells apart from it for this leg (two
 * CCTP V2 messages of one content, from two source transactions of the same wallet); each is attributed alike, and
 * the leg's delivery is the first of them no other leg has claimed.
 */
export type FillRecordFinding =
  | ({ kind: 'found'; interchangeable?: readonly FoundFillRecordFinding[] } & FoundFillRecordFinding)
  | { kind: 'other_deposits'; reason?: string }
  | { kind: 'none' };

/** One deposit's record in a fill transaction: its claim key, what it states, and where its delivery's logs sit. */
export interface FoundFillRecordFinding {
  /** The provider's identity of the deposit, the claim key (`fillClaimStreamId`). */
  depositKey: string;
  /** Base units, decimal. */
  amount: string;
  recipient: string;
  token: string;
  fromLogIndex: number;
  toLogIndex: number;
}

/** A Transfer of the leg's target token in the fill transaction, as the receipt shows it. */
export interface TokenTransferLog {
  to: string;
  /** Base units, decimal. */
  amount: string;
  logIndex: number;
}

export type FillAttribution =
  /** This leg's delivery and the deposit key it is claimed under; '0' when nothing reached the recipient. */
  { kind: 'attributed'; depositKey: string; amount: string } | { kind: 'rejected'; reason: string };

/**
 * Which part of a fill transaction is this leg's (issue 24 item 1, providers review N1): its amount is the amount
 * of the provider's record of its own deposit, checked against the chain (the target token's transfers to the
 * recipient within the record's span must cover it); never the sum of every transfer to the recipient, which in a
 * batched fill (Across relayer `multicall`, CCTP finalizer batch) holds other legs', other attempts' and strangers'.
 * - A record paying the recipient the target token: the record's amount, when the span's transfers cover it.
 * - A record paying someone else (a message handler: an app fee or a destination swap pays the recipient onward),
 *   or another token: what the span's transfers gave the recipient, possibly 0 (then rejected by interpretFill).
 * - The provider's records name other deposits only: not this leg's fill.
 * - No record: the transaction's delivery only when it holds a single transfer to the recipient; several are
 *   ambiguous and rejected, none is an exact 0.
 */
export function attributeFill(input: {
  record: FillRecordFinding;
  /** Every Transfer of the target token in the transaction, in log order. */
  transfers: readonly TokenTransferLog[];
  recipient: string;
  token: string;
}): FillAttribution {
  const recipient = input.recipient.toLowerCase();
  const toRecipient = input.transfers.filter((t) => t.to.toLowerCase() === recipient);
  const { record } = input;
  switch (record.kind) {
    case 'found': {
      const inSpan = toRecipient.filter(
        (t) => t.logIndex >= record.fromLogIndex && t.logIndex < record.toLogIndex,
      );
      const delivered = inSpan.reduce((sum, t) => sum + BigInt(t.amount), 0n);
      const paysRecipient =
        record.recipient.toLowerCase() === recipient &&
        record.token.toLowerCase() === input.token.toLowerCase();
      if (!paysRecipient) {
        return { kind: 'attributed', depositKey: record.depositKey, amount: delivered.toString() };
      }
      if (delivered < BigInt(record.amount)) {
        return {
          kind: 'rejected',
          reason: `the provider's fill record of this deposit states ${record.amount} but only ${delivered} of the target token reached the recipient with it`,
        };
      }
      return { kind: 'attributed', depositKey: record.depositKey, amount: record.amount };
    }
    case 'other_deposits':
      return {
        kind: 'rejected',
        reason:
          record.reason ??
          "the fill transaction holds the provider's fill records of other deposits, none of this leg's",
      };
    case 'none':
      if (toRecipient.length > 1) {
        return {
          kind: 'rejected',
          reason:
            'the fill transaction holds several transfers to the recipient and no fill record says which is this leg',
        };
      }
      // Keyed by the transfer itself: two legs to two recipients in one transaction each own their own transfer.
      return toRecipient[0] === undefined
        ? { kind: 'attributed', depositKey: FALLBACK_DEPOSIT_KEY, amount: '0' }
        : {
            kind: 'attributed',
            depositKey: `${FALLBACK_DEPOSIT_KEY}-${toRecipient[0].logIndex}`,
            amount: toRecipient[0].amount,
          };
  }
}
