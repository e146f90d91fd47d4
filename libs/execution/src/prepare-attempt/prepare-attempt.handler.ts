import { Controller } from '@nestjs/common';
import { MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { type PrepareRequest } from '@svc/contract';
import { type FeatureReply, type FeatureRequest, MessagePattern } from '@svc/messaging';
import { PrepareAttemptService } from './prepare-attempt.service';

/** `execution.prepare` over the bus. */
@Controller()
export class PrepareAttemptHandler {
  constructor(private readonly service: PrepareAttemptService) {}

  @OnMessage(MessagePattern.prepare)
  prepare(@Payload() request: FeatureRequest<PrepareRequest | null>): Promise<FeatureReply> {
    return this.service.prepare(request);
  }
}
