import { Module } from '@nestjs/common';
import { ExecutionModule } from '@svc/execution';

/** The execution app: serves `execution.prepare` (attempts, chain actions, the EIP-712 authorization). */
@Module({ imports: [ExecutionModule] })
export class AppModule {}
