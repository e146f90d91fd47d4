import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type ClientKafka, KafkaHeaders, Payload } from '@nestjs/microservices';
import { attemptIdFor, type ChainAction, type PrepareRequest } from '@svc/contract';
import { probeKafkaBroker, type RunningKafkaBroker, startKafkaBroker } from '@svc/testing';
import { type Consumer, Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import { register } from 'prom-client';
import { type BusReply, type BusRequest } from '../bus-contract';
import { type FeatureRequest } from '../envelopes';
import { BusTimeoutError } from '../message-bus.port';
import { type NestMessageBus } from '../nest-message-bus';
import { OnBusRequest } from '../on-bus-request.decorator';
import { MessagePattern } from '../patterns';
import {
  BusKafkaServer,
  createKafkaClient,
  createKafkaMessageBus,
  type KafkaBusConfig,
  kafkaBusTopics,
} from './kafka-transport';

// Review M6 / N-M8: anyone who can produce to a `*.reply` topic can answer a pending request before its feature
// does. The gateway's bus accepts a reply only when it answers that request (operation, requestId, partnerId, the
// resource named): a forged one is dropped and counted, and the request waits on for the genuine reply.

const kafka = probeKafkaBroker();
if (!kafka.available) {
  process.stdout.write(`kafka forged replies: skipped, no Apache Kafka broker here (${kafka.reason})\n`);
}

type Prepare = typeof MessagePattern.prepare;
type Status = typeof MessagePattern.status;

const PREFIX = 'forge.';
const REFUSED_METRIC = 'intent_bus_replies_refused_total';
/** A status request the genuine feature never answers in time: only forgeries come. */
const SILENT_ATTEMPT = 'at_silent';
const EVIL_ACTIONS = [chainAction('0xbad0', '0x000000000000000000000000000000000000dead')];

/** One sendTransaction of one call, with `data` as calldata. */
function chainAction(data: string, to = '0x1111111111111111111111111111111111111111'): ChainAction {
  const call = {
    chainId: 8453,
    to,
    data,
    value: '0',
    callId: 'chain:8453:call:0',
    callIndex: 0,
    quoteIndex: 0,
  };
  return {
    chainId: 8453,
    provider: 'across',
    submitMethod: 'sendTransaction',
    atomicRequired: false,
    calls: null,
    transactions: [call],
    transactionCount: 1,
    quoteCount: 1,
    quotePlans: [],
    perLegPreview: [],
  };
}

/** The replies a feature answers: what each caller must get, and nothing else. */
function genuinePrepare(request: FeatureRequest): BusReply<Prepare> {
  const intentSessionId = request.resourceId ?? '';
  const attemptId = attemptIdFor(request.partnerId, intentSessionId, request.idempotencyKey);
  return {
    ok: true,
    body: {
      attemptId,
      intentSessionId,
      status: 'prepared',
      expiresAt: '2030-01-01T00:00:30.000Z',
      chainActions: [chainAction(`0x${request.requestId.replace(/[^0-9a-f]/g, '')}`)],
      walletAuthorization: null,
    },
    resource: { kind: 'attempt', id: attemptId },
  };
}

function genuineStatus(request: FeatureRequest): BusReply<Status> {
  const attemptId = request.resourceId ?? '';
  return {
    ok: true,
    body: {
      attemptId,
      intentSessionId: `is_of_${attemptId}`,
      partnerId: request.partnerId,
      status: 'provider_pending',
      currentStatus: 'provider_pending',
      walletAddress: '0x2222222222222222222222222222222222222222',
      recipient: '0x2222222222222222222222222222222222222222',
      submittedAt: 1_700_000_000_000,
      perChainStatus: [],
      settledOutputs: [],
    },
    resource: null,
  };
}

/**
 * What a forger who reads the request topic answers first, for one request: every reply here must be dropped. The
 * binding (`inReplyTo`) is what a feature's bus server adds to its reply.
 */
function forgeriesOf(pattern: string, request: FeatureRequest, others: Sent[]): object[] {
  const binding = {
    operation: pattern,
    requestId: request.requestId,
    partnerId: request.partnerId,
    resourceId: request.resourceId,
  };
  const other = others.find(
    (o) => o.pattern === pattern && o.request.partnerId !== request.partnerId,
  )?.request;
  const bindingOf = (o: FeatureRequest) => ({
    operation: pattern,
    requestId: o.requestId,
    partnerId: o.partnerId,
    resourceId: o.resourceId,
  });
  if (pattern === MessagePattern.prepare) {
    const genuine = genuinePrepare(request) as Extract<BusReply<Prepare>, { ok: true }>;
    const evil = { ...genuine.body, chainActions: EVIL_ACTIONS };
    const mallory = attemptIdFor('mallory', request.resourceId ?? '', request.idempotencyKey);
    return [
      // Today's wire format, with the right attempt id (derivable from the request) and the attacker's calldata.
      { ...genuine, body: evil },
      // Another partnerId.
      {
        ...genuine,
        body: { ...evil, attemptId: mallory },
        resource: { kind: 'attempt', id: mallory },
        inReplyTo: { ...binding, partnerId: 'mallory' },
      },
      // The request's own binding, another attempt.
      {
        ...genuine,
        body: { ...evil, attemptId: 'at_forged' },
        resource: { kind: 'attempt', id: 'at_forged' },
        inReplyTo: binding,
      },
      // The request's own binding, the attempt of another intent session.
      {
        ...genuine,
        body: { ...evil, intentSessionId: 'is_other' },
        inReplyTo: binding,
      },
      // Another operation.
      { ...genuine, body: evil, inReplyTo: { ...binding, operation: MessagePattern.status } },
      // Another pending request's genuine reply, as its feature bound it (cross-wired).
      ...(other ? [{ ...genuinePrepare(other), inReplyTo: bindingOf(other) }] : []),
    ];
  }
  const genuine = genuineStatus(request) as Extract<BusReply<Status>, { ok: true }>;
  const settled = { ...genuine.body, status: 'settled', currentStatus: 'settled' };
  return [
    { ...genuine, body: settled },
    {
      ...genuine,
      body: { ...settled, partnerId: 'mallory' },
      inReplyTo: { ...binding, partnerId: 'mallory' },
    },
    { ...genuine, body: { ...settled, attemptId: 'at_forged' }, inReplyTo: binding },
    { ...genuine, body: { ...settled, partnerId: 'mallory' }, inReplyTo: binding },
    { ...genuine, body: settled, inReplyTo: { ...binding, operation: MessagePattern.prepare } },
    { ...genuine, body: settled, inReplyTo: { ...binding, resourceId: 'at_forged' } },
    ...(other ? [{ ...genuineStatus(other), inReplyTo: bindingOf(other) }] : []),
  ];
}

/** Requests the forger has answered (by requestId): a genuine handler answers only after the forgeries are out. */
const forged = new Map<string, { done: Promise<void>; resolve: () => void }>();
function forgeryOf(requestId: string) {
  let entry = forged.get(requestId);
  if (!entry) {
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    entry = { done, resolve };
    forged.set(requestId, entry);
  }
  return entry;
}
const isWarmUp = (request: FeatureRequest) => request.requestId.startsWith('warm-up');
interface Sent {
  pattern: typeof MessagePattern.prepare | typeof MessagePattern.status;
  request: FeatureRequest<unknown>;
}
/** Every request sent, so that the forger can cross-wire one's genuine reply into another's. */
const inFlight: Sent[] = [];
/** How many replies the forger sent for each request (by requestId). */
const forgedCount = new Map<string, number>();
const forgedFor = (requests: FeatureRequest[]) =>
  requests.reduce((n, r) => n + (forgedCount.get(r.requestId) ?? 0), 0);

@Controller()
class GenuineFeatures {
  @OnBusRequest(MessagePattern.prepare)
  async prepare(@Payload() request: BusRequest<Prepare>): Promise<BusReply<Prepare>> {
    await forgeryOf(request.requestId).done;
    return genuinePrepare(request);
  }

  @OnBusRequest(MessagePattern.status)
  async status(@Payload() request: BusRequest<Status>): Promise<BusReply<Status>> {
    if (!isWarmUp(request)) await forgeryOf(request.requestId).done;
    if (request.resourceId === SILENT_ATTEMPT) await new Promise((r) => setTimeout(r, 2_000));
    return genuineStatus(request);
  }
}

@Module({ controllers: [GenuineFeatures] })
class GenuineModule {}

function refusedCount(): Promise<number> {
  const metric = register.getSingleMetric(REFUSED_METRIC);
  if (!metric) return Promise.resolve(0);
  return Promise.resolve(metric.get()).then((m) => m.values.reduce((sum, v) => sum + v.value, 0));
}

let sequence = 0;
function request<B = null>(partnerId: string, resourceId: string, body: B = null as B): FeatureRequest<B> {
  sequence++;
  return {
    partnerId,
    requestId: `req-${sequence}-${partnerId}`,
    idempotencyKey: `key-${sequence}`,
    resourceId,
    replayOf: null,
    body,
    receivedAt: Date.now(),
  };
}

// Skipped without Java 17+ and the broker's jars (`npm run kafka:resolve`, run by .ci/run): the reason is printed.
(kafka.available ? describe : describe.skip)('kafka bus: forged replies (Apache Kafka broker)', () => {
  let cluster: RunningKafkaBroker | undefined;
  let server: INestMicroservice | undefined;
  let client: ClientKafka | undefined;
  let forger: { consumer: Consumer; producer: Producer } | undefined;
  let bus: NestMessageBus;

  beforeAll(async () => {
    cluster = await startKafkaBroker({
      topics: Object.fromEntries(kafkaBusTopics(PREFIX).map((t) => [t, 2])),
    });
    const config: KafkaBusConfig = {
      brokers: cluster.brokers,
      clientId: 'forged-replies-test',
      groupPrefix: `forged-replies-${process.pid}-${Date.now()}`,
      maxWaitTimeInMs: 5,
      idempotent: false,
      allowAutoTopicCreation: true,
      sessionTimeoutMs: 10_000,
      topicPrefix: PREFIX,
      handlerConcurrency: 32,
      ssl: false,
      sasl: null,
    };
    forger = await startForger(cluster.brokers);
    const app = await NestFactory.createMicroservice(GenuineModule, {
      strategy: new BusKafkaServer(config, 'features'),
      logger: false,
    });
    server = app;
    client = createKafkaClient(config, 'gateway');
    const [, connected] = await Promise.all([app.listen(), createKafkaMessageBus(client, PREFIX)]);
    bus = connected;
    // A fresh group starts at the latest offset once its first fetch resolved it: wait until the feature answers.
    for (let attempt = 0; ; attempt++) {
      try {
        await bus.request(MessagePattern.status, request('warm-up', `at_warm_${attempt}`), {
          timeoutMs: 1000,
        });
        break;
      } catch (err) {
        if (!(err instanceof BusTimeoutError) || attempt >= 10) throw err;
      }
    }
  }, 150_000);

  afterAll(async () => {
    await forger?.consumer.disconnect();
    await forger?.producer.disconnect();
    await client?.close();
    await server?.close();
    await cluster?.stop();
  });

  it('hands a prepare its own genuine reply: forgeries with another partner, attempt, session or operation are dropped and counted', async () => {
    const before = await refusedCount();
    const sent = request<PrepareRequest>('partner-a', 'is_one', {});
    inFlight.push({ pattern: MessagePattern.prepare, request: sent });
    const reply = await bus.request(MessagePattern.prepare, sent, { timeoutMs: 5_000 });
    expect(reply).toEqual(genuinePrepare(sent));
    expect(JSON.stringify(reply)).not.toContain('dead');
    expect(forgedFor([sent])).toBe(5);
    expect((await refusedCount()) - before).toBe(5);
  });

  it('answers BusTimeoutError (the 503 path) when only forgeries come, never their data', async () => {
    const before = await refusedCount();
    const sent = request('partner-b', SILENT_ATTEMPT);
    inFlight.push({ pattern: MessagePattern.status, request: sent });
    await expect(bus.request(MessagePattern.status, sent, { timeoutMs: 800 })).rejects.toBeInstanceOf(
      BusTimeoutError,
    );
    expect(forgedFor([sent])).toBeGreaterThanOrEqual(6);
    expect((await refusedCount()) - before).toBe(forgedFor([sent]));
  });

  it('hands each of many concurrent requests its own genuine reply while forgeries and cross-wired replies are interleaved', async () => {
    const before = await refusedCount();
    const sent = Array.from({ length: 24 }, (_, i): Sent => {
      const partner = i % 3 === 0 ? 'partner-a' : i % 3 === 1 ? 'partner-b' : 'partner-c';
      return i % 2 === 0
        ? { pattern: MessagePattern.prepare, request: request<PrepareRequest>(partner, `is_${i}`, {}) }
        : { pattern: MessagePattern.status, request: request(partner, `at_${i}`) };
    });
    inFlight.push(...sent);
    const replies = await Promise.all(
      sent.map((s) => bus.request(s.pattern, s.request as never, { timeoutMs: 10_000 })),
    );
    replies.forEach((reply, i) => {
      const { pattern, request: r } = sent[i];
      expect(reply).toEqual(pattern === MessagePattern.prepare ? genuinePrepare(r) : genuineStatus(r));
    });
    // Five or six forgeries per prepare, six or seven per status (with a cross-wired reply when another partner's
    // request of the same operation was in flight): every one dropped and counted.
    expect(forgedFor(sent.map((s) => s.request))).toBeGreaterThanOrEqual(24 * 5);
    expect((await refusedCount()) - before).toBe(forgedFor(sent.map((s) => s.request)));
  }, 30_000);
});

/**
 * A client of the broker that is none of the apps: it reads every request and answers it first on its reply topic
 * and partition, under the request's correlation id, as a feature would.
 */
async function startForger(brokers: string[]): Promise<{ consumer: Consumer; producer: Producer }> {
  const forgerKafka = new Kafka({ clientId: 'forger', brokers, logLevel: logLevel.NOTHING });
  const producer = forgerKafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  const consumer = forgerKafka.consumer({
    groupId: `forger-${process.pid}-${Date.now()}`,
    maxWaitTimeInMs: 5,
  });
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({
    topics: [MessagePattern.prepare, MessagePattern.status].map((p) => `${PREFIX}${p}`),
    fromBeginning: true,
  });
  await consumer.run({
    partitionsConsumedConcurrently: 4,
    eachMessage: async ({ topic, message }) => {
      const request = JSON.parse(message.value?.toString() ?? 'null') as FeatureRequest;
      if (isWarmUp(request)) return;
      const header = (name: string) => message.headers?.[name]?.toString() ?? '';
      const pattern = topic.slice(PREFIX.length);
      const replies = forgeriesOf(pattern, request, inFlight);
      forgedCount.set(request.requestId, replies.length);
      await producer.send({
        topic: header(KafkaHeaders.REPLY_TOPIC),
        messages: replies.map((reply) => ({
          partition: Number(header(KafkaHeaders.REPLY_PARTITION)),
          value: JSON.stringify(reply),
          headers: {
            [KafkaHeaders.CORRELATION_ID]: header(KafkaHeaders.CORRELATION_ID),
            [KafkaHeaders.NEST_IS_DISPOSED]: '1',
          },
        })),
      });
      forgeryOf(request.requestId).resolve();
    },
  });
  return { consumer, producer };
}
