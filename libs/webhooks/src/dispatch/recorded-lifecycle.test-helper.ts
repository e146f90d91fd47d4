import { type WebhookEventKind } from '@svc/contract';
import { attemptStreamId } from '@svc/domain';
import { eventIdFrom, type EventStore } from '@svc/event-store';
import { type LifecycleMessage } from '@svc/messaging';
import { lifecycleMessageOf } from '../outbox/lifecycle-message-of';

const TYPE_OF: Partial<Record<WebhookEventKind, string>> = {
  wallet_submitted: 'AttemptWalletSubmitted',
  provider_pending: 'AttemptProviderPending',
  settled: 'AttemptSettled',
};

/**
 * Appends an attempt's lifecycle events (after its AttemptPrepared), one per kind, `at` + i each, and returns the
 * messages the outbox relay would publish for them: what a dispatcher is given in production, checked against the
 * stream it reads.
 */
export async function recordLifecycle(
  store: EventStore,
  attemptId: string,
  kinds: readonly WebhookEventKind[],
  at: number,
): Promise<LifecycleMessage[]> {
  if (kinds.length > 0)
    await store.append(
      attemptStreamId(attemptId),
      kinds.map((kind, i) => ({
        id: eventIdFrom(attemptId, kind),
        type: TYPE_OF[kind]!,
        data: { at: at + i },
      })),
      { expectedRevision: 'any' },
    );
  const stream = await store.readStream(attemptStreamId(attemptId));
  return stream.flatMap((event) => {
    const message = lifecycleMessageOf(event);
    return message ? [message] : [];
  });
}
