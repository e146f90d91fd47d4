import { type WebhookEventKind } from '@svc/contract';

type Command<Type extends string, Data> = { type: Type; data: Data };

/** The outbox relay handed over a lifecycle event (at-least-once: the same eventId may arrive again). */
export type QueueWebhook = Command<
  'QueueWebhook',
  {
    eventId: string;
    event: WebhookEventKind;
    attemptId: string;
    partnerId: string;
    lifecycleRevision: number;
    occurredAt: number;
    now: number;
  }
>;

/** How the dispatcher classified one POST to the partner's callback URL. */
export type DeliveryResult =
  | { kind: 'success'; status: number }
  | { kind: 'gone'; status: 410 }
  | { kind: 'failure'; status: number | null; error: string; retryAfterMs: number | null };

/** The dispatcher tried the head event. `random` is uniform in [0, 1) and only jitters the retry delay. */
export type RecordDeliveryResult = Command<
  'RecordDeliveryResult',
  { eventId: string; now: number; random: number; result: DeliveryResult }
>;

/** Operator CLI: send a delivered or abandoned event again. */
export type RequestRedelivery = Command<
  'RequestRedelivery',
  { eventId: string; now: number; requestedBy: string }
>;

export type WebhookDeliveryCommand = QueueWebhook | RecordDeliveryResult | RequestRedelivery;
