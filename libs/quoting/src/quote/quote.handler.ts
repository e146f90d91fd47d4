import { Controller } from '@nestjs/common';
import { MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { type QuoteRequest } from '@svc/contract';
import { type FeatureReply, type FeatureRequest, MessagePattern } from '@svc/messaging';
import { QuoteIntentService } from './quote-intent.service';

/** `quoting.quote` over the bus: the gateway sends the validated request, the reply is the QuoteResponse. */
@Controller()
export class QuoteHandler {
  constructor(private readonly service: QuoteIntentService) {}

  @OnMessage(MessagePattern.quote)
  quote(@Payload() request: FeatureRequest<QuoteRequest>): Promise<FeatureReply> {
    return this.service.quote(request);
  }
}
