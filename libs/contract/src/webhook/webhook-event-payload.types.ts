import { type WebhookEventKind } from '../enums/webhook-event-kind';
import { type AttemptSnapshot } from '../attempt/attempt-snapshot.types';

/**
 * spec: Events body: an attempt snapshot plus event metadata. `eventId` equals the X-Service-Event-Id
 * header; receivers deduplicate on it.
 */
export interface WebhookEventPayload extends AttemptSnapshot {
  eventId: string;
  event: WebhookEventKind;
  /** ISO 8601. */
  occurredAt: string;
}
