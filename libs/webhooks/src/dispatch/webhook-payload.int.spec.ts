import { attemptDecider, attemptStreamId } from '@svc/domain';
import { hash, observeLeg, submittedWithSignature, T0, USDC_BASE, WALLET } from '@svc/domain/attempt-fixture';
import { handleCommand, MemoryEventStore } from '@svc/event-store';
import { webhookPayload } from './webhook-payload';

const names = { chainName: (id: number) => `chain ${id}` };

/** at_1, submitted with its signature (the domain fixture), in a fresh store. */
async function submittedAttempt() {
  const store = new MemoryEventStore();
  const streamId = attemptStreamId('at_1');
  await store.append(
    streamId,
    submittedWithSignature.map((e) => ({ id: crypto.randomUUID(), type: e.type, data: { ...e.data } })),
    { expectedRevision: 'no_stream' },
  );
  return { store, streamId };
}

describe('webhookPayload', () => {
  it("carries a refunded leg's refund: where the money went, as the status snapshot shows it", async () => {
    const { store, streamId } = await submittedAttempt();
    const refund = {
      chainId: 1,
      token: USDC_BASE,
      amount: '999000000',
      amountBasis: 'exact' as const,
      txHash: hash(77),
      to: WALLET,
    };
    const { revision } = await handleCommand(
      store,
      streamId,
      attemptDecider,
      observeLeg(
        's-eth',
        { state: 'refunded', refundTxHash: hash(77), reason: 'refund', refund },
        T0 + 20_000,
      ),
      { stepId: 'refund' },
    );
    const body = await webhookPayload(
      store,
      {
        attemptId: 'at_1',
        eventId: 'ev-1',
        event: 'provider_pending',
        lifecycleRevision: revision as number,
        occurredAt: T0,
      },
      names,
    );
    const legs = (
      JSON.parse(body!) as { perChainStatus: { legs: { errorCode: string | null; refund?: unknown }[] }[] }
    ).perChainStatus.flatMap((c) => c.legs);
    expect(legs.filter((l) => l.errorCode === 'refunded')).toEqual([
      expect.objectContaining({ errorCode: 'refunded', refund }),
    ]);
  });

  it('is the attempt as of its lifecycle event, not a later state', async () => {
    const { store, streamId } = await submittedAttempt();
    const submitted = submittedWithSignature.length - 1;
    await handleCommand(
      store,
      streamId,
      attemptDecider,
      observeLeg(
        's-eth',
        { state: 'refunded', refundTxHash: hash(77), reason: 'refund', refund: null },
        T0 + 20_000,
      ),
      { stepId: 'refund' },
    );
    const body = await webhookPayload(
      store,
      {
        attemptId: 'at_1',
        eventId: 'ev-0',
        event: 'wallet_submitted',
        lifecycleRevision: submitted,
        occurredAt: T0,
      },
      names,
    );
    const legs = (
      JSON.parse(body!) as { perChainStatus: { legs: { errorCode: string | null }[] }[] }
    ).perChainStatus.flatMap((c) => c.legs);
    expect(legs.every((l) => l.errorCode === null)).toBe(true);
  });
});
