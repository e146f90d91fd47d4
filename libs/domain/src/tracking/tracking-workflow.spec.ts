import { type AttemptEvent, type AttemptPreparedData } from '../attempt/attempt.events';
import { type AttemptRecord } from '../attempt/attempt-record';
import { evolveAttempt, initialAttemptState } from '../attempt/attempt.state';
import {
  attemptPrepared,
  evidenceReported,
  hash,
  prepared,
  sourceConfirmed,
  submittedWithSignature,
  T0,
  EVIDENCE_DEADLINE,
} from '../attempt/attempt.fixture';
import { delayedLegs } from './delayed-legs';
import { interpretFill } from './interpret-fill';
import { interpretProviderAnswer } from './interpret-provider-answer';
import { nextWakeAt, planTracking, type TrackingWork } from './plan-tracking';
import { scheduleHash, hashGivenUp } from './schedule-after';
import { DEFAULT_TRACKING_POLICY, type TrackingTraits } from './tracking-traits';
import {
  DEPOSIT_SEARCH_BACKOFF_MAX_MS,
  DEPOSIT_SEARCH_BACKOFF_MIN_MS,
  DEPOSIT_SEARCH_MAX_FAILURES,
  depositSearchHeld,
  evolveTracking,
  initialTrackingState,
  type TrackingEvent,
  type TrackingState,
} from './tracking.state';

const TRAITS: Record<string, TrackingTraits> = {
  relay: { pollsBeforeSourceTx: true, minPollIntervalMs: 1000, failureGraceMs: 60_000 },
  across: { pollsBeforeSourceTx: false, minPollIntervalMs: 10_000, failureGraceMs: 0 },
};
const policy = DEFAULT_TRACKING_POLICY;

/** given: the attempt's events and the tracker's pacing events; when: the workflow plans at `now`. */
function given(events: AttemptEvent[], tracking: TrackingEvent[] = []) {
  const record = events.reduce(evolveAttempt, initialAttemptState) as AttemptRecord;
  const state = tracking.reduce(evolveTracking, initialTrackingState);
  const input = (now: number) => ({ now, traitsOf: (p: string) => TRAITS[p] ?? null, readable: () => true });
  return {
    record,
    state,
    whenPlanned: (now: number) => ({
      then: (work: TrackingWork[]) => expect(planTracking(record, state, input(now))).toEqual(work),
    }),
    wakeAt: (now: number) =>
      nextWakeAt(record, state, { ...input(now), trackingLimitMs: policy.trackingLimitMs, delayMarginMs: 0 }),
  };
}

const at = T0 + 20_000;
const polled = (
  sliceId: string,
  when: number,
  over: Partial<TrackingState['legs'][string]> = {},
): TrackingEvent => ({
  type: 'LegScheduled',
  sliceId,
  schedule: { nextPollAt: when + 1000, delayMs: 1000, lastPollAt: when, failureSince: null, ...over },
});

describe('tracking workflow: what is due', () => {
  it('a prepared attempt: only the provider that finds a leg by request id is polled; nothing is read', () => {
    given([attemptPrepared])
      .whenPlanned(at)
      .then([{ kind: 'poll_provider', sliceId: 's-eth', sourceTxHash: null, depositIndex: null }]);
  });

  it('reported hashes are read; a confirmed deposit lets its provider be polled with its position in the tx', () => {
    given(submittedWithSignature)
      .whenPlanned(at)
      .then([
        { kind: 'read_source', chainId: 1, txHash: hash(1) },
        { kind: 'read_source', chainId: 1, txHash: hash(2) },
        { kind: 'read_source', chainId: 8453, txHash: hash(3) },
        { kind: 'poll_provider', sliceId: 's-eth', sourceTxHash: null, depositIndex: null },
      ]);
    given([
      ...submittedWithSignature,
      sourceConfirmed(1, hash(2), ['chain:1:call:1'], at),
      sourceConfirmed(42161, hash(5), ['chain:42161:call:0'], at),
      sourceConfirmed(8453, hash(3), ['chain:8453:call:0'], at),
    ])
      .whenPlanned(at)
      .then([
        { kind: 'read_source', chainId: 1, txHash: hash(1) },
        { kind: 'poll_provider', sliceId: 's-eth', sourceTxHash: hash(2), depositIndex: 0 },
        { kind: 'poll_provider', sliceId: 's-arb', sourceTxHash: hash(5), depositIndex: 0 },
        { kind: 'verify_noop_transfer', sliceId: 's-base', chainId: 8453, txHash: hash(3) },
      ]);
  });

  it('pacing is per attempt and per leg, and never faster than the provider asks (H1, D16)', () => {
    const history = [...submittedWithSignature, sourceConfirmed(42161, hash(5), ['chain:42161:call:0'], at)];
    // This attempt's across leg was polled a second ago: its backoff says due, across's 10 s floor says not yet.
    given(history, [polled('s-arb', at - 1000, { nextPollAt: at - 1 })])
      .whenPlanned(at)
      .then(expect.not.arrayContaining([expect.objectContaining({ sliceId: 's-arb' })]) as never);
    // Another attempt with the same slice ids has its own pacing: its legs are due.
    const other = given(history);
    expect(
      planTracking(other.record, other.state, {
        now: at,
        traitsOf: (p) => TRAITS[p] ?? null,
        readable: () => true,
      }),
    ).toContainEqual({ kind: 'poll_provider', sliceId: 's-arb', sourceTxHash: hash(5), depositIndex: 0 });
  });

  it('a delivery seen on chain makes the leg due at once, once, even inside the provider interval', () => {
    const history = [...submittedWithSignature, sourceConfirmed(42161, hash(5), ['chain:42161:call:0'], at)];
    const recent = polled('s-arb', at - 1000, { nextPollAt: at + 9000 });
    const poll = { kind: 'poll_provider', sliceId: 's-arb', sourceTxHash: hash(5), depositIndex: 0 };
    const plan = (events: TrackingEvent[]) =>
      planTracking(given(history, events).record, given(history, events).state, {
        now: at,
        traitsOf: (p) => TRAITS[p] ?? null,
        readable: () => true,
      });
    expect(plan([recent])).not.toContainEqual(poll);
    expect(plan([recent, { type: 'LegHinted', sliceId: 's-arb', at }])).toContainEqual(poll);
    // The poll it caused clears the hint: the provider's pace applies again.
    expect(
      plan([recent, { type: 'LegHinted', sliceId: 's-arb', at }, polled('s-arb', at)]),
    ).not.toContainEqual(poll);
  });

  it('two deposits of one provider in one batch get positions 0 and 1 in call order (D1)', () => {
    const arb = prepared.chainActions.find((a) => a.chainId === 42161)!;
    const twoDeposits: AttemptPreparedData = {
      ...prepared,
      chainActions: prepared.chainActions.map((a) =>
        a !== arb
          ? a
          : {
              ...arb,
              calls: [0, 1].map((i) => ({
                ...arb.calls![0],
                callId: `chain:42161:call:${i}`,
                callIndex: i,
                quoteIndex: i,
              })),
              quotePlans: [0, 1].map((i) => ({ ...arb.quotePlans[0], quoteIndex: i, callStart: i })),
              perLegPreview: [arb.perLegPreview[0], arb.perLegPreview[0]],
            },
      ),
      legs: [
        {
          ...prepared.legs[0],
          slices: [
            ...prepared.legs[0].slices.slice(0, 2),
            { ...prepared.legs[0].slices[1], sliceId: 's-arb2' },
          ],
        },
      ],
    };
    const events: AttemptEvent[] = [
      { type: 'AttemptPrepared', data: twoDeposits },
      evidenceReported('r1', [{ chainId: 42161, bundleId: null, txHashes: [hash(5)] }]),
      { type: 'AttemptWalletSubmitted', data: { at } },
      // The batch ran the second plan's deposit first.
      sourceConfirmed(42161, hash(5), ['chain:42161:call:1', 'chain:42161:call:0'], at),
    ];
    const work = planTracking(given(events).record, initialTrackingState, {
      now: at,
      traitsOf: (p) => TRAITS[p] ?? null,
      readable: () => true,
    });
    expect(work).toContainEqual({
      kind: 'poll_provider',
      sliceId: 's-arb',
      sourceTxHash: hash(5),
      depositIndex: 1,
    });
    expect(work).toContainEqual({
      kind: 'poll_provider',
      sliceId: 's-arb2',
      sourceTxHash: hash(5),
      depositIndex: 0,
    });
  });

  it('a no-op leg with recipient = wallet is verified by a balance read once evidence arrived, never assumed', () => {
    const self = { ...prepared, recipient: prepared.wallet };
    given([{ type: 'AttemptPrepared', data: self }])
      .whenPlanned(at)
      .then([{ kind: 'poll_provider', sliceId: 's-eth', sourceTxHash: null, depositIndex: null }]);
    given([
      { type: 'AttemptPrepared', data: self },
      evidenceReported('r1', [{ chainId: 1, bundleId: 'b', txHashes: [] }]),
    ])
      .whenPlanned(at)
      .then([
        { kind: 'poll_provider', sliceId: 's-eth', sourceTxHash: null, depositIndex: null },
        { kind: 'verify_noop_balance', sliceId: 's-base', chainId: 8453 },
      ]);
  });

  it('searches for a deposit once before expiring an attempt without evidence (M11)', () => {
    given([attemptPrepared], [polled('s-eth', EVIDENCE_DEADLINE, { nextPollAt: EVIDENCE_DEADLINE + 30_000 })])
      .whenPlanned(EVIDENCE_DEADLINE)
      .then([{ kind: 'search_deposits' }]);
    given(
      [attemptPrepared],
      [
        polled('s-eth', EVIDENCE_DEADLINE, { nextPollAt: EVIDENCE_DEADLINE + 30_000 }),
        { type: 'DepositSearched', found: false },
      ],
    )
      .whenPlanned(EVIDENCE_DEADLINE)
      .then([]);
  });

  it('a failed deposit search is retried with exponential backoff up to its cap, then given up (N-H1)', () => {
    const poll = polled('s-eth', EVIDENCE_DEADLINE, { nextPollAt: EVIDENCE_DEADLINE + 3600_000 });
    const failed = (at: number): TrackingEvent => ({ type: 'DepositSearchFailed', at });
    const once = given([attemptPrepared], [poll, failed(EVIDENCE_DEADLINE)]);
    expect(once.state.depositSearchRetry).toEqual({
      failures: 1,
      nextAt: EVIDENCE_DEADLINE + DEPOSIT_SEARCH_BACKOFF_MIN_MS,
    });
    once.whenPlanned(EVIDENCE_DEADLINE + DEPOSIT_SEARCH_BACKOFF_MIN_MS - 1).then([]);
    once.whenPlanned(EVIDENCE_DEADLINE + DEPOSIT_SEARCH_BACKOFF_MIN_MS).then([{ kind: 'search_deposits' }]);
    expect(once.wakeAt(EVIDENCE_DEADLINE + 1)).toBe(EVIDENCE_DEADLINE + DEPOSIT_SEARCH_BACKOFF_MIN_MS);
    expect(depositSearchHeld(once.state)).toBe(true);

    // Each failure doubles the wait, never beyond the cap.
    let t = EVIDENCE_DEADLINE;
    const events: TrackingEvent[] = [poll];
    const waits: number[] = [];
    for (let i = 0; i < DEPOSIT_SEARCH_MAX_FAILURES - 1; i++) {
      events.push(failed(t));
      const next = events.reduce(evolveTracking, initialTrackingState).depositSearchRetry!.nextAt;
      waits.push(next - t);
      t = next;
    }
    expect(waits[0]).toBe(DEPOSIT_SEARCH_BACKOFF_MIN_MS);
    for (let i = 1; i < waits.length; i++)
      expect(waits[i]).toBe(Math.min(2 * waits[i - 1], DEPOSIT_SEARCH_BACKOFF_MAX_MS));
    expect(Math.max(...waits)).toBe(DEPOSIT_SEARCH_BACKOFF_MAX_MS);

    // The last allowed failure ends the search: nothing is due any more and the expiry is no longer held.
    const givenUp = given([attemptPrepared], [...events, failed(t)]);
    expect(givenUp.state.depositSearched).toBe(true);
    expect(givenUp.state.depositFound).toBe(false);
    expect(depositSearchHeld(givenUp.state)).toBe(false);
    givenUp.whenPlanned(t + DEPOSIT_SEARCH_BACKOFF_MAX_MS).then([]);
  });

  it('a deposit search that succeeds after failures clears its retry; one never tried holds nothing (N-H1)', () => {
    const state = [
      { type: 'DepositSearchFailed', at: EVIDENCE_DEADLINE } as TrackingEvent,
      { type: 'DepositSearched', found: true } as TrackingEvent,
    ].reduce(evolveTracking, initialTrackingState);
    expect(state.depositSearchRetry).toBeNull();
    expect(state.depositFound).toBe(true);
    expect(depositSearchHeld(state)).toBe(false);
    expect(depositSearchHeld(initialTrackingState)).toBe(false);
  });

  it('a terminal attempt has nothing due and never wakes; an open one wakes at its next poll or deadline', () => {
    const settled = given([
      ...submittedWithSignature,
      { type: 'AttemptFailed', data: { errorCode: 'refunded', errorMessage: 'x', at } },
    ]);
    settled.whenPlanned(at).then([]);
    expect(settled.wakeAt(at)).toBe(Infinity);
    const waiting = given([attemptPrepared], [polled('s-eth', at, { nextPollAt: at + 8000 })]);
    expect(waiting.wakeAt(at)).toBe(at + 8000);
    const late = given([attemptPrepared], [polled('s-eth', at, { nextPollAt: EVIDENCE_DEADLINE + 60_000 })]);
    expect(late.wakeAt(at)).toBe(EVIDENCE_DEADLINE);
  });

  it('an unknown hash backs off and is given up after the policy time, then recorded once (H5)', () => {
    let state = initialTrackingState;
    let now = at;
    for (let i = 0; i < 30 && !hashGivenUp(state, 1, hash(1), now, policy); i++) {
      state = evolveTracking(state, scheduleHash(state, 1, hash(1), now, policy));
      now = state.hashes[`1:${hash(1)}`].nextReadAt;
    }
    expect(hashGivenUp(state, 1, hash(1), now, policy)).toBe(true);
    expect(now - at).toBeGreaterThanOrEqual(policy.hashGiveUpMs);
    // Reads back off: far fewer than one per second.
    expect(Object.values(state.hashes)[0].delayMs).toBe(policy.hashRetryMaxMs);
  });
});

describe('tracking workflow: what an answer means', () => {
  const record = given([
    ...submittedWithSignature,
    sourceConfirmed(1, hash(2), ['chain:1:call:1'], at),
  ]).record;
  const interpret = (
    answer: Parameters<typeof interpretProviderAnswer>[3],
    state = initialTrackingState,
    now = at,
  ) => interpretProviderAnswer(record, state, 's-eth', answer, { now, traits: TRAITS.relay, policy });

  it('a reported failure is pending while a refund can still follow, final after the grace (D3)', () => {
    const first = interpret({ state: 'failed', providerStatus: 'failure', reason: 'solver' });
    expect(first.step).toEqual({
      kind: 'observe',
      progress: { state: 'pending', providerStatus: 'failure' },
    });
    const state = evolveTracking(initialTrackingState, first.schedule);
    expect(
      interpret({ state: 'failed', providerStatus: 'failure', reason: 'solver' }, state, at + 59_999).step,
    ).toEqual({
      kind: 'observe',
      progress: { state: 'pending', providerStatus: 'failure' },
    });
    expect(
      interpret({ state: 'failed', providerStatus: 'failure', reason: 'solver' }, state, at + 60_000).step,
    ).toEqual({
      kind: 'observe',
      progress: { state: 'failed', reason: 'solver' },
    });
    // A refund after the failure is a refund.
    expect(
      interpret(
        {
          state: 'refunded',
          providerStatus: 'refund',
          refundTxHash: hash(9),
          refundChainId: null,
          reason: null,
        },
        state,
      ).step,
    ).toEqual({
      kind: 'read_refund',
      refundTxHash: hash(9),
      refundChainId: null,
      reason: 'refunded by the provider',
      refundToken: null,
    });
  });

  it('a refund in a token the provider names is read in that token, not assumed the source token (N10)', () => {
    const usdc = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
    expect(
      interpret({
        state: 'refunded',
        providerStatus: 'refund',
        refundTxHash: hash(9),
        refundChainId: 42161,
        reason: 'SLIPPAGE',
        refundToken: usdc,
      }).step,
    ).toEqual({
      kind: 'read_refund',
      refundTxHash: hash(9),
      refundChainId: 42161,
      reason: 'SLIPPAGE',
      refundToken: usdc,
    });
  });

  it("a pending answer naming the deposit's fill deadline records it with the leg (issue 24 item 2)", () => {
    expect(
      interpret({ state: 'pending', providerStatus: 'INPROGRESS', fillDeadlineAt: at + 3_600_000 }).step,
    ).toEqual({
      kind: 'observe',
      progress: { state: 'pending', providerStatus: 'INPROGRESS', fillDeadlineAt: at + 3_600_000 },
    });
  });

  it('a fill is read from the chain before anything is recorded; a failed destination action reads the other token (D6)', () => {
    const filled = {
      state: 'filled' as const,
      providerStatus: 'success',
      destinationTxHash: hash(900),
      actualOutputRaw: '5',
    };
    expect(interpret({ ...filled, destinationActionFailed: null }).step).toEqual({
      kind: 'read_fill',
      fillTxHash: hash(900),
      providerAmount: '5',
    });
    expect(interpret({ ...filled, destinationActionFailed: { token: '0x04' } }).step).toEqual({
      kind: 'read_other_delivery',
      fillTxHash: hash(900),
      token: '0x04',
    });
  });

  it("a slow fill whose actions' outcome is unreported is read as a fill, with the bridged token to fall back on (N13)", () => {
    const slow = {
      state: 'filled' as const,
      providerStatus: 'slowFilled',
      destinationTxHash: hash(901),
      actualOutputRaw: null,
      destinationActionFailed: null,
      destinationActionUnreported: { token: '0x04' },
    };
    expect(interpret(slow).step).toEqual({
      kind: 'read_fill',
      fillTxHash: hash(901),
      providerAmount: null,
      actionFallbackToken: '0x04',
    });
  });

  it('a provider that answers 429 with Retry-After is not asked again sooner than it said', () => {
    const asked = interpret({ state: 'unavailable', reason: '429', retryAfterMs: 20_000 }).schedule;
    expect(asked).toMatchObject({ schedule: { nextPollAt: at + 20_000 } });
    const unsaid = interpret({ state: 'unavailable', reason: '503' }).schedule;
    expect(unsaid).toMatchObject({ schedule: { nextPollAt: at + 1000 } });
  });

  it('polls back off while nothing changes and come back soon after a change', () => {
    const a = evolveTracking(
      initialTrackingState,
      interpret({ state: 'pending', providerStatus: 'pending' }).schedule,
    );
    const b = evolveTracking(a, interpret({ state: 'unavailable', reason: 'x' }, a, at + 1000).schedule);
    expect([a.legs['s-eth'].delayMs, b.legs['s-eth'].delayMs]).toEqual([1000, 2000]);
  });
});

describe('tracking workflow: what a fill read means (H2)', () => {
  const base = {
    fillTxHash: hash(900),
    claimedElsewhere: false,
    providerAmount: '100',
    expectedOutputRaw: '100',
  };
  it.each([
    [
      'a reverted fill',
      { basis: 'unreadable', reason: 'reverted' },
      { state: 'fill_rejected', destinationTxHash: hash(900), reason: 'the fill transaction reverted' },
    ],
    [
      'a fill of nothing',
      { basis: 'exact', amount: '0' },
      {
        state: 'fill_rejected',
        destinationTxHash: hash(900),
        reason: 'the fill delivered none of the target token to the recipient',
      },
    ],
    ['a node that has not seen it', { basis: 'unreadable', reason: 'not_found' }, null],
    [
      'an exact read',
      { basis: 'exact', amount: '99' },
      { state: 'filled', destinationTxHash: hash(900), settledAmount: '99', amountBasis: 'exact' },
    ],
    [
      // Issue 24 item 5: the provider's word alone, unless the partner accepts estimated settlement (below).
      'a chain the service cannot read',
      { basis: 'chain_unreadable' },
      {
        state: 'fill_rejected',
        destinationTxHash: hash(900),
        reason:
          'the destination chain is not one this service reads (CHAINS_FILE): the provider says it filled, which alone never settles a leg unless the partner accepts estimated settlement',
      },
    ],
  ] as const)('%s', (_name, read, expected) => {
    expect(interpretFill({ ...base, read })).toEqual(expected);
  });

  it('an estimated fill (a chain not read, a native payout the node cannot trace) claimed by another leg never settles (N6)', () => {
    for (const read of [
      { basis: 'chain_unreadable' },
      { basis: 'unreadable', reason: 'untraceable' },
    ] as const) {
      expect(interpretFill({ ...base, read, claimedElsewhere: true })).toEqual({
        state: 'fill_rejected',
        destinationTxHash: hash(900),
        reason: 'the fill is already the delivery of another leg',
      });
      expect(interpretFill({ ...base, read, acceptEstimated: true })).toMatchObject({
        state: 'filled',
        amountBasis: 'estimated',
      });
    }
  });

  it("a chain the service cannot read settles on the provider's word only for a partner that accepts it (issue 24 item 5)", () => {
    const read = { basis: 'chain_unreadable' } as const;
    // Given the partner setting off (the default), when the provider names a fill there, then it is rejected.
    expect(interpretFill({ ...base, read })).toMatchObject({ state: 'fill_rejected' });
    expect(interpretFill({ ...base, read, acceptEstimated: false })).toMatchObject({
      state: 'fill_rejected',
    });
    // Given acceptEstimatedSettlement, then filled at the provider's figure, labelled estimated.
    expect(interpretFill({ ...base, read, acceptEstimated: true })).toEqual({
      state: 'filled',
      destinationTxHash: hash(900),
      settledAmount: '100',
      amountBasis: 'estimated',
    });
    // A native payout the node cannot trace is another matter (the chain is read): unchanged, estimated.
    expect(interpretFill({ ...base, read: { basis: 'unreadable', reason: 'untraceable' } })).toMatchObject({
      state: 'filled',
      amountBasis: 'estimated',
    });
  });

  it('a fill already claimed by another leg, or no fill hash at all, never settles (H3)', () => {
    expect(
      interpretFill({ ...base, read: { basis: 'exact', amount: '100' }, claimedElsewhere: true }),
    ).toMatchObject({
      state: 'fill_rejected',
    });
    expect(
      interpretFill({ ...base, fillTxHash: null, read: { basis: 'unreadable', reason: 'not_found' } }),
    ).toMatchObject({
      state: 'fill_rejected',
      reason: 'the provider named no fill transaction',
    });
    // Nor on the provider's word where the chain cannot be read, even for a partner that accepts estimated (H2).
    for (const read of [
      { basis: 'chain_unreadable' },
      { basis: 'unreadable', reason: 'untraceable' },
    ] as const) {
      expect(interpretFill({ ...base, fillTxHash: null, read, acceptEstimated: true })).toEqual({
        state: 'fill_rejected',
        destinationTxHash: null,
        reason: 'the provider named no fill transaction',
      });
    }
  });
});

describe('tracking workflow: which legs run late', () => {
  const traits = { ...TRAITS.across, expectedFillSeconds: 60 };
  const history = [...submittedWithSignature, sourceConfirmed(42161, hash(5), ['chain:42161:call:0'], at)];
  const late = (now: number) =>
    delayedLegs(given(history).record, {
      now,
      traitsOf: (p) => (p === 'across' ? traits : null),
      delayMarginMs: 0,
    });

  it('an open leg is late once its deposit has been confirmed for longer than the provider expects', () => {
    expect(late(at + 59_999)).toEqual([]);
    expect(late(at + 60_000)).toEqual([{ sliceId: 's-arb', since: at, expectedBy: at + 60_000 }]);
  });

  it("the quote's own ETA comes before the adapter's figure, plus the margin", () => {
    const quoted = history.map((e) =>
      e.type === 'AttemptPrepared'
        ? {
            ...e,
            data: {
              ...e.data,
              legs: e.data.legs.map((l) => ({
                ...l,
                slices: l.slices.map((sl) => (sl.sliceId === 's-arb' ? { ...sl, etaSeconds: 10 } : sl)),
              })),
            },
          }
        : e,
    );
    const late = (now: number) =>
      delayedLegs(given(quoted).record, {
        now,
        traitsOf: (p) => (p === 'across' ? traits : null),
        delayMarginMs: 5000,
      });
    expect(late(at + 14_999)).toEqual([]);
    expect(late(at + 15_000)).toEqual([{ sliceId: 's-arb', since: at, expectedBy: at + 15_000 }]);
  });

  it('the attempt wakes when a leg turns late, so the mark is not left to chance', () => {
    const wake = nextWakeAt(
      given(history, [polled('s-arb', at, { nextPollAt: at + 500_000 })]).record,
      given(history, [polled('s-arb', at, { nextPollAt: at + 500_000 })]).state,
      {
        now: at + 1,
        traitsOf: (p) => (p === 'across' ? traits : (TRAITS[p] ?? null)),
        readable: () => true,
        trackingLimitMs: policy.trackingLimitMs,
        delayMarginMs: 0,
      },
    );
    expect(wake).toBeLessThanOrEqual(at + 60_000);
  });
});
