import { deciderSpec } from '@svc/testing';
import { type AttemptEvent } from './attempt.events';
import {
  attemptUnderTest,
  attemptPrepared,
  authorizationSigned,
  EVIDENCE_DEADLINE,
  evidenceReported,
  hash,
  legSettled,
  providerPending,
  report,
  SIG,
  sourceConfirmed,
  submittedWithSignature,
  T0,
  walletSubmitted,
} from './attempt.fixture';

const attempt = deciderSpec(attemptUnderTest);
const refused = (code: string) => expect.objectContaining({ name: 'AttemptRefusedError', code });
const eth = (...txHashes: string[]) => ({ chainId: 1, bundleId: null, txHashes });
const at = T0 + 10_000;

describe('ReportEvidence', () => {
  it('accepts the first evidence: EvidenceReported, then AttemptWalletSubmitted', () => {
    attempt
      .given([attemptPrepared])
      .when(report('r1', [eth(hash(1))], at))
      .then([evidenceReported('r1', [eth(hash(1))], at), walletSubmitted(at)]);
  });

  it('records the partner submittedAt and a bundle id without hashes', () => {
    const arb = { chainId: 42161, bundleId: 'bundle-1', txHashes: [] };
    attempt
      .given([attemptPrepared])
      .when({
        type: 'ReportEvidence',
        data: { reportId: 'r1', chainResults: [arb], submittedAt: T0 + 5, signature: null, now: at },
      })
      .then([
        {
          type: 'EvidenceReported',
          data: { reportId: 'r1', reportedAt: at, submittedAt: T0 + 5, chainResults: [arb] },
        },
        walletSubmitted(at),
      ]);
  });

  it('replays a report id it already recorded as nothing, whatever the report now says', () => {
    const history = [attemptPrepared, evidenceReported('r1', [eth(hash(1))]), walletSubmitted()];
    attempt
      .given(history)
      .when(report('r1', [eth(hash(1))], at))
      .then([]);
    attempt
      .given(history)
      .when(report('r1', [eth(hash(1), hash(2))], at, SIG))
      .then([]);
  });

  it('records only hashes and bundle ids not recorded before, and nothing when nothing is new', () => {
    const history = [attemptPrepared, evidenceReported('r1', [eth(hash(1))]), walletSubmitted()];
    attempt
      .given(history)
      .when(report('r2', [eth(hash(1), hash(2)), { chainId: 42161, bundleId: 'b', txHashes: [] }], at))
      .then([evidenceReported('r2', [eth(hash(2)), { chainId: 42161, bundleId: 'b', txHashes: [] }], at)]);
    attempt
      .given(history)
      .when(report('r2', [eth(hash(1))], at))
      .then([]);
    attempt
      .given(history)
      .when(
        report(
          'r2',
          [{ chainId: 1, bundleId: hash(1), txHashes: [hash(1).toUpperCase().replace('0X', '0x')] }],
          at,
        ),
      )
      .then([evidenceReported('r2', [{ chainId: 1, bundleId: hash(1), txHashes: [] }], at)]);
  });

  it('refuses initial evidence at or after evidenceDeadlineAt', () => {
    attempt
      .given([attemptPrepared])
      .when(report('r1', [eth(hash(1))], EVIDENCE_DEADLINE))
      .thenThrows(refused('evidence_deadline_passed'));
    // The refusal names the deadline that passed and what to do next.
    attempt
      .given([attemptPrepared])
      .when(report('r1', [eth(hash(1))], EVIDENCE_DEADLINE))
      .thenThrows(
        `after the attempt's evidenceDeadlineAt ${new Date(EVIDENCE_DEADLINE).toISOString()}: nothing more can be reported for it; if the wallet did not execute its chain actions, quote again and prepare a new attempt`,
      );
    attempt
      .given([attemptPrepared])
      .when(report('r1', [eth(hash(1))], EVIDENCE_DEADLINE - 1))
      .then([
        evidenceReported('r1', [eth(hash(1))], EVIDENCE_DEADLINE - 1),
        walletSubmitted(EVIDENCE_DEADLINE - 1),
      ]);
  });

  it('accepts later evidence at any time once initial evidence was accepted', () => {
    const late = EVIDENCE_DEADLINE + 86_400_000;
    attempt
      .given([attemptPrepared, evidenceReported('r1', [eth(hash(1))]), walletSubmitted()])
      .when(report('r2', [eth(hash(2))], late))
      .then([evidenceReported('r2', [eth(hash(2))], late)]);
  });

  it('keeps late initial evidence when the tracker already saw the deposit, catching the lifecycle up', () => {
    const late = EVIDENCE_DEADLINE + 1;
    attempt
      .given([attemptPrepared, sourceConfirmed(1, hash(1), ['chain:1:call:1'], T0 + 60_000)])
      .when(report('r1', [eth(hash(1))], late))
      .then([evidenceReported('r1', [eth(hash(1))], late), walletSubmitted(late), providerPending(late)]);
  });

  it('refuses evidence on an expired attempt', () => {
    attempt
      .given([attemptPrepared, { type: 'AttemptExpired', data: { at: EVIDENCE_DEADLINE } }])
      .when(report('r1', [eth(hash(1))], EVIDENCE_DEADLINE + 1))
      .thenThrows(refused('evidence_deadline_passed'));
  });

  it('refuses a chain the attempt has no chain action on, before and after acceptance', () => {
    const bsc = { chainId: 56, bundleId: null, txHashes: [hash(5)] };
    attempt
      .given([attemptPrepared])
      .when(report('r1', [eth(hash(1)), bsc], at))
      .thenThrows(refused('unknown_chain'));
    attempt
      .given(submittedWithSignature)
      .when(report('r2', [bsc], at))
      .thenThrows(refused('unknown_chain'));
  });

  it('refuses evidence for an attempt that does not exist', () => {
    attempt
      .given([])
      .when(report('r1', [eth(hash(1))], at))
      .thenThrows(refused('attempt_not_found'));
  });

  it('records the signature once: with the first report that carries it, never again', () => {
    attempt
      .given([attemptPrepared])
      .when(report('r1', [eth(hash(1))], at, SIG))
      .then([evidenceReported('r1', [eth(hash(1))], at), authorizationSigned(at), walletSubmitted(at)]);
    const signed = [
      attemptPrepared,
      evidenceReported('r1', [eth(hash(1))]),
      authorizationSigned(),
      walletSubmitted(),
    ];
    attempt
      .given(signed)
      .when(report('r2', [eth(hash(1))], at, { value: `0x${'22'.repeat(65)}`, signer: SIG.signer }))
      .then([]);
    attempt
      .given(signed)
      .when(report('r2', [eth(hash(2))], at, SIG))
      .then([evidenceReported('r2', [eth(hash(2))], at)]);
  });

  it('records a signature that arrives with nothing new', () => {
    attempt
      .given([attemptPrepared, evidenceReported('r1', [eth(hash(1))]), walletSubmitted()])
      .when(report('r2', [eth(hash(1))], at, SIG))
      .then([authorizationSigned(at)]);
  });

  it('settles when the signature arrives after every leg settled', () => {
    const settledUnsigned: AttemptEvent[] = [
      attemptPrepared,
      evidenceReported('r1', [eth(hash(1))]),
      walletSubmitted(),
      legSettled('s-eth', '1000000000', T0 + 20_000),
      providerPending(T0 + 20_000),
      legSettled('s-arb', '249500000', T0 + 21_000),
      legSettled('s-base', '50000000', T0 + 22_000),
    ];
    const later = T0 + 30_000;
    attempt
      .given(settledUnsigned)
      .when(report('r2', [eth(hash(1))], later, SIG))
      .then([authorizationSigned(later), { type: 'AttemptSettled', data: { at: later } }]);
  });

  it('still records evidence on a settled or failed attempt, with no lifecycle event', () => {
    const settled = [...submittedWithSignature, { type: 'AttemptSettled', data: { at } } as AttemptEvent];
    const failed: AttemptEvent[] = [
      attemptPrepared,
      evidenceReported('r1', [eth(hash(1))]),
      walletSubmitted(),
      { type: 'AttemptFailed', data: { errorCode: 'settlement_timeout', errorMessage: 'late', at } },
    ];
    const later = EVIDENCE_DEADLINE * 10;
    attempt
      .given(settled)
      .when(report('r9', [eth(hash(9))], later))
      .then([evidenceReported('r9', [eth(hash(9))], later)]);
    attempt
      .given(failed)
      .when(report('r9', [eth(hash(9))], later, SIG))
      .then([evidenceReported('r9', [eth(hash(9))], later), authorizationSigned(later)]);
  });
});
