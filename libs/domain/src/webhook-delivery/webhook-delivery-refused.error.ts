/**
 * Why the webhook queue refuses a command. Internal to the dispatcher and the operator CLI, never a partner
 * response, so the codes are not in the partner error registry.
 */
export type WebhookDeliveryRefusalCode =
  /** QueueWebhook for another attempt or partner than the stream's. */
  | 'webhook_stream_mismatch'
  | 'webhook_event_unknown'
  /** A result for a pending event behind the head: it must not have been sent. */
  | 'webhook_not_head'
  /** A result for an event already delivered or abandoned. */
  | 'webhook_not_in_flight'
  /** A result for the head before its retry was due: a stale or duplicated result of the previous try. */
  | 'webhook_not_due'
  /** Redelivery of an event that is still queued or retrying. */
  | 'webhook_delivery_pending'
  /** A capped redelivery of an event already sent again as often as an hour allows (`retryAt`: when it may be). */
  | 'webhook_redelivery_rate_limited';

export class WebhookDeliveryRefusedError extends Error {
  override readonly name = 'WebhookDeliveryRefusedError';
  constructor(
    readonly code: WebhookDeliveryRefusalCode,
    message: string,
    /** webhook_redelivery_rate_limited: when the next redelivery of the event is allowed (epoch ms). */
    readonly retryAt?: number,
  ) {
    super(message);
  }
}
