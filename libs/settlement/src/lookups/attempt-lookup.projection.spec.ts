import { type AttemptEvent } from '@svc/domain';
import {
  attemptPrepared,
  evidenceReported,
  hash,
  legSettled,
  prepared,
  providerPending,
  RECIPIENT,
  sourceConfirmed,
  T0,
  WALLET,
  walletSubmitted,
} from '@svc/domain/attempt-fixture';
import { type AttemptLookupEntry, evolveLookupEntry } from './attempt-lookup.projection';

/** Given these events of one attempt, the entry the lookups index. */
const given = (events: AttemptEvent[]): AttemptLookupEntry | null =>
  events.reduce<AttemptLookupEntry | null>(evolveLookupEntry, null);

describe('the lookup projection of an attempt', () => {
  it('indexes nothing before AttemptPrepared', () => {
    expect(given([walletSubmitted(), legSettled('s-eth', '1', T0 + 5)])).toBeNull();
  });

  it('is created by AttemptPrepared with the partner, the wallet, the recipient and the creation time', () => {
    expect(given([attemptPrepared])).toEqual({
      attemptId: 'at_1',
      intentSessionId: 'is_1',
      partnerId: 'partner_1',
      walletAddress: WALLET,
      recipient: RECIPIENT,
      status: 'prepared',
      createdAt: T0,
      updatedAt: T0,
      transactions: [],
      slices: {
        's-eth': { targetChainId: 8453, sourceChainId: 1 },
        's-arb': { targetChainId: 8453, sourceChainId: 42161 },
        's-base': { targetChainId: 8453, sourceChainId: 8453 },
      },
    });
  });

  it('knows every reported source hash by chain, lowercased, once, and the fill on the target chain', () => {
    const upper = `0x${'AB'.repeat(32)}`;
    const entry = given([
      attemptPrepared,
      evidenceReported('r1', [
        { chainId: 1, bundleId: null, txHashes: [hash(1), upper] },
        { chainId: 42161, bundleId: 'b', txHashes: [] },
      ]),
      evidenceReported('r2', [{ chainId: 1, bundleId: null, txHashes: [hash(1)] }], T0 + 20_000),
      sourceConfirmed(1, hash(1), ['chain:1:call:1'], T0 + 30_000),
      legSettled('s-eth', '999', T0 + 40_000, hash(900)),
    ]);
    expect(entry?.transactions).toEqual([
      { chainId: 1, txHash: hash(1), role: 'source' },
      { chainId: 1, txHash: upper.toLowerCase(), role: 'source' },
      { chainId: 8453, txHash: hash(900), role: 'fill' },
    ]);
    expect(entry?.updatedAt).toBe(T0 + 40_000);
  });

  it('knows the refund of a failed leg on the refund chain, else on the source chain of the leg, and a short fill', () => {
    const failed = (sliceId: string, refundChainId: number | null, n: number): AttemptEvent => ({
      type: 'LegFailed',
      data: {
        sliceId,
        errorCode: 'refunded',
        errorMessage: 'refunded',
        refundTxHash: hash(n),
        at: T0 + 50_000,
        destinationTxHash: n === 61 ? hash(62) : null,
        refund:
          refundChainId === null
            ? null
            : {
                chainId: refundChainId,
                token: null,
                amount: null,
                amountBasis: null,
                txHash: hash(n),
                to: null,
              },
      },
    });
    expect(
      given([attemptPrepared, failed('s-eth', 10, 60), failed('s-arb', null, 61)])?.transactions,
    ).toEqual([
      { chainId: 10, txHash: hash(60), role: 'refund' },
      { chainId: 8453, txHash: hash(62), role: 'fill' },
      { chainId: 42161, txHash: hash(61), role: 'refund' },
    ]);
  });

  it('follows the lifecycle status, and a terminal status never changes', () => {
    expect(given([attemptPrepared, walletSubmitted()])?.status).toBe('wallet_submitted');
    expect(given([attemptPrepared, walletSubmitted(), providerPending(T0 + 11_000)])?.status).toBe(
      'provider_pending',
    );
    const settled: AttemptEvent = { type: 'AttemptSettled', data: { at: T0 + 60_000 } };
    const expired: AttemptEvent = { type: 'AttemptExpired', data: { at: T0 + 70_000 } };
    const entry = given([attemptPrepared, walletSubmitted(), settled, expired]);
    expect([entry?.status, entry?.updatedAt]).toEqual(['settled', T0 + 70_000]);
  });

  it('ignores a second AttemptPrepared and an event type it does not know', () => {
    const once = given([attemptPrepared]);
    const again = given([
      attemptPrepared,
      { type: 'AttemptPrepared', data: { ...prepared, wallet: RECIPIENT } },
      { type: 'SomethingNew', data: { at: T0 + 1 } } as unknown as AttemptEvent,
    ]);
    expect(again).toEqual(once);
  });
});
