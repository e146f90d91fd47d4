import { Module } from '@nestjs/common';
import { ExecutionModule } from '@svc/execution';

/** The execution app: its feature module alone; the composition binds Kafka and EventStoreDB (issue "Distributed mode"). */
@Module({ imports: [ExecutionModule] })
export class AppModule {}
