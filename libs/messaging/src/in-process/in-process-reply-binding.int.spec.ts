import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { type BusReply, type BusRequest } from '../bus-contract';
import { type FeatureRequest } from '../envelopes';
import { BusTimeoutError } from '../message-bus.port';
import { NestMessageBus } from '../nest-message-bus';
import { OnBusRequest } from '../on-bus-request.decorator';
import { MessagePattern } from '../patterns';
import { InProcessBroker } from './in-process-broker';
import { InProcessClient } from './in-process.client';
import { InProcessServer } from './in-process.server';

type Status = typeof MessagePattern.status;

/** What the status handler received and answered, as its own code saw it (no binding: the server adds it). */
const answered: BusReply<Status>[] = [];

@Controller()
class StatusFeature {
  @OnBusRequest(MessagePattern.status)
  status(@Payload() request: BusRequest<Status>): Promise<BusReply<Status>> {
    // A feature that answers for attempt at_wrong with another attempt's snapshot (a bug, or a compromised app).
    const attemptId = request.resourceId === 'at_wrong' ? 'at_other' : (request.resourceId ?? '');
    const reply: BusReply<Status> = {
      ok: true,
      body: {
        attemptId,
        intentSessionId: 'is_1',
        partnerId: request.partnerId,
        status: 'prepared',
        currentStatus: 'prepared',
        walletAddress: '0x2222222222222222222222222222222222222222',
        recipient: '0x2222222222222222222222222222222222222222',
        submittedAt: null,
        perChainStatus: [],
        settledOutputs: [],
      },
      resource: null,
    };
    answered.push(reply);
    return Promise.resolve(reply);
  }
}

@Module({ controllers: [StatusFeature] })
class StatusModule {}

function statusRequest(attemptId: string): FeatureRequest<null> {
  return {
    partnerId: 'partner-a',
    requestId: `req-${attemptId}`,
    idempotencyKey: null,
    resourceId: attemptId,
    replayOf: null,
    body: null,
    receivedAt: Date.now(),
  };
}

// The in-process transport binds and screens replies as Kafka does (one process has nobody to forge them, but the
// one-process service then runs every operation through the same check the distributed gateway applies).
describe('in-process transport: replies bound to their requests', () => {
  let server: INestMicroservice;
  let bus: NestMessageBus;

  beforeAll(async () => {
    const broker = new InProcessBroker();
    server = await NestFactory.createMicroservice(StatusModule, {
      strategy: new InProcessServer(broker),
      logger: false,
    });
    await server.listen();
    bus = new NestMessageBus(new InProcessClient(broker));
  });
  afterAll(async () => server.close());

  it('hands the caller exactly what the handler answered: the server bound it, the client checked and unbound it', async () => {
    answered.length = 0;
    const reply = await bus.request(MessagePattern.status, statusRequest('at_1'), { timeoutMs: 1000 });
    expect(reply).toEqual(answered[0]);
    expect(reply).not.toHaveProperty('inReplyTo');
  });

  it('drops an answer about another attempt than the request named: the caller times out (503), never sees it', async () => {
    answered.length = 0;
    await expect(
      bus.request(MessagePattern.status, statusRequest('at_wrong'), { timeoutMs: 100 }),
    ).rejects.toBeInstanceOf(BusTimeoutError);
    expect(answered).toHaveLength(1);
  });
});
