import { Module } from '@nestjs/common';
import { WebhookControlHandler } from './control/webhook-control.handler';
import { WebhookControlService } from './control/webhook-control.service';
import { WebhookEventsReadModel } from './control/webhook-events.read-model';
import { LifecycleConsumer } from './dispatch/lifecycle.consumer';
import { WebhookDispatcher } from './dispatch/webhook-dispatcher';
import { OutboxRelay } from './outbox/outbox-relay';

/**
 * The outbox relay (event store → `attempt.lifecycle`), the dispatcher (→ partner callback URLs) and the partner's
 * webhook control plane (`webhooks.*` bus requests). Needs
 * EVENT_STORE, MESSAGE_BUS, PARTNER_DIRECTORY, CHAIN_REGISTRY, CLOCK and WEBHOOKS_OPTIONS from the composition root.
 */
@Module({
  controllers: [LifecycleConsumer, WebhookControlHandler],
  providers: [OutboxRelay, WebhookDispatcher, WebhookControlService, WebhookEventsReadModel],
})
export class WebhooksModule {}
