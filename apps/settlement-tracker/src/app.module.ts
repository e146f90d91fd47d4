import { Module } from '@nestjs/common';
import { SettlementModule } from '@svc/settlement';

/** The settlement-tracker app: serves `settlement.submit` and `settlement.status`, and tracks each attempt of its shards to a terminal state. */
@Module({ imports: [SettlementModule] })
export class AppModule {}
