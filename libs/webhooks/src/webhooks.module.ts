import { Module } from '@nestjs/common';
import { LifecycleConsumer } from './dispatch/lifecycle.consumer';
import { WebhookDispatcher } from './dispatch/webhook-dispatcher';
import { OutboxRelay } from './outbox/outbox-relay';

/**
 * The outbox relay (event store → `attempt.lifecycle`) and the dispatcher (→ partner callback URLs). Needs
 * EVENT_STORE, MESSAGE_BUS, PARTNER_DIRECTORY, CHAIN_REGISTRY, CLOCK and WEBHOOKS_OPTIONS from the composition root.
 */
@Module({ controllers: [LifecycleConsumer], providers: [OutboxRelay, WebhookDispatcher] })
export class WebhooksModule {}
