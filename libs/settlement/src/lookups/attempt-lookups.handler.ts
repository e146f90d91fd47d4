import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type BusReply, type BusRequest, MessagePattern, OnBusRequest } from '@svc/messaging';
import { AttemptLookupsService } from './attempt-lookups.service';

type Search = typeof MessagePattern.searchAttempts;
type TransactionAttempt = typeof MessagePattern.transactionAttempt;

/** `settlement.search-attempts` and `settlement.transaction-attempt` over the bus: read-only, partner-scoped. */
@Controller()
export class AttemptLookupsHandler {
  constructor(private readonly service: AttemptLookupsService) {}

  @OnBusRequest(MessagePattern.searchAttempts)
  search(@Payload() request: BusRequest<Search>): Promise<BusReply<Search>> {
    return this.service.search(request.partnerId, request.body);
  }

  @OnBusRequest(MessagePattern.transactionAttempt)
  transactionAttempt(
    @Payload() request: BusRequest<TransactionAttempt>,
  ): Promise<BusReply<TransactionAttempt>> {
    return this.service.transactionAttempt(request.partnerId, request.resourceId ?? '');
  }
}
