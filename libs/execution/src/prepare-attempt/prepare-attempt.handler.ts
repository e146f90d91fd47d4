import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type BusReply, type BusRequest, MessagePattern, OnBusRequest } from '@svc/messaging';
import { PrepareAttemptService } from './prepare-attempt.service';

type Prepare = typeof MessagePattern.prepare;

/**
 * `execution.prepare` over the bus: a request becomes a PrepareAttempt, a precondition probe (the gateway found the
 * body invalid) a CheckPreconditions.
 */
@Controller()
export class PrepareAttemptHandler {
  constructor(private readonly service: PrepareAttemptService) {}

  @OnBusRequest(MessagePattern.prepare)
  async prepare(@Payload() request: BusRequest<Prepare>): Promise<BusReply<Prepare>> {
    const intentSessionId = request.resourceId;
    // The gateway routes prepare by this id, so it is always there; without it no session could be meant.
    if (!intentSessionId)
      return { ok: false, code: 'intent_session_not_found', message: 'no intent session with this id' };
    if ('rejectedBody' in request)
      return this.service.checkPreconditions({
        partnerId: request.partnerId,
        intentSessionId,
        now: request.receivedAt,
        bodyErrors: request.rejectedBody,
      });
    return this.service.prepare({
      partnerId: request.partnerId,
      intentSessionId,
      idempotencyKey: request.idempotencyKey,
      body: request.body,
      now: request.receivedAt,
      replayOf: request.replayOf?.id ?? null,
    });
  }
}
