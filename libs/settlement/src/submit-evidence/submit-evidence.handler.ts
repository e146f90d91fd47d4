import { Controller } from '@nestjs/common';
import { MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { type SubmittedRequest } from '@svc/contract';
import { type FeatureReply, type FeatureRequest, MessagePattern } from '@svc/messaging';
import { AttemptStatusService } from '../attempt-status/attempt-status.service';
import { SubmitEvidenceService } from './submit-evidence.service';

/** `settlement.submit` and `settlement.status` over the bus. */
@Controller()
export class SubmitEvidenceHandler {
  constructor(
    private readonly submitted: SubmitEvidenceService,
    private readonly statuses: AttemptStatusService,
  ) {}

  @OnMessage(MessagePattern.submit)
  submit(@Payload() request: FeatureRequest<SubmittedRequest>): Promise<FeatureReply> {
    return this.submitted.submit(request);
  }

  @OnMessage(MessagePattern.status)
  status(@Payload() request: FeatureRequest<null>): Promise<FeatureReply> {
    return this.statuses.status(request);
  }
}
