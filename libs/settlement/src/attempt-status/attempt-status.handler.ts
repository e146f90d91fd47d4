import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type BusReply, type BusRequest, MessagePattern, OnBusRequest } from '@svc/messaging';
import { attemptNotFound } from '../attempt-store/attempt-not-found';
import { AttemptStatusService } from './attempt-status.service';

type Status = typeof MessagePattern.status;

/** `settlement.status` over the bus: turns the gateway's request into a ReadAttemptStatus. */
@Controller()
export class AttemptStatusHandler {
  constructor(private readonly service: AttemptStatusService) {}

  @OnBusRequest(MessagePattern.status)
  async status(@Payload() request: BusRequest<Status>): Promise<BusReply<Status>> {
    // The gateway routes status by this id, so it is always there; an empty one must never read `attempt-`.
    if (!request.resourceId) return attemptNotFound();
    return this.service.status({ partnerId: request.partnerId, attemptId: request.resourceId });
  }
}
