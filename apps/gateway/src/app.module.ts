import { Module } from '@nestjs/common';
import { GatewayModule } from '@svc/gateway';

/** The gateway app: the public HTTP API; every operation goes over Kafka to the feature apps. */
@Module({ imports: [GatewayModule.register()] })
export class AppModule {}
