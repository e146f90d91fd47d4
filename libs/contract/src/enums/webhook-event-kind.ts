/** spec: Events. There is intentionally no `expired` event: status polling is the fallback. */
export const WEBHOOK_EVENT_KINDS = ['wallet_submitted', 'provider_pending', 'settled', 'failed'] as const;

export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];
