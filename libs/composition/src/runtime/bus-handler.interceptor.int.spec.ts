import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type ClientKafka, MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import {
  BusKafkaServer,
  BusTimeoutError,
  createKafkaClient,
  createKafkaMessageBus,
  kafkaBusTopics,
  type Exchange,
  type KafkaBusConfig,
  MessagePattern,
  type NestMessageBus,
} from '@svc/messaging';
import { createLogger } from '@svc/platform';
import { probeKafkaBroker, type RunningKafkaBroker, startKafkaBroker } from '@svc/testing';
import { BusHandlerInterceptor } from './bus-handler.interceptor';

const broker = probeKafkaBroker();
if (!broker.available) {
  process.stdout.write(`bus handler deadline: skipped, no Kafka broker (${broker.reason})\n`);
}

/** The handler's own payloads: the transport carries any JSON, whatever the BusContract declares. */
type QuotePayload = { hang: boolean; n: number; delayMs?: number; requestId?: string; receivedAt?: number };
type QuoteExchanges = { [MessagePattern.quote]: Exchange<QuotePayload, { n: number }> };

/** The handlers that ran, by n. */
const ran: number[] = [];

@Controller()
class QuoteController {
  @OnMessage(MessagePattern.quote)
  quote(@Payload() payload: QuotePayload) {
    ran.push(payload.n);
    // A handler that never settles: a provider client without a timeout, a lock never released.
    if (payload.hang) return new Promise(() => undefined);
    return new Promise((resolve) => setTimeout(() => resolve({ n: payload.n }), payload.delayMs ?? 0));
  }
}

@Module({ controllers: [QuoteController] })
class QuoteModule {}

/** One partition per topic: the stuck message and the next one share it, as in the worst case. */
// Skipped without a Kafka broker (Java 17 and the jars of `npm run kafka:resolve`, run by .ci/run).
(broker.available ? describe : describe.skip)(
  'BusHandlerInterceptor over Kafka (a real Apache Kafka broker)',
  () => {
    let cluster: RunningKafkaBroker | undefined;
    let server: INestMicroservice | undefined;
    let client: ClientKafka | undefined;
    let bus: NestMessageBus<QuoteExchanges>;

    beforeAll(async () => {
      cluster = await startKafkaBroker({ topics: Object.fromEntries(kafkaBusTopics().map((t) => [t, 1])) });
      const config: KafkaBusConfig = {
        brokers: cluster.brokers,
        clientId: 'deadline-test',
        groupPrefix: `deadline-test-${process.pid}-${Date.now()}`,
        maxWaitTimeInMs: 5,
        idempotent: false,
        allowAutoTopicCreation: true,
        sessionTimeoutMs: 10_000,
        topicPrefix: '',
        handlerConcurrency: 8,
        ssl: false,
        sasl: null,
      };
      const strategy = new BusKafkaServer(config, 'quoting');
      server = await NestFactory.createMicroservice(QuoteModule, { strategy, logger: false });
      server.useGlobalInterceptors(
        new BusHandlerInterceptor(300, createLogger({ level: 'silent', name: 'test' })),
      );
      client = createKafkaClient(config, 'gateway');
      [, bus] = await Promise.all([server.listen(), createKafkaMessageBus<QuoteExchanges>(client)]);
      for (let i = 0; i < 100; i++) {
        try {
          strategy.assertConsuming();
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      strategy.assertConsuming();
    }, 60_000);

    afterAll(async () => {
      await client?.close();
      await server?.close();
      await cluster?.stop();
    }, 30_000);

    it('ends a handler that never settles at its deadline with an error reply, and the next message is served', async () => {
      const started = Date.now();
      const stuck = bus.request(MessagePattern.quote, { hang: true, n: 1 }, { timeoutMs: 5000 });
      // The server's deadline answered (300 ms), long before the caller's own 5 s timeout would have.
      await expect(stuck).rejects.toBeInstanceOf(BusTimeoutError);
      expect(Date.now() - started).toBeLessThan(4000);
      await expect(
        bus.request(MessagePattern.quote, { hang: false, n: 2 }, { timeoutMs: 5000 }),
      ).resolves.toEqual({
        n: 2,
      });
    }, 30_000);

    it('serves requests concurrently: a quick one is answered while a slow one on the same partition runs (H4)', async () => {
      const order: number[] = [];
      const slow = bus
        .request(MessagePattern.quote, { hang: false, n: 10, delayMs: 250 }, { timeoutMs: 5000 })
        .then(() => order.push(10));
      await new Promise((r) => setTimeout(r, 20));
      const quick = bus
        .request(MessagePattern.quote, { hang: false, n: 11 }, { timeoutMs: 5000 })
        .then(() => order.push(11));
      await Promise.all([slow, quick]);
      expect(order).toEqual([11, 10]);
    }, 30_000);

    it('drops a request older than its deadline without running it: the gateway answered 503 already (H4)', async () => {
      const late = bus.request(
        MessagePattern.quote,
        { hang: false, n: 12, requestId: 'late-1', receivedAt: Date.now() - 10_000 },
        { timeoutMs: 5000 },
      );
      await expect(late).rejects.toBeInstanceOf(BusTimeoutError);
      const fresh = { hang: false, n: 13, requestId: 'fresh-1', receivedAt: Date.now() };
      await expect(bus.request(MessagePattern.quote, fresh, { timeoutMs: 5000 })).resolves.toEqual({ n: 13 });
      expect(ran).not.toContain(12);
      expect(ran).toContain(13);
    }, 30_000);
  },
);
