import { Module } from '@nestjs/common';
import { SettlementModule } from '@svc/settlement';

/** The settlement-tracker app: its feature module alone; the composition binds Kafka and EventStoreDB (issue "Distributed mode"). */
@Module({ imports: [SettlementModule] })
export class AppModule {}
