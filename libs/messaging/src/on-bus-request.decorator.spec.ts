import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { type BusReply, type BusRequest } from './bus-contract';
import { OnBusRequest } from './on-bus-request.decorator';
import { MessagePattern } from './patterns';

type Status = typeof MessagePattern.status;
type Prepare = typeof MessagePattern.prepare;

class Handlers {
  @OnBusRequest(MessagePattern.status)
  status(request: BusRequest<Status>): Promise<BusReply<Status>> {
    return Promise.resolve({ ok: false, code: 'attempt_not_found', message: request.resourceId ?? '' });
  }

  @OnBusRequest(MessagePattern.prepare)
  prepare(request: BusRequest<Prepare>): Promise<BusReply<Prepare>> {
    // A probe is part of prepare's request: it is told apart by its rejected body.
    return Promise.resolve({
      ok: false,
      code: 'invalid_request_body',
      message: 'rejectedBody' in request ? 'probe' : 'prepare',
    });
  }
}

class Mismatched {
  // @ts-expect-error a status handler must take the status request (here: the submit body's envelope)
  @OnBusRequest(MessagePattern.status)
  status(request: BusRequest<typeof MessagePattern.submit>): Promise<BusReply<Status>> {
    return Promise.resolve({ ok: false, code: 'attempt_not_found', message: request.requestId });
  }

  // @ts-expect-error a quote handler must answer the quote reply
  @OnBusRequest(MessagePattern.quote)
  quote(): Promise<BusReply<Status>> {
    return Promise.resolve({ ok: false, code: 'attempt_not_found', message: '' });
  }
}

describe('OnBusRequest', () => {
  it('registers the method for its pattern, as @MessagePattern does', () => {
    expect(Reflect.getMetadata(PATTERN_METADATA, Handlers.prototype.status)).toEqual([MessagePattern.status]);
    expect(Reflect.getMetadata(PATTERN_METADATA, Handlers.prototype.prepare)).toEqual([
      MessagePattern.prepare,
    ]);
  });

  // The check itself is the compiler's (the @ts-expect-error lines above fail `npm run typecheck` once it accepts a
  // mismatch); at run time the pattern is registered all the same.
  it('leaves a mismatched handler to the compiler', () => {
    expect(Reflect.getMetadata(PATTERN_METADATA, Mismatched.prototype.quote)).toEqual([MessagePattern.quote]);
  });
});
