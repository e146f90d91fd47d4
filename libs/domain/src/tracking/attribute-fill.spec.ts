import {
  attributeFill,
  FALLBACK_DEPOSIT_KEY,
  type FillRecordFinding,
  type TokenTransferLog,
} from './attribute-fill';
import { claimOwner, fillClaimOpen, fillClaimStreamId, PER_DEPOSIT_FILLS_OWNER } from './transaction-claim';

const RECIPIENT = '0x00000000000000000000000000000000000000aa';
const STRANGER = '0x00000000000000000000000000000000000000bb';
const HANDLER = '0x00000000000000000000000000000000000000cc';
const TOKEN = '0x00000000000000000000000000000000000000dd';
const OTHER_TOKEN = '0x00000000000000000000000000000000000000ee';

/** A relayer's multicall: record at 0 → transfer at 1; record at 2 → transfer at 3; a stranger's record at 4 → 5. */
const BATCH: TokenTransferLog[] = [
  { to: RECIPIENT, amount: '1000', logIndex: 1 },
  { to: RECIPIENT, amount: '2500', logIndex: 3 },
  { to: RECIPIENT, amount: '7', logIndex: 5 },
];

function found(
  depositKey: string,
  amount: string,
  span: [number, number],
  over: Partial<FillRecordFinding> = {},
): FillRecordFinding {
  return {
    kind: 'found',
    depositKey,
    amount,
    recipient: RECIPIENT,
    token: TOKEN,
    fromLogIndex: span[0],
    toLogIndex: span[1],
    ...over,
  };
}

/** given a fill transaction's transfers, when the adapter found `record` for this leg, then the attribution. */
const when = (record: FillRecordFinding, transfers: TokenTransferLog[] = BATCH) =>
  attributeFill({ record, transfers, recipient: RECIPIENT.toUpperCase().replace('0X', '0x'), token: TOKEN });

describe('attributeFill: a leg takes its own deposit of a fill transaction (issue 24 item 1, N1)', () => {
  it("each deposit of a batched fill to one recipient gets its own record's amount, never the sum", () => {
    expect(when(found('across-1-7', '1000', [1, 2]))).toEqual({
      kind: 'attributed',
      depositKey: 'across-1-7',
      amount: '1000',
    });
    expect(when(found('across-1-8', '2500', [3, 4]))).toEqual({
      kind: 'attributed',
      depositKey: 'across-1-8',
      amount: '2500',
    });
  });

  it('a record whose delivery is missing from its span is rejected, even if another span holds the tokens', () => {
    // The 2500 of log 3 belongs to the next record: it cannot back this one's.
    expect(when(found('across-1-7', '2500', [1, 2]))).toMatchObject({ kind: 'rejected' });
    expect(when(found('across-1-7', '1000', [2, 3]))).toMatchObject({ kind: 'rejected' });
  });

  it('a record paying a message handler counts what the handler passed on to the recipient in its span', () => {
    const viaHandler = found('across-1-9', '3000', [1, 4], { recipient: HANDLER });
    expect(when(viaHandler)).toEqual({ kind: 'attributed', depositKey: 'across-1-9', amount: '3500' });
  });

  it('a record in another token delivers none of the target token (interpretFill rejects the 0)', () => {
    const wrongToken = found('across-1-7', '1000', [6, 7], { token: OTHER_TOKEN });
    expect(when(wrongToken)).toEqual({ kind: 'attributed', depositKey: 'across-1-7', amount: '0' });
  });

  it("records of other deposits only: not this leg's fill", () => {
    expect(when({ kind: 'other_deposits' })).toMatchObject({ kind: 'rejected' });
  });

  it('records that cannot tell which is this leg (two CCTP messages of one content): rejected with their reason', () => {
    const reason = 'the fill transaction received 2 CCTP messages with this burn content';
    expect(when({ kind: 'other_deposits', reason })).toEqual({ kind: 'rejected', reason });
  });

  it('no record: the sole transfer to the recipient, claimed as the sole delivery; several are ambiguous', () => {
    const sole = [
      { to: RECIPIENT, amount: '42', logIndex: 0 },
      { to: STRANGER, amount: '9', logIndex: 1 },
    ];
    expect(when({ kind: 'none' }, sole)).toEqual({
      kind: 'attributed',
      depositKey: `${FALLBACK_DEPOSIT_KEY}-0`,
      amount: '42',
    });
    // Another leg's sole transfer to another recipient in the same transaction is its own, under its own key.
    expect(
      attributeFill({ record: { kind: 'none' }, transfers: sole, recipient: STRANGER, token: TOKEN }),
    ).toEqual({ kind: 'attributed', depositKey: `${FALLBACK_DEPOSIT_KEY}-1`, amount: '9' });
    expect(when({ kind: 'none' }, [])).toEqual({
      kind: 'attributed',
      depositKey: FALLBACK_DEPOSIT_KEY,
      amount: '0',
    });
    expect(when({ kind: 'none' })).toEqual({
      kind: 'rejected',
      reason:
        'the fill transaction holds several transfers to the recipient and no fill record says which is this leg',
    });
  });
});

describe('fill claims per (chain, transaction, deposit)', () => {
  const leg = { role: 'fill' as const, attemptId: 'at_1', sliceId: 't0:0' };

  it('keys the claim stream by the deposit beside the transaction', () => {
    expect(fillClaimStreamId(8453, '0xABC', 'across-1-7')).toBe('txclaim-8453-0xabc-dep-across-1-7');
  });

  it("is open when the transaction's own claim is the per-deposit marker or this leg's legacy whole-tx claim", () => {
    expect(fillClaimOpen(null, leg)).toBe(true);
    expect(fillClaimOpen(PER_DEPOSIT_FILLS_OWNER, leg)).toBe(true);
    expect(fillClaimOpen(claimOwner(leg), leg)).toBe(true);
  });

  it("is closed by a source claim, or another leg's whole-tx claim an earlier build wrote", () => {
    expect(fillClaimOpen('source:at_2', leg)).toBe(false);
    expect(fillClaimOpen(claimOwner({ ...leg, sliceId: 't0:1' }), leg)).toBe(false);
  });
});
