import { Controller } from '@nestjs/common';
import { MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { type FeatureReply, type FeatureRequest, MessagePattern } from '@svc/messaging';

/** `quoting.quote`: creates an intent session (issue "Quoting" implements it). */
@Controller()
export class QuoteHandler {
  @OnMessage(MessagePattern.quote)
  quote(@Payload() _request: FeatureRequest): FeatureReply {
    return { ok: false, code: 'not_implemented', message: 'quoting is not available yet' };
  }
}
