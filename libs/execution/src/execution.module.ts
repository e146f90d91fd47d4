import { Module } from '@nestjs/common';
import { PrepareAttemptHandler } from './prepare-attempt/prepare-attempt.handler';
import { PrepareAttemptService } from './prepare-attempt/prepare-attempt.service';

/** Needs EVENT_STORE, CHAIN_REGISTRY, PROVIDER_ADAPTERS and EXECUTION_OPTIONS from the composition root. */
@Module({ controllers: [PrepareAttemptHandler], providers: [PrepareAttemptService] })
export class ExecutionModule {}
