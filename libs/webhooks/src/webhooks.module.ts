import { Module } from '@nestjs/common';

/** Webhook dispatcher: the outbox relay and signed deliveries arrive with issue "Webhook dispatcher". */
@Module({})
export class WebhooksModule {}
