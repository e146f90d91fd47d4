import { type ChainRegistry } from '@svc/chains';
import {
  type DueWebhook,
  endpointTryOutcome,
  type EndpointTryOutcome,
  type RecordDeliveryResult,
  type WebhookDeliveryState,
} from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { type Clock, type PartnerConfig } from '@svc/platform';
import { type CallbackAddressPolicy } from '../delivery/callback-address-policy';
import { deliverWebhook, type DeliveryResult } from '../delivery/deliver-webhook';
import { type KnownQueues } from './known-queues';
import { BACKLOG_AGE_MS, type PartnerTurns } from './partner-turns';
import { webhookMetrics } from './webhook-metrics';
import { type AttemptFolds, webhookPayload } from './webhook-payload';
import { commandWebhooks } from './webhook-stream';

export interface TryWebhookDeps {
  store: EventStore;
  chains: ChainRegistry;
  clock: Clock;
  timeoutMs: number;
  /** Where webhooks may be sent (default: public addresses and loopback). */
  addresses?: CallbackAddressPolicy;
  /** The attempts' webhook queues as last written: the try is recorded without reading the stream first. */
  queues?: KnownQueues;
  /** The attempts folded up to their last lifecycle event sent: the next body folds only what came after. */
  folds?: AttemptFolds;
  /**
   * Store work in turns with other partners' (the body's reads, the try's record; backlog for an event that occurred
   * longer ago than BACKLOG_AGE_MS); without: at once.
   */
  turns?: PartnerTurns;
}

export interface TryOutcome {
  /** What was recorded on the attempt's webhook stream. */
  recorded: 'delivered' | 'abandoned' | 'failed';
  /** What the try says about the partner's endpoint; null when nothing was sent. */
  endpoint: EndpointTryOutcome | null;
  /** When a failed try is due again. */
  nextAttemptAt: number | null;
  /** The attempt's webhook queue after the try was recorded. */
  state: WebhookDeliveryState;
}

/** One try of an attempt's head webhook (due now), and its result recorded on `webhook-<attemptId>`. */
export async function tryWebhook(
  deps: TryWebhookDeps,
  attemptId: string,
  due: DueWebhook,
  partner: PartnerConfig | undefined,
): Promise<TryOutcome> {
  const { store, chains, clock } = deps;
  const backlog = clock.now() - due.occurredAt > BACKLOG_AGE_MS;
  const inTurn = <T>(step: () => Promise<T>): Promise<T> =>
    deps.turns && partner ? deps.turns.run(partner.partnerId, step, { backlog }) : step();
  const body = await inTurn(() =>
    webhookPayload(
      store,
      { attemptId, ...due },
      { chainName: (id) => (chains.has(id) ? chains.config(id).name : `chain ${id}`) },
      deps.folds,
    ),
  );
  const result: DeliveryResult =
    !partner?.callbackUrl || body === null
      ? {
          kind: 'failure',
          status: null,
          error: 'no callback URL configured for the partner',
          retryAfterMs: null,
          durationMs: 0,
        }
      : await deliverWebhook({
          url: partner.callbackUrl,
          partnerId: partner.partnerId,
          secret: partner.secret,
          eventId: due.eventId,
          body,
          now: () => clock.now(),
          timeoutMs: deps.timeoutMs,
          ...(deps.addresses ? { addresses: deps.addresses } : {}),
        });
  const sent = Boolean(partner?.callbackUrl) && body !== null;
  const after = clock.now();
  const record: RecordDeliveryResult = {
    type: 'RecordDeliveryResult',
    data: {
      eventId: due.eventId,
      now: after,
      random: Math.random(),
      latencyMs: result.durationMs,
      result:
        result.kind === 'failure'
          ? {
              kind: 'failure',
              status: result.status,
              error: result.error,
              retryAfterMs: result.retryAfterMs,
            }
          : result.kind === 'gone'
            ? { kind: 'gone', status: 410 }
            : { kind: 'success', status: result.status },
    },
  };
  const stepId = `try:${due.eventId}:${due.attempt}`;
  const { events, state } = await inTurn(() =>
    commandWebhooks(store, attemptId, stepId, record, deps.queues),
  );
  const [event] = events;
  const recorded =
    event?.type === 'WebhookDelivered'
      ? 'delivered'
      : event?.type === 'WebhookAbandoned'
        ? 'abandoned'
        : 'failed';
  webhookMetrics.deliveries.inc({ outcome: recorded });
  if (recorded === 'delivered') webhookMetrics.lag.observe(Math.max(0, after - due.occurredAt) / 1000);
  return {
    recorded,
    endpoint: sent ? endpointTryOutcome(result) : null,
    nextAttemptAt: event?.type === 'WebhookAttempted' ? event.data.nextAttemptAt : null,
    state,
  };
}
