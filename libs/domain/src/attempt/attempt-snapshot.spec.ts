import { type AttemptEvent } from './attempt.events';
import { type AttemptRecord } from './attempt-record';
import { evolveAttempt, initialAttemptState } from './attempt.state';
import { attemptSnapshot } from './attempt-snapshot';
import {
  attemptPrepared,
  evidenceReported,
  hash,
  prepared,
  RECIPIENT,
  sourceConfirmed,
  submittedWithSignature,
  T0,
  USDC_BASE,
  WALLET,
} from './attempt.fixture';

const names = {
  chainName: (chainId: number) => ({ 1: 'Ethereum', 42161: 'Arbitrum', 8453: 'Base' })[chainId] ?? '?',
};
const fold = (events: AttemptEvent[]) => events.reduce(evolveAttempt, initialAttemptState) as AttemptRecord;
const at = T0 + 60_000;
const settle = (
  sliceId: string,
  settledAmount: string,
  destinationTxHash: string | null,
  exact = true,
): AttemptEvent => ({
  type: 'LegSettled',
  data: { sliceId, destinationTxHash, settledAmount, amountBasis: exact ? 'exact' : 'estimated', at },
});
const base = {
  apiVersion: '1',
  attemptId: 'at_1',
  intentSessionId: 'is_1',
  partnerId: 'partner_1',
  walletAddress: WALLET,
  recipient: RECIPIENT,
};
const chains = [
  { chainId: 1, provider: 'relay', submitMethod: 'sendTransaction', atomicRequired: false },
  { chainId: 42161, provider: 'across', submitMethod: 'wallet_sendCalls', atomicRequired: true },
  { chainId: 8453, provider: 'direct', submitMethod: 'sendTransaction', atomicRequired: false },
];
const [eth, arb, baseChain] = prepared.chainActions;
const leg = (legIndex: number) => ({
  legIndex,
  outputTargetId: 'usdc-base',
  outputSymbol: 'USDC',
  ...[
    {
      provider: 'relay',
      sourceChainId: 1,
      sourceTokens: eth.perLegPreview[0].sourceTokens,
      expectedOutputAmount: '1000000000',
      expectedOutputFormatted: '1000',
      expectedOutputUsd: '1000.00',
      trackingContext: { requestId: 'relay-req-s-eth' },
    },
    {
      provider: 'across',
      sourceChainId: 42161,
      sourceTokens: arb.perLegPreview[0].sourceTokens,
      expectedOutputAmount: '249500000',
      expectedOutputFormatted: '249.5',
      expectedOutputUsd: null,
      trackingContext: { requestId: 'across-req-s-arb' },
    },
    {
      provider: 'direct',
      sourceChainId: 8453,
      sourceTokens: baseChain.perLegPreview[0].sourceTokens,
      expectedOutputAmount: '50000000',
      expectedOutputFormatted: '50',
      expectedOutputUsd: null,
      trackingContext: null,
    },
  ][legIndex],
});
const untouched = {
  status: 'awaiting_source',
  txHash: null,
  sourceChainTxHash: null,
  destinationChainTxHash: null,
  settledAmount: null,
  settledAmountBasis: null,
  errorCode: null,
  errorMessage: null,
};

describe('attemptSnapshot', () => {
  it('shows a prepared attempt: nothing submitted, every chain awaiting evidence', () => {
    expect(attemptSnapshot(fold([attemptPrepared]), names)).toEqual({
      ...base,
      status: 'prepared',
      currentStatus: 'prepared',
      submittedAt: null,
      perChainStatus: chains.map((c, i) => ({
        ...c,
        status: 'awaiting_evidence',
        txHashes: [],
        bundleId: null,
        legs: [{ ...leg(i), ...untouched }],
      })),
      settledOutputs: [],
    });
  });

  it('shows a settled attempt with its source txs, fills and settled outputs in target units', () => {
    const state = fold([
      ...submittedWithSignature,
      evidenceReported(
        'r2',
        [{ chainId: 42161, bundleId: 'bundle-arb-2', txHashes: [hash(44)] }],
        T0 + 11_000,
      ),
      sourceConfirmed(1, hash(1), ['chain:1:call:0'], T0 + 20_000),
      sourceConfirmed(1, hash(2), ['chain:1:call:1'], T0 + 21_000),
      sourceConfirmed(42161, hash(44), [], T0 + 21_000),
      sourceConfirmed(8453, hash(3), ['chain:8453:call:0'], T0 + 21_000),
      { type: 'AttemptProviderPending', data: { at: T0 + 20_000 } },
      settle('s-eth', '999000000', hash(901)),
      settle('s-arb', '249400000', null, false),
      settle('s-base', '50000000', null),
      { type: 'AttemptSettled', data: { at } },
    ]);
    const settledLeg = (i: number, txHash: string, dest: string | null, amount: string, basis: string) => ({
      ...leg(i),
      status: 'settled',
      txHash,
      sourceChainTxHash: txHash,
      destinationChainTxHash: dest,
      settledAmount: amount,
      settledAmountBasis: basis,
      errorCode: null,
      errorMessage: null,
    });
    expect(attemptSnapshot(state, names)).toEqual({
      ...base,
      status: 'settled',
      currentStatus: 'settled',
      submittedAt: T0 + 10_000,
      perChainStatus: [
        {
          ...chains[0],
          status: 'settled',
          txHashes: [hash(1), hash(2)],
          bundleId: null,
          // The deposit, not the approval.
          legs: [settledLeg(0, hash(2), hash(901), '999000000', 'exact')],
        },
        {
          ...chains[1],
          status: 'settled',
          txHashes: [hash(44)],
          bundleId: 'bundle-arb-2',
          legs: [settledLeg(1, hash(44), null, '249400000', 'estimated')],
        },
        {
          ...chains[2],
          status: 'settled',
          txHashes: [hash(3)],
          bundleId: null,
          legs: [settledLeg(2, hash(3), null, '50000000', 'exact')],
        },
      ],
      settledOutputs: [
        { chainId: 8453, symbol: 'USDC', amount: '999', amountBasis: 'exact', txHash: hash(901) },
        { chainId: 8453, symbol: 'USDC', amount: '249.4', amountBasis: 'estimated', txHash: '' },
        { chainId: 8453, symbol: 'USDC', amount: '50', amountBasis: 'exact', txHash: hash(3) },
      ],
    });
  });

  it('shows a failed attempt: reverted chain, refunded leg, and what did settle', () => {
    const failed = (sliceId: string, errorCode: string, errorMessage: string, refundTxHash: string | null) =>
      ({ type: 'LegFailed', data: { sliceId, errorCode, errorMessage, refundTxHash, at } }) as AttemptEvent;
    const state = fold([
      ...submittedWithSignature,
      { type: 'SourceTransactionReverted', data: { chainId: 1, txHash: hash(1), at } },
      { type: 'SourceTransactionReverted', data: { chainId: 1, txHash: hash(2), at } },
      failed('s-eth', 'source_reverted', 'every source transaction on chain 1 reverted', null),
      { type: 'LegPending', data: { sliceId: 's-arb', providerStatus: 'waiting', at } },
      { type: 'AttemptProviderPending', data: { at } },
      failed('s-arb', 'refunded', 'deposit refunded', hash(77)),
      settle('s-base', '50000000', hash(3)),
      {
        type: 'AttemptFailed',
        data: {
          errorCode: 'source_reverted',
          errorMessage: 'every source transaction on chain 1 reverted',
          at,
        },
      },
    ]);
    const snapshot = attemptSnapshot(state, names);
    expect(snapshot).toMatchObject({ status: 'failed', currentStatus: 'failed', submittedAt: T0 + 10_000 });
    expect(snapshot.perChainStatus.map((c) => [c.chainId, c.status, c.bundleId])).toEqual([
      [1, 'reverted', null],
      [42161, 'failed', 'bundle-arb'],
      [8453, 'settled', null],
    ]);
    expect(snapshot.perChainStatus.flatMap((c) => c.legs)).toEqual([
      {
        ...leg(0),
        ...untouched,
        status: 'failed',
        errorCode: 'source_reverted',
        errorMessage: 'every source transaction on chain 1 reverted',
      },
      { ...leg(1), ...untouched, status: 'failed', errorCode: 'refunded', errorMessage: 'deposit refunded' },
      {
        ...leg(2),
        ...untouched,
        status: 'settled',
        destinationChainTxHash: hash(3),
        settledAmount: '50000000',
        settledAmountBasis: 'exact',
      },
    ]);
    expect(snapshot.settledOutputs).toEqual([
      { chainId: 8453, symbol: 'USDC', amount: '50', amountBasis: 'exact', txHash: hash(3) },
    ]);
  });

  it('goes submitted → confirmed per chain, and builds a no-op source token when prepare showed none', () => {
    const noPreview = {
      ...prepared,
      chainActions: [eth, arb, { ...baseChain, quotePlans: [], perLegPreview: [] }],
    };
    const state = fold([
      { type: 'AttemptPrepared', data: noPreview },
      evidenceReported('r1', [{ chainId: 1, bundleId: null, txHashes: [hash(1), hash(2)] }]),
      sourceConfirmed(1, hash(1), ['chain:1:call:0'], at),
      { type: 'AttemptWalletSubmitted', data: { at } },
    ]);
    const snapshot = attemptSnapshot(state, names);
    expect(snapshot.perChainStatus.map((c) => c.status)).toEqual([
      'confirmed',
      'awaiting_evidence',
      'awaiting_evidence',
    ]);
    // Only the approval confirmed: it is the slice's tx until the deposit is.
    expect(snapshot.perChainStatus[0].legs[0].txHash).toBe(hash(1));
    expect(snapshot.perChainStatus[2].legs[0].sourceTokens).toEqual([
      { chain: 'Base', amount: '50', symbol: 'USDC', address: USDC_BASE, rawAmount: '50000000' },
    ]);
  });

  it('an expired attempt says expired on every chain, not awaiting_evidence (issue 25 item 3)', () => {
    const state = fold([
      { type: 'AttemptPrepared', data: prepared },
      { type: 'AttemptExpired', data: { at } },
    ]);
    const snapshot = attemptSnapshot(state, names);
    expect(snapshot.status).toBe('expired');
    expect(snapshot.perChainStatus.map((c) => c.status)).toEqual(['expired', 'expired', 'expired']);
    expect(snapshot.perChainStatus.map((c) => c.expiryReason)).toEqual([undefined, undefined, undefined]);
  });

  it('an attempt expired over an ambiguous transaction says so on that chain, with its hash (ADR 0009)', () => {
    const state = fold([
      { type: 'AttemptPrepared', data: prepared },
      { type: 'AttemptExpired', data: { at, ambiguousSources: [{ chainId: 1, txHash: hash(7) }] } },
    ]);
    const snapshot = attemptSnapshot(state, names);
    expect(snapshot.status).toBe('expired');
    expect(snapshot.perChainStatus[0].expiryReason).toEqual({
      code: 'ambiguous_source_transaction',
      message: expect.stringContaining('another open attempt of the same wallet'),
      txHashes: [hash(7)],
    });
    expect('expiryReason' in snapshot.perChainStatus[1]).toBe(false);
    // An AttemptExpired of an earlier build (no ambiguousSources) still folds: no reason shown.
    const older = attemptSnapshot(
      fold([
        { type: 'AttemptPrepared', data: prepared },
        { type: 'AttemptExpired', data: { at } },
      ]),
      names,
    );
    expect(older.perChainStatus.some((c) => 'expiryReason' in c)).toBe(false);
  });
});
