import { Module } from '@nestjs/common';
import { SettlementModule } from '@svc/settlement';

/**
 * The settlement-tracker app: serves `settlement.submit`, tracks each attempt of its shards to a terminal state, and
 * serves the queries (`settlement.status` and the lookups) over Kafka too, for gateways that do not serve them
 * themselves (an older build during a rolling deploy).
 */
@Module({ imports: [SettlementModule] })
export class AppModule {}
