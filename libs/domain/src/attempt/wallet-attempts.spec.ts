import { type AttemptEvent } from './attempt.events';
import { type AttemptRecord } from './attempt-record';
import { evolveAttempt, initialAttemptState } from './attempt.state';
import { attemptPrepared, T0 } from './attempt.fixture';
import {
  couldOwnSourceTransaction,
  mayClaimReported,
  walletAttemptOf,
  walletAttemptsStreamId,
} from './wallet-attempts';

describe('the wallet attempts registry (ADR 0009)', () => {
  it('one stream per wallet, whatever the case of the address', () => {
    expect(walletAttemptsStreamId('0xAbC')).toBe('walletattempts-0xabc');
  });

  it('reads its own event, nothing else', () => {
    expect(
      walletAttemptOf({ type: 'WalletAttemptRegistered', data: { attemptId: 'a', preparedAt: 5 } }),
    ).toEqual({
      attemptId: 'a',
      preparedAt: 5,
    });
    expect(walletAttemptOf({ type: 'SomethingNewer', data: { attemptId: 'a', preparedAt: 5 } })).toBeNull();
    expect(walletAttemptOf({ type: 'WalletAttemptRegistered', data: { attemptId: 'a' } })).toBeNull();
  });
});

describe('couldOwnSourceTransaction: which other attempts a transaction found on chain could be the execution of', () => {
  const given = (...events: AttemptEvent[]): AttemptRecord =>
    events.reduce(evolveAttempt, initialAttemptState) as AttemptRecord;

  it('given an open attempt with a chain action there, when the tx was mined after its prepare, then it could', () => {
    expect(couldOwnSourceTransaction(given(attemptPrepared), { chainId: 8453, minedAt: T0 + 5_000 })).toBe(
      true,
    );
  });

  it('given a tx mined more than the clock skew before its prepare, then it could not (a replay)', () => {
    expect(couldOwnSourceTransaction(given(attemptPrepared), { chainId: 8453, minedAt: T0 - 60_001 })).toBe(
      false,
    );
  });

  it('given no chain action on that chain, then it could not', () => {
    expect(couldOwnSourceTransaction(given(attemptPrepared), { chainId: 10, minedAt: T0 + 5_000 })).toBe(
      false,
    );
  });

  it('given an ended attempt, then it could not: it takes no evidence that would settle it', () => {
    const expired: AttemptEvent = { type: 'AttemptExpired', data: { at: T0 + 200_000 } };
    expect(
      couldOwnSourceTransaction(given(attemptPrepared, expired), { chainId: 8453, minedAt: T0 + 5_000 }),
    ).toBe(false);
  });
});

describe('mayClaimReported: who takes a reported transaction other open attempts could own too (ADR 0009)', () => {
  const a = (reportedAt: number | null, signed = true) => ({ attemptId: 'a', signed, reportedAt });
  const b = (reportedAt: number | null, signed = true) => ({ attemptId: 'b', signed, reportedAt });

  it('given no rival, then the reporting attempt claims it, signed or not', () => {
    expect(mayClaimReported(a(10, false), [])).toBe(true);
  });

  it('given a signed rival that reported it earlier, then not this one; the rival does', () => {
    expect(mayClaimReported(a(20), [b(10)])).toBe(false);
    expect(mayClaimReported(b(10), [a(20)])).toBe(true);
  });

  it('given the same report time, then the lower attempt id: exactly one of them', () => {
    expect([mayClaimReported(a(10), [b(10)]), mayClaimReported(b(10), [a(10)])]).toEqual([true, false]);
  });

  it('given this attempt is not signed by the wallet, then never while a rival could own it, whatever the order', () => {
    expect(mayClaimReported(a(5, false), [b(50)])).toBe(false);
    expect(mayClaimReported(a(5, false), [b(null, false)])).toBe(false);
    // and an unsigned or silent rival does not stand in a signed one's way
    expect(mayClaimReported(b(50), [a(5, false)])).toBe(true);
    expect(mayClaimReported(b(50), [a(null)])).toBe(true);
  });
});
