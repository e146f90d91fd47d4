import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type BusReply, type BusRequest, MessagePattern, OnBusRequest } from '@svc/messaging';
import { attemptNotFound } from '../attempt-store/attempt-not-found';
import { SubmitEvidenceService } from './submit-evidence.service';

type Submit = typeof MessagePattern.submit;

/** `settlement.submit` over the bus: turns the gateway's validated request into a SubmitEvidence. */
@Controller()
export class SubmitEvidenceHandler {
  constructor(private readonly service: SubmitEvidenceService) {}

  @OnBusRequest(MessagePattern.submit)
  async submit(@Payload() request: BusRequest<Submit>): Promise<BusReply<Submit>> {
    // The gateway routes submitted by this id, so it is always there; an empty one must never read `attempt-`.
    if (!request.resourceId) return attemptNotFound();
    return this.service.submit({
      partnerId: request.partnerId,
      attemptId: request.resourceId,
      idempotencyKey: request.idempotencyKey,
      requestId: request.requestId,
      body: request.body,
      now: request.receivedAt,
      replayOf: request.replayOf?.id ?? null,
    });
  }
}
