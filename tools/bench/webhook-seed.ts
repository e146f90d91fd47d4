import {
  type ChainAction,
  WALLET_AUTHORIZATION_PRIMARY_TYPE,
  WALLET_AUTHORIZATION_TYPES,
} from '@svc/contract';
import { type AttemptPreparedData } from '@svc/domain';

const WALLET = '0x00000000000000000000000000000000000000aa';
const USDC_BASE = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const hash = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;

/**
 * A minimal valid AttemptPrepared (the shape of libs/domain attempt.fixture.ts, cut down to one no-op slice: USDC
 * already on Base), for the webhook benchmark. Only the webhook payload (the attempt snapshot) reads it.
 */
export function benchPrepared(attemptId: string, partnerId: string, now: number): AttemptPreparedData {
  const chainActions: ChainAction[] = [
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
      perLegPreview: [
        {
          legIndex: 0,
          provider: 'direct',
          sourceChainId: 8453,
          outputSymbol: 'USDC',
          outputTargetId: 'usdc-base',
          sourceTokens: [
            { chain: 'Base', amount: '50', symbol: 'USDC', address: USDC_BASE, rawAmount: '50000000' },
          ],
          expectedOutputAmount: '50000000',
          expectedOutputFormatted: '50',
        },
      ],
    },
  ];
  return {
    attemptId,
    intentSessionId: `is_${attemptId}`,
    partnerId,
    idempotencyKey: `prep-${attemptId}`,
    wallet: WALLET,
    recipient: WALLET,
    preparedAt: now,
    expiresAt: now + 30_000,
    evidenceDeadlineAt: now + 120_000,
    chainActions,
    walletAuthorization: {
      domain: { name: 'Service', version: '1' },
      types: WALLET_AUTHORIZATION_TYPES,
      primaryType: WALLET_AUTHORIZATION_PRIMARY_TYPE,
      message: {
        partnerId,
        intentSessionId: `is_${attemptId}`,
        attemptId,
        wallet: WALLET,
        recipient: WALLET,
        executionCommitment: hash(7),
        nonce: hash(8),
        expiresAt: Math.floor(now / 1000) + 86_400,
      },
    },
    legs: [
      {
        legIndex: 0,
        targetId: 'usdc-base',
        provider: 'direct',
        target: { chainId: 8453, address: USDC_BASE, symbol: 'USDC', decimals: 6 },
        slices: [
          {
            sliceId: 's-base',
            sourceIndex: 0,
            sourceChainId: 8453,
            noop: true,
            provider: null,
            providerRequestId: null,
            trackingContext: null,
            expectedOutputRaw: '50000000',
            minimumOutputRaw: '50000000',
          },
        ],
      },
    ],
    walletContext: null,
  };
}
