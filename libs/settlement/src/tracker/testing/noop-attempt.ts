import { type ChainAction } from '@svc/contract';
import { type AttemptPreparedData, attemptStreamId } from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { type Address, type Hash, type Hex } from 'viem';
import { decideAndAppend } from '../../attempt-store/attempt-stream';

/**
 * Test fixture: a prepared attempt of one no-op slice (the wallet's own token transfer to the recipient is both its
 * source transaction and its fill, so no provider is involved), its evidence reported with the wallet's signature.
 * What the specs of the chain side of settlement (confirmations, reorganisations) track.
 */
export async function noopAttempt(
  store: EventStore,
  input: {
    attemptId: string;
    txHash: Hash;
    now: number;
    chainId: number;
    token: Address;
    wallet: Address;
    recipient: Address;
    amount: bigint;
    /** The transfer's calldata. */
    data: Hex;
  },
): Promise<void> {
  const { attemptId, txHash, now, chainId, token, wallet, recipient, amount, data } = input;
  const prepared: AttemptPreparedData = {
    attemptId,
    intentSessionId: `is-${attemptId}`,
    partnerId: 'p',
    idempotencyKey: null,
    wallet,
    recipient,
    preparedAt: now - 10_000,
    expiresAt: now + 20_000,
    evidenceDeadlineAt: now + 50_000,
    chainActions: [
      {
        chainId,
        provider: 'direct',
        submitMethod: 'sendTransaction',
        atomicRequired: false,
        calls: null,
        transactions: [{ chainId, to: token, data, value: '0', callId: 'c0', callIndex: 0, quoteIndex: 0 }],
        transactionCount: 1,
        quoteCount: 1,
        quotePlans: [
          {
            provider: 'direct',
            callCount: 1,
            callStart: 0,
            quoteIndex: 0,
            outputTargetId: 't',
            transactionCount: 1,
            primaryCallIndex: 0,
          },
        ],
        perLegPreview: [],
      },
    ] as unknown as ChainAction[],
    walletAuthorization: {
      domain: { name: 'x', version: '1' },
      types: {},
      primaryType: 'x',
      message: {},
    } as unknown as AttemptPreparedData['walletAuthorization'],
    legs: [
      {
        legIndex: 0,
        targetId: 't',
        provider: 'direct',
        target: { chainId, address: token, symbol: 'TT', decimals: 18 },
        slices: [
          {
            sliceId: 's1',
            sourceIndex: 0,
            sourceChainId: chainId,
            noop: true,
            provider: null,
            providerRequestId: null,
            trackingContext: null,
            expectedOutputRaw: amount.toString(),
            minimumOutputRaw: amount.toString(),
          },
        ],
      },
    ],
    walletContext: null,
  };
  await store.append(
    attemptStreamId(attemptId),
    [{ id: crypto.randomUUID(), type: 'AttemptPrepared', data: { ...prepared } }],
    { expectedRevision: 'no_stream' },
  );
  await decideAndAppend(store, attemptId, 'report', {
    type: 'ReportEvidence',
    data: {
      reportId: 'r1',
      chainResults: [{ chainId, bundleId: null, txHashes: [txHash] }],
      submittedAt: null,
      signature: { value: `0x${'11'.repeat(65)}`, signer: wallet },
      now,
    },
  });
}
