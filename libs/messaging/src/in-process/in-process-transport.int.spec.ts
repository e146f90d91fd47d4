import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { type INestMicroservice } from '@nestjs/common';
import { BusTimeoutError, type Exchange, NoHandlerError } from '../message-bus.port';
import { NestMessageBus } from '../nest-message-bus';
import { MessagePattern } from '../patterns';
import { InProcessBroker } from './in-process-broker';
import { InProcessClient } from './in-process.client';
import { InProcessServer } from './in-process.server';

const seenEvents: unknown[] = [];

/** The echo handlers' own payloads: the transport carries any JSON, whatever the BusContract declares. */
type EchoExchanges = {
  [MessagePattern.quote]: Exchange<{ n: number | bigint }, { doubled: number; at: string }>;
  [MessagePattern.prepare]: Exchange<object, never>;
  [MessagePattern.submit]: Exchange<object, never>;
  [MessagePattern.status]: Exchange<object, never>;
};

@Controller()
class EchoController {
  @OnMessage(MessagePattern.quote)
  quote(@Payload() payload: { n: number }) {
    return { doubled: payload.n * 2, at: new Date(0) };
  }

  @OnMessage(MessagePattern.status)
  slow() {
    return new Promise(() => undefined); // never answers
  }

  @OnMessage(MessagePattern.submit)
  failing(): never {
    throw new Error('handler exploded');
  }

  @EventPattern('attempt.lifecycle')
  async lifecycle(@Payload() payload: { value?: { fail?: boolean } }) {
    await new Promise((r) => setTimeout(r, 20));
    if (payload.value?.fail) throw new Error('consumer could not store it');
    seenEvents.push(payload);
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('in-process transport', () => {
  let broker: InProcessBroker;
  let server: INestMicroservice;
  let bus: NestMessageBus<EchoExchanges>;

  beforeAll(async () => {
    broker = new InProcessBroker();
    server = await NestFactory.createMicroservice(EchoModule, {
      strategy: new InProcessServer(broker),
      logger: false,
    });
    await server.listen();
    bus = new NestMessageBus<EchoExchanges>(new InProcessClient(broker));
  });
  afterAll(async () => server.close());

  it('serves @MessagePattern handlers with a JSON round trip (a Date arrives as its ISO string)', async () => {
    await expect(bus.request(MessagePattern.quote, { n: 21 }, { timeoutMs: 1000 })).resolves.toEqual({
      doubled: 42,
      at: '1970-01-01T00:00:00.000Z',
    });
  });

  it('rejects a payload that could not cross Kafka (bigint) instead of passing it by reference', async () => {
    await expect(bus.request(MessagePattern.quote, { n: 1n }, { timeoutMs: 1000 })).rejects.toThrow(/BigInt/);
  });

  it('times out with BusTimeoutError when the handler does not answer', async () => {
    await expect(bus.request(MessagePattern.status, {}, { timeoutMs: 50 })).rejects.toBeInstanceOf(
      BusTimeoutError,
    );
  });

  it('reports NoHandlerError when no server serves the pattern', async () => {
    await server.close();
    await expect(bus.request(MessagePattern.prepare, {}, { timeoutMs: 1000 })).rejects.toBeInstanceOf(
      NoHandlerError,
    );
    server = await NestFactory.createMicroservice(EchoModule, {
      strategy: new InProcessServer(broker),
      logger: false,
    });
    await server.listen();
  });

  it('propagates a handler error as a rejection', async () => {
    await expect(bus.request(MessagePattern.submit, {}, { timeoutMs: 1000 })).rejects.toBeDefined();
  });

  it('delivers keyed events to @EventPattern handlers', async () => {
    await bus.emit('attempt.lifecycle', 'attempt-1', { event: 'settled' });
    expect(seenEvents).toEqual([{ key: 'attempt-1', value: { event: 'settled' } }]);
  });

  it('resolves an emit only once the event handler finished and rejects it when the handler failed', async () => {
    seenEvents.length = 0;
    await bus.emit('attempt.lifecycle', 'attempt-2', { n: 2 });
    expect(seenEvents).toEqual([{ key: 'attempt-2', value: { n: 2 } }]); // no waiting needed: the emit awaited it
    await expect(bus.emit('attempt.lifecycle', 'attempt-3', { fail: true })).rejects.toEqual(
      expect.objectContaining({ status: 'error' }),
    );
    expect(seenEvents).toHaveLength(1);
  });
});
