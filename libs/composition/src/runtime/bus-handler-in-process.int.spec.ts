import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import {
  BusTimeoutError,
  type Exchange,
  InProcessBroker,
  InProcessClient,
  InProcessServer,
  MessagePattern,
  NestMessageBus,
} from '@svc/messaging';
import { createLogger } from '@svc/platform';
import { BusHandlerInterceptor } from './bus-handler.interceptor';

type QuotePayload = { n: number; hang?: boolean; requestId?: string; receivedAt?: number };
type QuoteExchanges = { [MessagePattern.quote]: Exchange<QuotePayload, { n: number }> };

const ran: number[] = [];

@Controller()
class QuoteController {
  @OnMessage(MessagePattern.quote)
  quote(@Payload() payload: QuotePayload) {
    ran.push(payload.n);
    if (payload.hang) return new Promise(() => undefined);
    return { n: payload.n };
  }
}

@Module({ controllers: [QuoteController] })
class QuoteModule {}

describe('BusHandlerInterceptor over the in-process bus (the one-process service)', () => {
  let server: INestMicroservice;
  let bus: NestMessageBus<QuoteExchanges>;

  beforeAll(async () => {
    const broker = new InProcessBroker();
    server = await NestFactory.createMicroservice(QuoteModule, {
      strategy: new InProcessServer(broker),
      logger: false,
    });
    server.useGlobalInterceptors(
      new BusHandlerInterceptor(300, createLogger({ level: 'silent', name: 'test' })),
    );
    await server.listen();
    bus = new NestMessageBus<QuoteExchanges>(new InProcessClient(broker));
  });
  afterAll(async () => server.close());

  it('a request dropped as past its deadline rejects with BusTimeoutError (the gateway answers 503), without running', async () => {
    const late = bus.request(
      MessagePattern.quote,
      { n: 1, requestId: 'late-1', receivedAt: Date.now() - 10_000 },
      { timeoutMs: 5000 },
    );
    await expect(late).rejects.toBeInstanceOf(BusTimeoutError);
    expect(ran).not.toContain(1);
  });

  it("a handler that runs past its deadline rejects with BusTimeoutError before the caller's own timeout", async () => {
    const started = Date.now();
    await expect(
      bus.request(
        MessagePattern.quote,
        { n: 2, hang: true, requestId: 'slow-2', receivedAt: Date.now() },
        { timeoutMs: 5000 },
      ),
    ).rejects.toBeInstanceOf(BusTimeoutError);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
