import { MessagePattern as NestMessagePattern } from '@nestjs/microservices';
import { type BusReply, type BusRequest } from './bus-contract';
import { type MessagePatternName } from './patterns';

/**
 * `@MessagePattern(pattern)` for a handler of one of the BusContract's patterns, checked against it: the method must
 * take that pattern's request (probe included, where the pattern has one) and answer its reply, so a handler cannot
 * drift from what the gateway sends.
 */
export function OnBusRequest<P extends MessagePatternName>(pattern: P) {
  return <THandler extends (request: BusRequest<P>) => Promise<BusReply<P>>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<THandler>,
  ): void => {
    NestMessagePattern(pattern)(target, key, descriptor);
  };
}
