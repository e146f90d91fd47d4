import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type BusReply, type BusRequest, MessagePattern, OnBusRequest } from '@svc/messaging';
import { WebhookControlService } from './webhook-control.service';

type Events = typeof MessagePattern.webhookEvents;
type Redeliver = typeof MessagePattern.webhookRedeliver;
type Recover = typeof MessagePattern.webhookRecover;

/** The partner's webhook control plane over the bus (`webhooks.events`, `webhooks.redeliver`, `webhooks.recover`). */
@Controller()
export class WebhookControlHandler {
  constructor(private readonly service: WebhookControlService) {}

  @OnBusRequest(MessagePattern.webhookEvents)
  events(@Payload() request: BusRequest<Events>): Promise<BusReply<Events>> {
    return this.service.list(request);
  }

  @OnBusRequest(MessagePattern.webhookRedeliver)
  redeliver(@Payload() request: BusRequest<Redeliver>): Promise<BusReply<Redeliver>> {
    return this.service.redeliver(request);
  }

  @OnBusRequest(MessagePattern.webhookRecover)
  recover(@Payload() request: BusRequest<Recover>): Promise<BusReply<Recover>> {
    return this.service.recover(request);
  }
}
