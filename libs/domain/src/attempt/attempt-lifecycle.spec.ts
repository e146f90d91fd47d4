import { type AttemptEvent } from './attempt.events';
import { type AttemptCommand } from './attempt.commands';
import { decideAttempt } from './decide-attempt';
import { type AttemptState } from './attempt-record';
import { evolveAttempt, initialAttemptState } from './attempt.state';
import {
  attemptPrepared,
  checkDeadlines,
  confirmTx,
  EVIDENCE_DEADLINE,
  filled,
  hash,
  observeLeg,
  report,
  revertTx,
  SIG,
  T0,
  TRACKING_LIMIT,
} from './attempt.fixture';

const LIFECYCLE = [
  'AttemptWalletSubmitted',
  'AttemptProviderPending',
  'AttemptSettled',
  'AttemptFailed',
  'AttemptExpired',
];

/** Runs commands one after another as the handlers would (decide, append, fold), refusals skipped. */
function run(commands: AttemptCommand[], history: AttemptEvent[] = [attemptPrepared]) {
  let state: AttemptState = history.reduce(evolveAttempt, initialAttemptState);
  const appended: AttemptEvent[] = [];
  for (const command of commands) {
    let events: AttemptEvent[] = [];
    try {
      events = decideAttempt(command, state);
    } catch {
      continue;
    }
    appended.push(...events);
    state = events.reduce(evolveAttempt, state);
  }
  return {
    state,
    lifecycle: appended.filter((e) => LIFECYCLE.includes(e.type)).map((e) => e.type),
    appended,
  };
}

const eth = { chainId: 1, bundleId: null, txHashes: [hash(1)] };
const t = (s: number) => T0 + s * 1000;
const allFilled = (at: number) => [
  observeLeg('s-eth', filled('1000000000'), at),
  observeLeg('s-arb', filled('249000000'), at),
  observeLeg('s-base', filled('50000000'), at),
];

describe('attempt lifecycle', () => {
  it.each([
    [
      'evidence, confirmation, fills',
      [report('r1', [eth], t(1), SIG), confirmTx(1, hash(1), [], t(2)), ...allFilled(t(3))],
    ],
    ['fills before evidence', [...allFilled(t(1)), report('r1', [eth], t(2), SIG)]],
    [
      'fills, then unsigned evidence, then the signature',
      [...allFilled(t(1)), report('r1', [eth], t(2)), report('r2', [eth], t(3), SIG)],
    ],
    ['fills right after evidence', [report('r1', [eth], t(1), SIG), ...allFilled(t(2))]],
  ])(
    'walks prepared → wallet_submitted → provider_pending → settled without a skip (%s)',
    (_name, commands) => {
      const { state, lifecycle } = run(commands);
      expect(lifecycle).toEqual(['AttemptWalletSubmitted', 'AttemptProviderPending', 'AttemptSettled']);
      expect(state.status).toBe('settled');
    },
  );

  it('fails through provider_pending when a provider refunded, and from wallet_submitted when every tx reverted', () => {
    const refunded = run([
      report('r1', [eth], t(1)),
      observeLeg('s-arb', { state: 'refunded', refundTxHash: null, reason: 'expired quote' }, t(2)),
      observeLeg('s-eth', filled('1'), t(3)),
      observeLeg('s-base', filled('1'), t(3)),
    ]);
    expect(refunded.lifecycle).toEqual(['AttemptWalletSubmitted', 'AttemptProviderPending', 'AttemptFailed']);
    const allReverted = run([
      report(
        'r1',
        [
          eth,
          { chainId: 42161, bundleId: 'b', txHashes: [] },
          { chainId: 8453, bundleId: null, txHashes: [hash(3)] },
        ],
        t(1),
      ),
      revertTx(1, hash(1), t(2)),
      revertTx(42161, hash(2), t(2)),
      revertTx(8453, hash(3), t(2)),
    ]);
    expect(allReverted.lifecycle).toEqual(['AttemptWalletSubmitted', 'AttemptFailed']);
  });

  const endings: [string, AttemptCommand[]][] = [
    ['settled', [report('r1', [eth], t(1), SIG), ...allFilled(t(2))]],
    ['failed', [report('r1', [eth], t(1)), checkDeadlines(T0 + TRACKING_LIMIT)]],
    ['expired', [checkDeadlines(EVIDENCE_DEADLINE)]],
  ];
  const later = T0 + TRACKING_LIMIT * 2;
  const everything: AttemptCommand[] = [
    report('r9', [{ chainId: 1, bundleId: 'late', txHashes: [hash(9)] }], later, SIG),
    confirmTx(1, hash(9), [], later),
    revertTx(42161, hash(8), later),
    ...allFilled(later),
    observeLeg('s-eth', { state: 'failed', reason: 'x' }, later),
    checkDeadlines(later, false),
    checkDeadlines(later, true),
  ];

  it.each(endings)('never leaves %s, whatever comes after', (status, commands) => {
    const ended = run(commands);
    expect(ended.state.status).toBe(status);
    const after = run(everything, [attemptPrepared, ...ended.appended]);
    expect(after.state.status).toBe(status);
    expect(after.lifecycle).toEqual([]);
  });

  it('ignores lifecycle events appended after a terminal one when folding', () => {
    const state = [
      attemptPrepared,
      { type: 'AttemptExpired', data: { at: t(1) } },
      { type: 'AttemptWalletSubmitted', data: { at: t(2) } },
      { type: 'AttemptSettled', data: { at: t(3) } },
    ].reduce((s, e) => evolveAttempt(s, e as AttemptEvent), initialAttemptState);
    expect(state).toMatchObject({ status: 'expired', endedAt: t(1), walletSubmittedAt: null });
  });
});
