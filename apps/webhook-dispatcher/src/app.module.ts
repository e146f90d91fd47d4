import { Module } from '@nestjs/common';
import { WebhooksModule } from '@svc/webhooks';

/** The webhook-dispatcher app: its feature module alone; the composition binds Kafka and EventStoreDB (issue "Distributed mode"). */
@Module({ imports: [WebhooksModule] })
export class AppModule {}
