import { Module } from '@nestjs/common';
import { QuotingModule } from '@svc/quoting';

/** The quoting app: its feature module alone; the composition binds Kafka and EventStoreDB (issue "Distributed mode"). */
@Module({ imports: [QuotingModule] })
export class AppModule {}
