import { type WebhookEventKind } from '@svc/contract';

/** Attempt lifecycle events that partners hear about; there is intentionally no webhook for expiry. */
export const WEBHOOK_EVENT_OF: Readonly<Record<string, WebhookEventKind>> = {
  AttemptWalletSubmitted: 'wallet_submitted',
  AttemptProviderPending: 'provider_pending',
  AttemptSettled: 'settled',
  AttemptFailed: 'failed',
};
