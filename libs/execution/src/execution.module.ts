import { Module } from '@nestjs/common';
import { PrepareAttemptHandler } from './prepare-attempt/prepare-attempt.handler';

@Module({ controllers: [PrepareAttemptHandler] })
export class ExecutionModule {}
