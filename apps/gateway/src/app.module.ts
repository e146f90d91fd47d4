import { Module } from '@nestjs/common';
import { GatewayModule } from '@svc/gateway';
import { SettlementQueriesModule } from '@svc/settlement';

/**
 * The gateway app: the public HTTP API. Status reads and the lookups (SETTLEMENT_QUERY_PATTERNS) are served here,
 * by the settlement-tracker's own query module on the event store and the read models; every other operation goes
 * over Kafka to the feature apps.
 */
@Module({ imports: [GatewayModule.register(), SettlementQueriesModule] })
export class AppModule {}
