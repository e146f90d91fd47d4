import {
  type ChainAction,
  type PerLegPreview,
  WALLET_AUTHORIZATION_PRIMARY_TYPE,
  WALLET_AUTHORIZATION_TYPES,
} from '@svc/contract';
import { type AttemptEvent, type AttemptPreparedData } from './attempt.events';
import { type AttemptCommand, type EvidenceChainResult, type LegProgress } from './attempt.commands';
import { attemptDecider } from './attempt.decider';

/**
 * Test fixture: one target (USDC on Base, 6 decimals) filled by three slices: relay from Ethereum (chain 1,
 * approve + deposit as two transactions), across from Arbitrum (chain 42161, one atomic batch) and a no-op
 * transfer of USDC already on Base (chain 8453).
 */
export const T0 = 1_000_000;

/** The attempt decider, as deciderSpec takes it. */
export const attemptUnderTest = attemptDecider;
export const EVIDENCE_DEADLINE = T0 + 120_000;
export const TRACKING_LIMIT = 3_600_000;
export const WALLET = '0x00000000000000000000000000000000000000aa';
export const RECIPIENT = '0x00000000000000000000000000000000000000bb';
export const USDC_BASE = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
export const SIG = { value: `0x${'11'.repeat(65)}`, signer: WALLET };

export const hash = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;

const preview = (over: Partial<PerLegPreview> & Pick<PerLegPreview, 'provider' | 'sourceChainId'>) => ({
  legIndex: 0,
  outputSymbol: 'USDC',
  outputTargetId: 'usdc-base',
  sourceTokens: [],
  expectedOutputAmount: null,
  expectedOutputFormatted: null,
  ...over,
});

const chainActions: ChainAction[] = [
  {
    chainId: 1,
    provider: 'relay',
    submitMethod: 'sendTransaction',
    atomicRequired: false,
    calls: null,
    transactions: [0, 1].map((callIndex) => ({
      chainId: 1,
      to: '0x01',
      data: '0x',
      value: '0',
      callId: `chain:1:call:${callIndex}`,
      callIndex,
      quoteIndex: 0,
    })),
    transactionCount: 2,
    quoteCount: 1,
    quotePlans: [
      {
        provider: 'relay',
        callCount: 2,
        callStart: 0,
        quoteIndex: 0,
        outputTargetId: 'usdc-base',
        transactionCount: 2,
        primaryCallIndex: 1,
      },
    ],
    perLegPreview: [
      preview({
        provider: 'relay',
        sourceChainId: 1,
        sourceTokens: [
          {
            chain: 'Ethereum',
            amount: '0.5',
            symbol: 'WETH',
            address: '0x02',
            rawAmount: '500000000000000000',
          },
        ],
        expectedOutputAmount: '1000000000',
        expectedOutputFormatted: '1000',
        expectedOutputUsd: '1000.00',
      }),
    ],
  },
  {
    chainId: 42161,
    provider: 'across',
    submitMethod: 'wallet_sendCalls',
    atomicRequired: true,
    calls: [
      { to: '0x03', data: '0x', value: '0', callId: 'chain:42161:call:0', callIndex: 0, quoteIndex: 0 },
    ],
    transactions: null,
    transactionCount: 1,
    quoteCount: 1,
    quotePlans: [
      {
        provider: 'across',
        callCount: 1,
        callStart: 0,
        quoteIndex: 0,
        outputTargetId: 'usdc-base',
        transactionCount: 1,
      },
    ],
    perLegPreview: [
      preview({
        provider: 'across',
        sourceChainId: 42161,
        sourceTokens: [
          { chain: 'Arbitrum', amount: '250', symbol: 'USDT', address: '0x04', rawAmount: '250000000' },
        ],
        expectedOutputAmount: '249500000',
        expectedOutputFormatted: '249.5',
      }),
    ],
  },
  {
    chainId: 8453,
    provider: 'direct',
    submitMethod: 'sendTransaction',
    atomicRequired: false,
    calls: null,
    transactions: [
      {
        chainId: 8453,
        to: USDC_BASE,
        data: '0x',
        value: '0',
        callId: 'chain:8453:call:0',
        callIndex: 0,
        quoteIndex: 0,
      },
    ],
    transactionCount: 1,
    quoteCount: 1,
    quotePlans: [
      {
        provider: 'direct',
        callCount: 1,
        callStart: 0,
        quoteIndex: 0,
        outputTargetId: 'usdc-base',
        transactionCount: 1,
      },
    ],
    // A no-op preview as prepare builds it; the snapshot prefers it over one it would build.
    perLegPreview: [
      preview({
        provider: 'direct',
        sourceChainId: 8453,
        sourceTokens: [
          { chain: 'Base', amount: '50', symbol: 'USDC', address: USDC_BASE, rawAmount: '50000000' },
        ],
        expectedOutputAmount: '50000000',
        expectedOutputFormatted: '50',
      }),
    ],
  },
];

const slice = (
  sliceId: string,
  sourceIndex: number,
  sourceChainId: number,
  provider: string | null,
  raw: string,
  minimum = '1',
) => ({
  sliceId,
  sourceIndex,
  sourceChainId,
  noop: provider === null,
  provider,
  providerRequestId: provider === null ? null : `${provider}-req-${sliceId}`,
  trackingContext: provider === null ? null : { requestId: `${provider}-req-${sliceId}` },
  expectedOutputRaw: raw,
  minimumOutputRaw: minimum,
});

export const prepared: AttemptPreparedData = {
  attemptId: 'at_1',
  intentSessionId: 'is_1',
  partnerId: 'partner_1',
  idempotencyKey: 'prep-1',
  wallet: WALLET,
  recipient: RECIPIENT,
  preparedAt: T0,
  expiresAt: T0 + 30_000,
  evidenceDeadlineAt: EVIDENCE_DEADLINE,
  chainActions,
  walletAuthorization: {
    domain: { name: 'Service', version: '1' },
    types: WALLET_AUTHORIZATION_TYPES,
    primaryType: WALLET_AUTHORIZATION_PRIMARY_TYPE,
    message: {
      partnerId: 'partner_1',
      intentSessionId: 'is_1',
      attemptId: 'at_1',
      wallet: WALLET,
      recipient: RECIPIENT,
      executionCommitment: hash(7),
      nonce: hash(8),
      expiresAt: T0 / 1000 + 86_400,
    },
  },
  legs: [
    {
      legIndex: 0,
      targetId: 'usdc-base',
      provider: 'relay',
      target: { chainId: 8453, address: USDC_BASE, symbol: 'USDC', decimals: 6 },
      slices: [
        slice('s-eth', 0, 1, 'relay', '1000000000'),
        slice('s-arb', 1, 42161, 'across', '249500000', '249000000'),
        slice('s-base', 2, 8453, null, '50000000'),
      ],
    },
  ],
  walletContext: null,
};

export const SLICES = ['s-eth', 's-arb', 's-base'] as const;

// Events, as the stream holds them.
export const attemptPrepared: AttemptEvent = { type: 'AttemptPrepared', data: prepared };
export const evidenceReported = (
  reportId: string,
  chainResults: EvidenceChainResult[],
  at = T0 + 10_000,
): AttemptEvent => ({
  type: 'EvidenceReported',
  data: { reportId, reportedAt: at, submittedAt: null, chainResults },
});
export const authorizationSigned = (at = T0 + 10_000): AttemptEvent => ({
  type: 'AuthorizationSigned',
  data: { signature: SIG.value, signer: SIG.signer, signedAt: at },
});
export const walletSubmitted = (at = T0 + 10_000): AttemptEvent => ({
  type: 'AttemptWalletSubmitted',
  data: { at },
});
export const providerPending = (at: number): AttemptEvent => ({
  type: 'AttemptProviderPending',
  data: { at },
});
export const legSettled = (
  sliceId: string,
  settledAmount: string,
  at: number,
  destinationTxHash: string | null = hash(900),
): AttemptEvent => ({
  type: 'LegSettled',
  data: { sliceId, destinationTxHash, settledAmount, amountBasis: 'exact', at },
});
export const legPending = (sliceId: string, at: number, providerStatus = 'waiting'): AttemptEvent => ({
  type: 'LegPending',
  data: { sliceId, providerStatus, at },
});
export const sourceConfirmed = (
  chainId: number,
  txHash: string,
  callIds: string[],
  at: number,
): AttemptEvent => ({
  type: 'SourceTransactionConfirmed',
  data: { chainId, txHash, callIds, blockNumber: '100', at },
});

/** Every chain reported (one hash each), with the signature: the usual start of the story. */
export const submittedWithSignature: AttemptEvent[] = [
  attemptPrepared,
  evidenceReported('r1', [
    { chainId: 1, bundleId: null, txHashes: [hash(1), hash(2)] },
    { chainId: 42161, bundleId: 'bundle-arb', txHashes: [] },
    { chainId: 8453, bundleId: null, txHashes: [hash(3)] },
  ]),
  authorizationSigned(),
  walletSubmitted(),
];

// Commands.
export const report = (
  reportId: string,
  chainResults: EvidenceChainResult[],
  now: number,
  signature: { value: string; signer: string } | null = null,
): AttemptCommand => ({
  type: 'ReportEvidence',
  data: { reportId, chainResults, submittedAt: null, signature, now },
});
export const observeLeg = (sliceId: string, progress: LegProgress, now: number): AttemptCommand => ({
  type: 'ObserveLeg',
  data: { sliceId, progress, now },
});
export const filled = (settledAmount: string, destinationTxHash: string | null = hash(900)): LegProgress => ({
  state: 'filled',
  destinationTxHash,
  settledAmount,
  amountBasis: 'exact',
});
export const confirmTx = (
  chainId: number,
  txHash: string,
  callIds: string[],
  now: number,
): AttemptCommand => ({
  type: 'ObserveSourceTransaction',
  data: {
    chainId,
    txHash,
    now,
    outcome: 'confirmed',
    callIds,
    blockNumber: '100',
    minedAt: now,
    claimedBy: null,
  },
});
export const revertTx = (chainId: number, txHash: string, now: number): AttemptCommand => ({
  type: 'ObserveSourceTransaction',
  data: { chainId, txHash, now, outcome: 'reverted', minedAt: now },
});
export const checkDeadlines = (now: number, depositFound = false): AttemptCommand => ({
  type: 'CheckDeadlines',
  data: { now, trackingLimitMs: TRACKING_LIMIT, depositFound },
});
