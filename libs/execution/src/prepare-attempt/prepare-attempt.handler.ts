import { Controller } from '@nestjs/common';
import { MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { type FeatureReply, type FeatureRequest, MessagePattern } from '@svc/messaging';

/** `execution.prepare`: creates an attempt for a ready intent session (issue "Prepare" implements it). */
@Controller()
export class PrepareAttemptHandler {
  @OnMessage(MessagePattern.prepare)
  prepare(@Payload() _request: FeatureRequest): FeatureReply {
    return { ok: false, code: 'not_implemented', message: 'prepare is not available yet' };
  }
}
