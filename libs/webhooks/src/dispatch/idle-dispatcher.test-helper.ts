import { ChainRegistry } from '@svc/chains';
import { type EventStore } from '@svc/event-store';
import { type Clock, PARTNER_DEFAULTS, PartnerDirectory } from '@svc/platform';
import { DEFAULT_WEBHOOKS_OPTIONS } from '../webhooks.options';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * A dispatcher for specs of the control plane: never ticked, it holds no shard and delivers nothing, so what a
 * redelivery or a recovery queues stays queued in the streams. The partners have no callback URL.
 */
export function idleDispatcher(store: EventStore, partnerIds: string[], clock: Clock): WebhookDispatcher {
  return new WebhookDispatcher(
    store,
    new PartnerDirectory(
      partnerIds.map((partnerId) => ({
        ...PARTNER_DEFAULTS,
        partnerId,
        secret: `${partnerId}-secret-0123456789`,
        authVersion: 2 as const,
        callbackUrl: null,
      })),
    ),
    new ChainRegistry([]),
    clock,
    { ...DEFAULT_WEBHOOKS_OPTIONS, tickMs: 0 },
    { instanceId: `idle-dispatcher-${partnerIds.join('-')}`, shardCount: 4, leaseTtlMs: 15_000 },
  );
}
