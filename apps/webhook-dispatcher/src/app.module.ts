import { Module } from '@nestjs/common';
import { WebhooksModule } from '@svc/webhooks';

/** The webhook-dispatcher app: the outbox relay (event store → `attempt.lifecycle`) and the webhook deliveries of its shards. */
@Module({ imports: [WebhooksModule] })
export class AppModule {}
