import {
  type AttemptEvent,
  type AttemptPreparedData,
  type AttemptRecord,
  evolveAttempt,
  initialAttemptState,
  type IntentQuotedData,
} from '@svc/domain';
import { attemptFees } from './attempt-fees';

const USDC = '0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35';
const INPUTS = { 't0:0': 5_000_000n, 't0:1': 3_000_000n } as const;
type SliceId = keyof typeof INPUTS;

/** An attempt of two relay legs (5 and 3 USDC), prepared and then `events`. */
function attempt(...events: AttemptEvent[]): AttemptRecord {
  const slice = (sliceId: SliceId, sourceIndex: number) => ({
    sliceId,
    sourceIndex,
    sourceChainId: 1,
    noop: false,
    provider: 'relay',
    providerRequestId: null,
    trackingContext: null,
    expectedOutputRaw: '1',
    minimumOutputRaw: '1',
  });
  const prepared = {
    attemptId: 'at_1',
    intentSessionId: 'is_1',
    partnerId: 'p1',
    preparedAt: 1_000,
    legs: [
      {
        legIndex: 0,
        targetId: 't0',
        provider: 'relay',
        target: { chainId: 8453, address: USDC, symbol: 'USDC', decimals: 6 },
        slices: [slice('t0:0', 0), slice('t0:1', 1)],
      },
    ],
    chainActions: [],
  } as unknown as AttemptPreparedData;
  const state = [{ type: 'AttemptPrepared', data: prepared } as AttemptEvent, ...events].reduce(
    evolveAttempt,
    initialAttemptState,
  );
  return state as AttemptRecord;
}

/** The session as quoting stores it: service 10 bps + markup 20 bps asked, `collectedBps` charged per leg. */
function quote(collectedBps: number, recorded: Partial<Record<SliceId, string>> = {}): IntentQuotedData {
  const slices = (Object.keys(INPUTS) as SliceId[]).map((sliceId) => ({
    sliceId,
    provider: 'relay',
    appFee: { paidAs: 'offchain_balance', bps: collectedBps, chainId: null, token: null, claim: null },
    quotedWith: {
      source: { chainId: 1, token: USDC, amount: INPUTS[sliceId].toString(), decimals: 6, symbol: 'USDC' },
    },
  }));
  return {
    execution: [{ targetId: 't0', provider: 'relay', noopSlices: [], slices }],
    fees: {
      serviceFeeBps: 10,
      markupBps: 20,
      recipient: USDC,
      markupOwed: (Object.keys(INPUTS) as SliceId[]).map((sliceId) => ({
        sliceId,
        chainId: 1,
        token: USDC,
        rawAmount:
          recorded[sliceId] ?? ((INPUTS[sliceId] * 20n * BigInt(collectedBps)) / (30n * 10_000n)).toString(),
        usd: null,
        collectedBps,
      })),
    },
    response: {
      selectedPlan: { legs: [{ outputTargetId: 't0', provider: 'relay', summary: { totalFeeUsd: 0.08 } }] },
      allocationPlan: { legs: [] },
    },
  } as unknown as IntentQuotedData;
}

const settled = (sliceId: SliceId, basis: 'exact' | 'estimated' = 'exact'): AttemptEvent => ({
  type: 'LegSettled',
  data: { sliceId, destinationTxHash: '0xf1', settledAmount: '1', amountBasis: basis, at: 2_000 },
});
const refunded = (sliceId: SliceId): AttemptEvent => ({
  type: 'LegFailed',
  data: { sliceId, errorCode: 'refunded', errorMessage: 'refund', refundTxHash: '0xr', at: 2_000 },
});
const owed = (record: AttemptRecord, q: IntentQuotedData) =>
  attemptFees(record, q).legs.map(
    ({ sliceId, owing, basis, appFee, serviceFee, markup, markupRecordedOwed }) => ({
      sliceId,
      owing,
      basis,
      appFee,
      serviceFee,
      markup,
      markupRecordedOwed,
    }),
  );

describe('attemptFees', () => {
  it('given both legs settled, each owes the app fee on its input: the markup 20/30 of it, the service the rest', () => {
    expect(owed(attempt(settled('t0:0'), settled('t0:1', 'estimated')), quote(30))).toEqual([
      {
        sliceId: 't0:0',
        owing: 'owed',
        basis: 'exact',
        appFee: 15_000n,
        serviceFee: 5_000n,
        markup: 10_000n,
        markupRecordedOwed: 10_000n,
      },
      {
        sliceId: 't0:1',
        owing: 'owed',
        basis: 'estimated',
        appFee: 9_000n,
        serviceFee: 3_000n,
        markup: 6_000n,
        markupRecordedOwed: 6_000n,
      },
    ]);
  });

  it('given one leg refunded, that leg owes nothing and the markup recorded for it is not owed', () => {
    const fees = attemptFees(attempt(settled('t0:0'), refunded('t0:1')), quote(30));
    expect(
      fees.legs.map((l) => [l.sliceId, l.owing, l.markup, l.markupRecorded, l.markupRecordedOwed]),
    ).toEqual([
      ['t0:0', 'owed', 10_000n, 10_000n, 10_000n],
      ['t0:1', 'nothing', 0n, 6_000n, 0n],
    ]);
    expect(fees.problems).toEqual([]);
  });

  it('given a leg still under way, it owes nothing yet (open); once the attempt ended without it, nothing', () => {
    expect(owed(attempt(settled('t0:0')), quote(30)).map((l) => l.owing)).toEqual(['owed', 'open']);
    const expired = attempt({ type: 'AttemptExpired', data: { at: 3_000 } });
    expect(owed(expired, quote(30)).map((l) => l.owing)).toEqual(['nothing', 'nothing']);
  });

  it('given a provider that charges less than asked (15 of 30 bps), the markup is its share of what it charges', () => {
    const [leg] = owed(attempt(settled('t0:0')), quote(15));
    expect([leg.appFee, leg.markup, leg.serviceFee]).toEqual([7_500n, 5_000n, 2_500n]);
  });

  it('names a recorded markup that its own input and rates do not give', () => {
    const fees = attemptFees(attempt(settled('t0:0')), quote(30, { 't0:0': '99999' }));
    expect(fees.problems).toEqual(['t0:0: markup recorded 99999, its input and rates give 10000']);
    expect(fees.legs[0].markupRecordedOwed).toBe(99_999n);
  });

  it("splits the route's quoted provider fee over its legs by input, owed only by those that settled", () => {
    expect(
      attemptFees(attempt(settled('t0:0'), refunded('t0:1')), quote(30)).legs.map((l) => l.providerFeeUsd),
    ).toEqual([0.05, 0]);
  });
});
