import { Module } from '@nestjs/common';
import { WebhookControlHandler } from './control/webhook-control.handler';
import { WebhookControlService } from './control/webhook-control.service';
import { WebhookEventsReadModel } from './control/webhook-events.read-model';
import { LifecycleConsumer } from './dispatch/lifecycle.consumer';
import { WebhookDispatcher } from './dispatch/webhook-dispatcher';
import { OutboxRelay } from './outbox/outbox-relay';
import { WebhookHistoryCompactor } from './retention/webhook-history-compactor';

/**
 * The outbox relay (event store → `attempt.lifecycle`), the dispatcher (→ partner callback URLs), the partner's
 * webhook control plane (`webhooks.*` bus requests) and the compaction of delivery histories past their retention.
 * Needs EVENT_STORE, MESSAGE_BUS, PARTNER_DIRECTORY, CHAIN_REGISTRY, CLOCK, WORK_SHARING and WEBHOOKS_OPTIONS from the
 * composition root.
 */
@Module({
  controllers: [LifecycleConsumer, WebhookControlHandler],
  providers: [
    OutboxRelay,
    WebhookDispatcher,
    WebhookControlService,
    WebhookEventsReadModel,
    WebhookHistoryCompactor,
  ],
})
export class WebhooksModule {}
