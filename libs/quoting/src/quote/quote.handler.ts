import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type BusReply, type BusRequest, MessagePattern, OnBusRequest } from '@svc/messaging';
import { QuoteIntentService } from './quote-intent.service';

type Quote = typeof MessagePattern.quote;

/** `quoting.quote` over the bus: turns the gateway's validated request into a QuoteIntent. */
@Controller()
export class QuoteHandler {
  constructor(private readonly service: QuoteIntentService) {}

  @OnBusRequest(MessagePattern.quote)
  quote(@Payload() request: BusRequest<Quote>): Promise<BusReply<Quote>> {
    return this.service.quote({
      partnerId: request.partnerId,
      idempotencyKey: request.idempotencyKey,
      body: request.body,
      now: request.receivedAt,
      replayOf: request.replayOf?.id ?? null,
    });
  }
}
