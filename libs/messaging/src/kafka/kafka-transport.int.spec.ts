import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type ClientKafka, EventPattern, MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { probeKafkaBroker, type RunningKafkaBroker, startKafkaBroker } from '@svc/testing';
import { BusTimeoutError, type Exchange } from '../message-bus.port';
import { type NestMessageBus } from '../nest-message-bus';
import { MessagePattern, Topic } from '../patterns';
import {
  createKafkaClient,
  createKafkaMessageBus,
  type KafkaBusConfig,
  kafkaBusTopics,
  BusKafkaServer,
} from './kafka-transport';

const kafka = probeKafkaBroker();
if (!kafka.available) {
  process.stdout.write(`kafka bus: skipped, no Apache Kafka broker here (${kafka.reason})\n`);
}

const seenEvents: { key: string | null; value: { seq: number } }[] = [];

/** The echo handlers' own payloads: the transport carries any JSON, whatever the BusContract declares. */
type EchoExchanges = {
  [MessagePattern.quote]: Exchange<{ n: number }, { doubled: number; at: string }>;
  [MessagePattern.status]: Exchange<object, { late: true }>;
};

@Controller()
class EchoController {
  @OnMessage(MessagePattern.quote)
  quote(@Payload() payload: { n: number }) {
    return { doubled: payload.n * 2, at: new Date(0) };
  }

  @OnMessage(MessagePattern.status)
  async slow() {
    // Answers late. A handler that never settles would stall the server's consumer: kafkajs awaits each message.
    await new Promise((r) => setTimeout(r, 400));
    return { late: true };
  }

  @EventPattern(Topic.attemptLifecycle)
  lifecycle(@Payload() payload: { key: string | null; value: { seq: number } }) {
    seenEvents.push(payload);
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

const lateEvents: { key: string | null; value: { seq: number } }[] = [];

/** A second consumer group of the lifecycle topic, started and stopped by the test. */
@Controller()
class LateController {
  @EventPattern(Topic.attemptLifecycle)
  lifecycle(@Payload() payload: { key: string | null; value: { seq: number } }) {
    lateEvents.push(payload);
  }
}

@Module({ controllers: [LateController] })
class LateModule {}

const pairEvents: { member: string; key: string | null; seq: number }[] = [];

/** One member of a two-member consumer group of the lifecycle topic: its own module, so events say who got them. */
function pairMember(member: string) {
  @Controller()
  class PairController {
    @EventPattern(Topic.attemptLifecycle)
    lifecycle(@Payload() payload: { key: string | null; value: { seq: number } }) {
      pairEvents.push({ member, key: payload.key, seq: payload.value.seq });
    }
  }
  @Module({ controllers: [PairController] })
  class PairModule {}
  return PairModule;
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Skipped without Java 17+ and the broker's jars (`npm run kafka:resolve`, run by .ci/run): the reason is printed.
(kafka.available ? describe : describe.skip)('kafka transport (Apache Kafka broker)', () => {
  let cluster: RunningKafkaBroker | undefined;
  let server: INestMicroservice | undefined;
  let client: ClientKafka | undefined;
  let bus: NestMessageBus<EchoExchanges>;
  let config: KafkaBusConfig;

  beforeAll(async () => {
    cluster = await startKafkaBroker({
      // Named with a prefix, as KAFKA_TOPIC_PREFIX does: handlers and callers keep the logical names.
      topics: Object.fromEntries(
        kafkaBusTopics('it.').map((t) => [t, t === `it.${Topic.attemptLifecycle}` ? 4 : 1]),
      ),
    });
    config = {
      brokers: cluster.brokers,
      clientId: 'bus-test',
      groupPrefix: `bus-test-${process.pid}-${Date.now()}`, // fresh groups each run
      maxWaitTimeInMs: 5,
      idempotent: false,
      allowAutoTopicCreation: true,
      sessionTimeoutMs: 10_000,
      topicPrefix: 'it.',
      handlerConcurrency: 8,
      ssl: false,
      sasl: null,
    };
    // Join the server's group and the client's reply group in parallel.
    const app = await NestFactory.createMicroservice(EchoModule, {
      strategy: new BusKafkaServer(config, 'echo'),
      logger: false,
    });
    server = app;
    client = createKafkaClient(config, 'gateway');
    const [, connected] = await Promise.all([
      app.listen(),
      createKafkaMessageBus<EchoExchanges>(client, config.topicPrefix),
    ]);
    bus = connected;
    // A fresh group starts at the latest offset once its first fetch resolved it: wait until the server answers.
    for (let attempt = 0; ; attempt++) {
      try {
        await bus.request(MessagePattern.quote, { n: 0 }, { timeoutMs: 1000 });
        break;
      } catch (err) {
        if (!(err instanceof BusTimeoutError) || attempt >= 5) throw err;
      }
    }
  }, 150_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await cluster?.stop();
  });

  it('serves @MessagePattern handlers with a JSON round trip over Kafka', async () => {
    await expect(bus.request(MessagePattern.quote, { n: 21 }, { timeoutMs: 2000 })).resolves.toEqual({
      doubled: 42,
      at: '1970-01-01T00:00:00.000Z',
    });
  });

  it('times out with BusTimeoutError when the handler answers too late', async () => {
    await expect(bus.request(MessagePattern.status, {}, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      BusTimeoutError,
    );
  });

  it('delivers keyed events as { key, value } in order per key', async () => {
    seenEvents.length = 0;
    const keys = ['attempt-a', 'attempt-b', 'attempt-c'];
    // Keys in parallel, each key's events one after another (as one attempt's lifecycle is emitted).
    await Promise.all(
      keys.map(async (key) => {
        for (let seq = 0; seq < 20; seq++) await bus.emit(Topic.attemptLifecycle, key, { seq });
      }),
    );
    await waitFor(() => seenEvents.length >= 60, 10_000);
    expect(seenEvents).toHaveLength(60);
    for (const key of keys) {
      expect(seenEvents.filter((e) => e.key === key).map((e) => e.value.seq)).toEqual(
        Array.from({ length: 20 }, (_, i) => i),
      );
    }
  });

  // A member killed after the relay published an event but before it committed an offset for that partition: the
  // group has no offset there, and a consumer that starts at the latest offset skips the event for good (the outbox
  // already moved its checkpoint). Event topics are read from the earliest offset when the group has none.
  it('delivers an event published while no member of a group that never committed runs, once one starts', async () => {
    const start = async () => {
      const strategy = new BusKafkaServer(config, 'late-consumer');
      const app = await NestFactory.createMicroservice(LateModule, { strategy, logger: false });
      await app.listen();
      await waitFor(() => {
        try {
          strategy.assertConsuming();
          return true;
        } catch {
          return false;
        }
      }, 15_000);
      return app;
    };
    const first = await start(); // joins the group, consumes nothing, commits nothing
    await first.close();
    await bus.emit(Topic.attemptLifecycle, 'attempt-while-down', { seq: 1 });
    const second = await start();
    try {
      await waitFor(() => lateEvents.some((e) => e.key === 'attempt-while-down'), 10_000);
      expect(lateEvents.filter((e) => e.key === 'attempt-while-down')).toEqual([
        { key: 'attempt-while-down', value: { seq: 1 } },
      ]);
    } finally {
      await second.close();
    }
  }, 60_000);

  // What librdkafka's mock cluster could not do: a group of several members (several replicas of one app).
  it('shares a group between two members, and the one left takes over every partition when the other leaves', async () => {
    const start = async (member: string) => {
      const strategy = new BusKafkaServer(config, 'pair');
      const app = await NestFactory.createMicroservice(pairMember(member), { strategy, logger: false });
      await app.listen();
      await waitFor(() => {
        try {
          strategy.assertConsuming();
          return true;
        } catch {
          return false;
        }
      }, 15_000);
      return app;
    };
    // The group reads the topic from its start (it has no offsets): the other tests' events come too, left aside.
    const keys = Array.from({ length: 8 }, (_, i) => `pair-${i}`);
    const ours = () => pairEvents.filter((e) => e.key?.startsWith('pair-'));
    let round = 0;
    const emitRound = () =>
      Promise.all(keys.map((key) => bus.emit(Topic.attemptLifecycle, key, { seq: round })));
    const members = () => new Set(ours().map((e) => e.member));
    const a = await start('a');
    const b = await start('b');
    // The second join rebalances the group: rounds until both members have been given events.
    for (; round < 60 && members().size < 2; round++) {
      await emitRound();
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(members()).toEqual(new Set(['a', 'b']));
    await a.close(); // leaves the group: b is given a's partitions at once
    const leftAt = ours().length;
    const last = round + 5;
    for (; round < last; round++) await emitRound();
    try {
      await waitFor(() => ours().length >= keys.length * round, 20_000);
      expect(
        ours()
          .slice(leftAt)
          .every((e) => e.member === 'b'),
      ).toBe(true);
      for (const key of keys) {
        // Every event once, in order per key, across the rebalances.
        expect(
          ours()
            .filter((e) => e.key === key)
            .map((e) => e.seq),
        ).toEqual(Array.from({ length: round }, (_, i) => i));
      }
    } finally {
      await b.close();
    }
  }, 90_000);
});
