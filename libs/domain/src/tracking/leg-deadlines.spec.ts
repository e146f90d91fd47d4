import { type AttemptEvent } from '../attempt/attempt.events';
import { type AttemptRecord } from '../attempt/attempt-record';
import { evolveAttempt, initialAttemptState } from '../attempt/attempt.state';
import { hash, legSettled, sourceConfirmed, submittedWithSignature, T0 } from '../attempt/attempt.fixture';
import { legDeadlines } from './leg-deadlines';
import { nextWakeAt } from './plan-tracking';
import { type TrackingTraits } from './tracking-traits';
import { initialTrackingState } from './tracking.state';

const HOUR = 3_600_000;
const LIMIT = 2 * HOUR;
const ACROSS: TrackingTraits = {
  pollsBeforeSourceTx: false,
  minPollIntervalMs: 10_000,
  failureGraceMs: 0,
  fillWindowMs: 2 * HOUR,
  refundWindowMs: 6 * HOUR,
};
const RELAY: TrackingTraits = { pollsBeforeSourceTx: true, minPollIntervalMs: 1000, failureGraceMs: 600_000 };
/** The Relay adapter's windows (relay.adapter.ts): the quote's minute of life, then 2 h for a refund. */
const RELAY_WINDOWS: TrackingTraits = { ...RELAY, fillWindowMs: 60_000, refundWindowMs: 2 * HOUR };
const TRAITS: Record<string, TrackingTraits> = { across: ACROSS, relay: RELAY };
const input = { traitsOf: (p: string) => TRAITS[p] ?? null, trackingLimitMs: LIMIT };
const fold = (events: AttemptEvent[]) => events.reduce(evolveAttempt, initialAttemptState) as AttemptRecord;

/** given: the attempt's events; when: the workflow asks until when each open leg is followed. */
const given = (events: AttemptEvent[]) => ({
  then: (expected: Record<string, number>) => expect(legDeadlines(fold(events), input)).toEqual(expected),
});

describe('leg deadlines: each leg followed as long as its provider can still act (issue 24 item 2, N2)', () => {
  const confirmedAt = T0 + 20_000;
  const arbConfirmed = sourceConfirmed(42161, hash(5), ['chain:42161:call:0'], confirmedAt);

  it('an across leg whose deposit confirmed: until the deposit + the fill window + the refund window, past 2 h', () => {
    given([...submittedWithSignature, arbConfirmed]).then({
      's-eth': T0 + LIMIT,
      's-arb': confirmedAt + 2 * HOUR + 6 * HOUR,
      's-base': T0 + LIMIT,
    });
  });

  it("the deposit's own fill deadline, once read, replaces the assumed window", () => {
    const fillDeadlineAt = confirmedAt + 3 * HOUR;
    given([
      ...submittedWithSignature,
      arbConfirmed,
      {
        type: 'LegPending',
        data: { sliceId: 's-arb', providerStatus: 'pending', at: confirmedAt, fillDeadlineAt },
      },
    ]).then({ 's-eth': T0 + LIMIT, 's-arb': fillDeadlineAt + 6 * HOUR, 's-base': T0 + LIMIT });
  });

  /** The attempt prepared with the s-arb leg's tracking context extended by what its quote said of a refund. */
  const withQuotedTerms = (terms: Record<string, unknown>): AttemptEvent[] =>
    submittedWithSignature.map((e) => {
      if (e.type !== 'AttemptPrepared') return e;
      const legs = e.data.legs.map((leg) => ({
        ...leg,
        slices: leg.slices.map((s) =>
          s.sliceId === 's-arb' ? { ...s, trackingContext: { ...s.trackingContext, ...terms } } : s,
        ),
      }));
      return { ...e, data: { ...e.data, legs } };
    });

  it("an across quote's refundPolicy.expectedRefundTimeMs longer than the bundle path lengthens the window (N15)", () => {
    given([...withQuotedTerms({ refundWindowMs: 10 * HOUR }), arbConfirmed]).then({
      's-eth': T0 + LIMIT,
      's-arb': confirmedAt + 2 * HOUR + 10 * HOUR,
      's-base': T0 + LIMIT,
    });
    // A shorter estimate never cuts the documented bundle path short.
    given([...withQuotedTerms({ refundWindowMs: HOUR / 2 }), arbConfirmed]).then({
      's-eth': T0 + LIMIT,
      's-arb': confirmedAt + 2 * HOUR + 6 * HOUR,
      's-base': T0 + LIMIT,
    });
  });

  it('a route whose quote says it has no refund (irreversible_rail) is not followed for one (N15)', () => {
    given([...withQuotedTerms({ refundUnsupported: 'irreversible_rail' }), arbConfirmed]).then({
      's-eth': T0 + LIMIT,
      's-arb': confirmedAt + 2 * HOUR,
      's-base': T0 + LIMIT,
    });
  });

  it("a relay leg is followed from its deposit's confirmation: a late deposit gets its full window (item 4)", () => {
    const lateConfirmedAt = T0 + 10 * 60_000;
    const ethConfirmed = sourceConfirmed(1, hash(6), ['chain:1:call:0', 'chain:1:call:1'], lateConfirmedAt);
    expect(
      legDeadlines(fold([...submittedWithSignature, ethConfirmed]), {
        ...input,
        traitsOf: (p) => (p === 'relay' ? RELAY_WINDOWS : (TRAITS[p] ?? null)),
      }),
    ).toEqual({ 's-eth': lateConfirmedAt + 60_000 + 2 * HOUR, 's-arb': T0 + LIMIT, 's-base': T0 + LIMIT });
  });

  it('no deposit seen, a provider without windows (relay) or a no-op leg: the tracking limit', () => {
    given(submittedWithSignature).then({ 's-eth': T0 + LIMIT, 's-arb': T0 + LIMIT, 's-base': T0 + LIMIT });
  });

  it('a leg whose provider already named a fill (rejected) is not owed: no refund follows a fill', () => {
    given([
      ...submittedWithSignature,
      arbConfirmed,
      {
        type: 'LegFillRejected',
        data: {
          sliceId: 's-arb',
          destinationTxHash: hash(901),
          reason: 'the fill delivered nothing',
          at: T0 + 30_000,
        },
      },
    ]).then({ 's-eth': T0 + LIMIT, 's-arb': T0 + LIMIT, 's-base': T0 + LIMIT });
  });

  it('a deadline is never before the tracking limit; ended legs have none', () => {
    const early = { ...ACROSS, fillWindowMs: 1000, refundWindowMs: 1000 };
    expect(
      legDeadlines(fold([...submittedWithSignature, arbConfirmed, legSettled('s-eth', '1', T0 + 5)]), {
        ...input,
        traitsOf: (p) => (p === 'across' ? early : null),
      }),
    ).toEqual({ 's-arb': T0 + LIMIT, 's-base': T0 + LIMIT });
  });

  it('the tracker wakes at the owed leg deadline after the tracking limit', () => {
    const record = fold([...submittedWithSignature, arbConfirmed]);
    const owed = nextWakeAt(
      record,
      {
        ...initialTrackingState,
        legs: {
          's-arb': { nextPollAt: Infinity, delayMs: 30_000, lastPollAt: null, failureSince: null },
          's-eth': { nextPollAt: Infinity, delayMs: 30_000, lastPollAt: null, failureSince: null },
          's-base': { nextPollAt: Infinity, delayMs: 30_000, lastPollAt: null, failureSince: null },
        },
      },
      {
        now: T0 + LIMIT + 1,
        traitsOf: (p) => TRAITS[p] ?? null,
        readable: () => false,
        trackingLimitMs: LIMIT,
        delayMarginMs: 0,
      },
    );
    // Past the tracking limit, with every poll far off, the owed across leg's own deadline wakes the attempt.
    expect(owed).toBe(confirmedAt + 8 * HOUR);
  });
});
