import { Controller } from '@nestjs/common';
import { MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { type FeatureReply, type FeatureRequest, MessagePattern } from '@svc/messaging';

/** `settlement.submit` and `settlement.status` (issue "Evidence, on-chain verification" implements them). */
@Controller()
export class SubmitEvidenceHandler {
  @OnMessage(MessagePattern.submit)
  submit(@Payload() _request: FeatureRequest): FeatureReply {
    return { ok: false, code: 'not_implemented', message: 'evidence reporting is not available yet' };
  }

  @OnMessage(MessagePattern.status)
  status(@Payload() _request: FeatureRequest): FeatureReply {
    return { ok: false, code: 'not_implemented', message: 'attempt status is not available yet' };
  }
}
