import { attemptSnapshot } from './attempt-snapshot';
import { attemptDecider } from './attempt.decider';
import { type AttemptEvent } from './attempt.events';
import { prepared } from './attempt.fixture';
import { NO_FEES, sliceFees } from './slice-fees';
import { type QuotedSliceExecution } from '../intent-session/intent-session.events';

const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

/** A quoted slice of `amount` raw units on chain 1, whose provider charges `collectedBps` of the app fee. */
const quoted = (
  amount: string,
  appFee: QuotedSliceExecution['appFee'],
): Pick<QuotedSliceExecution, 'provider' | 'appFee' | 'feeUsd' | 'feeBreakdown' | 'quotedWith'> => ({
  provider: 'mayan',
  appFee,
  feeUsd: 1.25,
  feeBreakdown: [{ kind: 'provider', usd: 1.25 }],
  quotedWith: {
    sliceId: 's1',
    wallet: '0x01',
    recipient: '0x02',
    refundTo: '0x01',
    source: { chainId: 1, token: TOKEN, amount, decimals: 6 },
    target: { chainId: 8453, token: '0x03', decimals: 6 },
    slippageBps: 50,
    appFeeBps: 30,
    appFeeRecipient: '0x04',
  },
});

describe('sliceFees: a leg’s fees as quoted', () => {
  it('splits the whole asked rate into the service fee and the markup, in bigint base units of the input', () => {
    const fees = sliceFees(
      { serviceFeeBps: 10, markupBps: 20 },
      quoted('123456789012345678901234567890', {
        paidAs: 'destination_transfer',
        bps: 30,
        chainId: 8453,
        token: '0x03',
        claim: null,
      }),
    );
    expect(fees).toEqual({
      providerFees: { provider: 'mayan', totalUsd: 1.25, lines: [{ kind: 'provider', usd: 1.25 }] },
      serviceFee: {
        bps: 10,
        collectedBps: 30,
        chainId: 1,
        token: TOKEN,
        rawAmount: '123456789012345678901234567',
        paidAs: 'destination_transfer',
      },
      partnerMarkup: {
        bps: 20,
        collectedBps: 30,
        chainId: 1,
        token: TOKEN,
        rawAmount: '246913578024691357802469135',
        paidAs: 'destination_transfer',
      },
    });
  });

  it('shares a capped rate in proportion and rounds each share down once', () => {
    // 30 bps asked, 25 charged: service 10/30 of 25 bps, markup 20/30 of it, of 1 000 001 units.
    const fees = sliceFees(
      { serviceFeeBps: 10, markupBps: 20 },
      quoted('1000001', { paidAs: 'source_transfer', bps: 25, chainId: 1, token: TOKEN, claim: null }),
    );
    expect([fees.serviceFee?.rawAmount, fees.partnerMarkup?.rawAmount]).toEqual([
      String((1_000_001n * 10n * 25n) / (30n * 10_000n)),
      String((1_000_001n * 20n * 25n) / (30n * 10_000n)),
    ]);
    expect([fees.serviceFee?.rawAmount, fees.partnerMarkup?.rawAmount]).toEqual(['833', '1666']);
  });

  it('gives no share when nothing was asked or the provider charges nothing, and no figure when it quoted none', () => {
    const none = sliceFees(
      { serviceFeeBps: 0, markupBps: 0 },
      { ...quoted('5000', null), feeUsd: undefined, feeBreakdown: undefined },
    );
    expect(none).toEqual({
      providerFees: { provider: 'mayan', totalUsd: null, lines: [] },
      serviceFee: null,
      partnerMarkup: null,
    });
    const uncollected = sliceFees({ serviceFeeBps: 10, markupBps: 5 }, quoted('5000000', null));
    expect([uncollected.serviceFee?.rawAmount, uncollected.partnerMarkup?.rawAmount]).toEqual(['0', '0']);
  });

  it('shows on the snapshot leg when the attempt recorded it, and is absent on attempts prepared before', () => {
    const fees = sliceFees(
      { serviceFeeBps: 10, markupBps: 0 },
      quoted('1000000', { paidAs: 'offchain_balance', bps: 10, chainId: null, token: null, claim: 'api' }),
    );
    const withFees: AttemptEvent = {
      type: 'AttemptPrepared',
      data: {
        ...prepared,
        legs: prepared.legs.map((leg) => ({
          ...leg,
          slices: leg.slices.map((s) => ({ ...s, fees: s.noop ? NO_FEES : fees })),
        })),
      },
    };
    const legsOf = (event: AttemptEvent) => {
      const state = attemptDecider.evolve(attemptDecider.initialState, event);
      if (state.status === 'none') throw new Error('no attempt');
      return attemptSnapshot(state, { chainName: (id) => `chain ${id}` }).perChainStatus.flatMap(
        (c) => c.legs,
      );
    };
    expect(legsOf(withFees).map((l) => l.fees)).toEqual([fees, fees, NO_FEES]);
    expect(legsOf({ type: 'AttemptPrepared', data: prepared }).map((l) => 'fees' in l)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
