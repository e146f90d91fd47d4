import { Module } from '@nestjs/common';
import { GatewayModule } from '@svc/gateway';

/** The gateway app: its feature module alone; the composition binds Kafka and EventStoreDB (issue "Distributed mode"). */
@Module({ imports: [GatewayModule.register()] })
export class AppModule {}
