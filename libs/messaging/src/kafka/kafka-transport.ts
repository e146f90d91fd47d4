import {
  ClientKafka,
  ServerKafka,
  type ClientProxy,
  type ConsumerDeserializer,
  type IncomingEvent,
  type IncomingRequest,
  KafkaHeaders,
  type KafkaOptions,
  type MessageHandler,
  type MsPattern,
  type ReadPacket,
  Transport,
  type WritePacket,
} from '@nestjs/microservices';
import { type Consumer, type EachMessagePayload, Partitioners } from 'kafkajs';
import './kafkajs-negative-timeout';
import { contextFromCarrier } from '@svc/platform';
import { type FeatureExchanges } from '../bus-contract';
import { processSpan } from '../bus-spans';
import { type Exchanges } from '../message-bus.port';
import { NestMessageBus } from '../nest-message-bus';
import { MessagePattern, Topic } from '../patterns';
import { bindingReplies } from '../reply-binding';
import { screenReplies } from '../reply-screen';
import { type KafkaBusConfig } from './kafka-bus-config';
import { TraceContextKafkaSerializer } from './trace-context.serializer';

// The Kafka binding of the message bus (distributed composition); its settings are in kafka-bus-config.ts.
export type { KafkaBusConfig } from './kafka-bus-config';

const requestPatterns: readonly string[] = Object.values(MessagePattern);

/** Every topic the bus uses, as named on the wire: request topics, their reply topics, event topics. */
export function kafkaBusTopics(topicPrefix = ''): string[] {
  return [...requestPatterns, ...requestPatterns.map((p) => `${p}.reply`), ...Object.values(Topic)].map(
    (t) => `${topicPrefix}${t}`,
  );
}

/**
 * Server-side deserializer: a request handler gets the message value (as with any Nest transport); an event
 * handler gets `{ key, value }`, exactly what the in-process transport hands it, so one handler serves both.
 */
export class KafkaBusDeserializer implements ConsumerDeserializer {
  constructor(private readonly topicPrefix = '') {}

  deserialize(
    message: { key?: unknown; value?: unknown; headers?: Record<string, unknown> },
    options?: { channel?: string },
  ): IncomingRequest | IncomingEvent {
    const isRequest = message.headers?.[KafkaHeaders.REPLY_TOPIC] !== undefined;
    const key = keyAsString(message.key);
    return {
      pattern: withoutPrefix(options?.channel, this.topicPrefix),
      data: isRequest ? message.value : { key, value: message.value },
    } as IncomingRequest | IncomingEvent;
  }
}

/** The logical pattern of a topic on the wire. */
function withoutPrefix(topic: string | undefined, prefix: string): string | undefined {
  return prefix && topic?.startsWith(prefix) ? topic.slice(prefix.length) : topic;
}

/** Nest's KafkaParser hands the key over decoded: a string, parsed JSON when it looked like JSON, or raw bytes. */
function keyAsString(key: unknown): string | null {
  if (key === null || key === undefined) return null;
  if (typeof key === 'string') return key;
  if (Buffer.isBuffer(key)) return key.toString();
  return JSON.stringify(key);
}

function commonOptions(config: KafkaBusConfig, app: string) {
  return {
    client: {
      clientId: config.clientId,
      brokers: config.brokers,
      ...(config.ssl === false ? {} : { ssl: config.ssl.ca ? { ca: [config.ssl.ca] } : true }),
      ...(config.sasl ? { sasl: config.sasl } : {}),
    },
    consumer: {
      groupId: `${config.groupPrefix}.${app}`,
      maxWaitTimeInMs: config.maxWaitTimeInMs,
      allowAutoTopicCreation: config.allowAutoTopicCreation,
      sessionTimeout: config.sessionTimeoutMs,
      heartbeatInterval: Math.min(3000, Math.floor(config.sessionTimeoutMs / 3)),
    },
    // The Java client's murmur2 partitioner (kafkajs 2's default, chosen explicitly so it does not warn): a key maps to
    // the same partition whichever client produced it.
    producer: {
      createPartitioner: Partitioners.DefaultPartitioner,
      ...(config.idempotent ? { idempotent: true, maxInFlightRequests: 1 } : {}),
    },
    subscribe: { fromBeginning: false },
  };
}

/** Options for `NestFactory.createMicroservice(Module, kafkaServerOptions(config, 'quoting'))`. */
export function kafkaServerOptions(
  config: KafkaBusConfig,
  app: string,
): Required<Pick<KafkaOptions, 'transport'>> & KafkaOptions {
  return {
    transport: Transport.KAFKA,
    options: { ...commonOptions(config, app), deserializer: new KafkaBusDeserializer(config.topicPrefix) },
  };
}

/**
 * The Kafka server strategy of a feature app (`app.connectMicroservice({ strategy })`): Nest's ServerKafka, plus
 * - whether its consumer has joined its group. Until the first join a new group has no offsets, so a request
 *   produced meanwhile is skipped (`fromBeginning: false`): /readyz reports the app not ready until then. Events
 *   are not skipped (see bindEvents);
 * - a restart after a crash kafkajs gives up on. kafkajs restarts its consumer only after retriable errors; any
 *   other leaves the process up but consuming nothing. This one reconnects and resubscribes after a pause instead
 *   (a broker may answer a late SyncGroup with INVALID_REQUEST after a protocol change, for one).
 */
export class BusKafkaServer extends ServerKafka {
  private joinedGroup = false;
  private crashed: string | null = null;
  private closing = false;
  private restartTimer: NodeJS.Timeout | undefined;
  /** The request topics as named on the wire (their messages run concurrently); set when the consumer binds. */
  private requestTopics = new Set<string>();
  private readonly places: Places;

  constructor(
    private readonly config: KafkaBusConfig,
    app: string,
    private readonly restartDelayMs = 1000,
  ) {
    super(kafkaServerOptions(config, app).options!);
    this.places = new Places(config.handlerConcurrency);
  }

  /**
   * Subscribes to the handlers' patterns as named on the wire (KAFKA_TOPIC_PREFIX), then runs the consumer.
   *
   * Where the group has no committed offset for a partition, a request topic starts at the latest offset (a request
   * older than the consumer's join has long timed out at its caller, and must not run late), an event topic at the
   * earliest (auto.offset.reset=earliest). Otherwise a member killed after an event was published but before the
   * group ever committed on that partition leaves a gap no restart fills: the outbox had moved its checkpoint, and
   * the next member would start after the event. Event handlers dedupe by event id, so reading retained events
   * again costs time, never a duplicate effect.
   */
  override async bindEvents(consumer: Consumer): Promise<void> {
    const patterns = [...this.messageHandlers.keys()];
    const onWire = (pattern: string) => `${this.config.topicPrefix}${pattern}`;
    const requests = patterns.filter((p) => requestPatterns.includes(p)).map(onWire);
    const events = patterns.filter((p) => !requestPatterns.includes(p)).map(onWire);
    const subscribe = this.options.subscribe ?? {};
    if (requests.length > 0)
      await consumer.subscribe({ ...subscribe, topics: requests, fromBeginning: false });
    if (events.length > 0) await consumer.subscribe({ ...subscribe, topics: events, fromBeginning: true });
    this.requestTopics = new Set(requests);
    await consumer.run({
      ...(this.options.run ?? {}),
      partitionsConsumedConcurrently: this.config.handlerConcurrency,
      eachMessage: this.getMessageHandler(),
    });
  }

  /**
   * Requests run concurrently (review H4): each is handed to its handler without waiting for the one before it, at most
   * `handlerConcurrency` at once (past that, the consumer waits for a place, so a slow handler slows intake instead of
   * piling up work). A request is answered on its reply topic whenever it finishes; one lost with its process is
   * answered by nobody, and the gateway answers 503 at its deadline (the partner retries with the same key). Events
   * are awaited one by one: their order per partition (per attempt) holds, and the offset moves only once handled.
   */
  override getMessageHandler(): (payload: EachMessagePayload) => Promise<void> {
    const handle = (payload: EachMessagePayload) => this.handleMessage(payload);
    return async (payload) => {
      if (!this.requestTopics.has(payload.topic)) {
        await handle(payload);
        return;
      }
      await this.places.acquire();
      void handle(payload)
        .catch((err: unknown) =>
          this.logger.error(`request on ${payload.topic} failed: ${(err as Error)?.message ?? String(err)}`),
        )
        .finally(() => this.places.release());
    };
  }

  /**
   * Each message is handled in a span whose parent is the sender's, read from the message's `traceparent` header
   * (a new trace when it has none): a request's span ends once its handler answered, an event's once handled.
   */
  override handleMessage(payload: EachMessagePayload): Promise<unknown> {
    const topic = withoutPrefix(payload.topic, this.config.topicPrefix) ?? payload.topic;
    const kind = this.requestTopics.has(payload.topic) ? 'request' : 'event';
    const parent = contextFromCarrier(payload.message.headers);
    return processSpan(topic, kind, 'kafka', parent, () => super.handleMessage(payload) as Promise<unknown>);
  }

  /** A request handler's replies carry their binding to the request (reply-binding.ts): the gateway checks it. */
  override addHandler(
    pattern: MsPattern,
    callback: MessageHandler,
    isEventHandler = false,
    extras: Record<string, unknown> = {},
  ): void {
    const handler = isEventHandler ? callback : bindingReplies(this.normalizePattern(pattern), callback);
    super.addHandler(pattern, handler, isEventHandler, extras);
  }

  /** Throws unless the consumer is in its group and running. */
  assertConsuming(): void {
    if (this.crashed) throw new Error(`kafka consumer crashed: ${this.crashed}`);
    if (!this.joinedGroup) throw new Error('kafka consumer has not joined its group yet');
  }

  /**
   * A graceful stop hands over without a gap: requests stop being fetched (the consumer pauses), the ones already
   * running finish and send their replies on the producer that is still open (at most the handler deadline, bounded
   * here by 30 s), and only then does the consumer leave its group and the producer close.
   */
  override async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.restartTimer);
    try {
      this.consumer?.pause([...this.requestTopics].map((topic) => ({ topic })));
    } catch {
      // not running: nothing to pause
    }
    await this.places.idle(30_000);
    await super.close();
  }

  protected override registerConsumerEventListeners(): void {
    super.registerConsumerEventListeners();
    const consumer = this.consumer;
    if (!consumer) return;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.joinedGroup = true;
      this.crashed = null;
    });
    consumer.on(consumer.events.STOP, () => (this.joinedGroup = false));
    consumer.on(consumer.events.CRASH, (event: { payload: { error: Error; restart: boolean } }) => {
      this.joinedGroup = false;
      this.crashed = event.payload.error?.message ?? 'unknown error';
      if (!event.payload.restart && !this.closing) {
        this.logger.warn(
          `kafka consumer crashed for good (${this.crashed}); restarting it in ${this.restartDelayMs} ms`,
        );
        this.restartTimer = setTimeout(() => void this.restartConsumer(), this.restartDelayMs);
      }
    });
  }

  private async restartConsumer(): Promise<void> {
    if (this.closing || !this.consumer) return;
    try {
      await this.consumer.connect();
      await this.bindEvents(this.consumer);
    } catch (err) {
      this.crashed = (err as Error)?.message ?? String(err);
      this.logger.warn(
        `kafka consumer restart failed (${this.crashed}); trying again in ${this.restartDelayMs} ms`,
      );
      this.restartTimer = setTimeout(() => void this.restartConsumer(), this.restartDelayMs);
    }
  }
}

/**
 * A Nest Kafka client whose reply consumer group is `<prefix>.<app>-client`; its messages carry the sender's trace
 * context in their headers, and it takes a reply only when it answers its request: anyone who can produce to a
 * `*.reply` topic can answer a pending request first (review M6 / N-M8), so a reply that does not match is dropped
 * and counted, and the request waits on for the genuine one (reply-screen.ts).
 */
export class BusKafkaClient extends ClientKafka {
  constructor(
    private readonly config: KafkaBusConfig,
    app: string,
  ) {
    super({ ...commonOptions(config, app), serializer: new TraceContextKafkaSerializer() });
  }

  protected override publish(partialPacket: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const pattern = withoutPrefix(
      this.normalizePattern(partialPacket.pattern as MsPattern),
      this.config.topicPrefix,
    );
    return super.publish(partialPacket, screenReplies(pattern ?? '', partialPacket.data, callback));
  }
}

export function createKafkaClient(config: KafkaBusConfig, app: string): BusKafkaClient {
  return new BusKafkaClient(config, app);
}

/**
 * Subscribes the client to the reply topic of every request pattern, connects it (the first group join takes
 * seconds: call this at boot, not on the first request) and wraps it as a MessageBus.
 * Over Kafka, `emit` resolves once the broker stored the event (not once it was handled), and a request
 * nobody serves ends as BusTimeoutError (Kafka cannot tell "no handler" from "slow handler").
 */
export async function createKafkaMessageBus<E extends Exchanges = FeatureExchanges>(
  client: ClientKafka,
  topicPrefix = '',
): Promise<NestMessageBus<E>> {
  for (const pattern of requestPatterns) client.subscribeToResponseOf(`${topicPrefix}${pattern}`);
  await client.connect();
  // ClientKafka narrows the status type of ClientProxy (KafkaStatus instead of string); the bus never reads it.
  return new NestMessageBus<E>(client as unknown as ClientProxy, (name) => `${topicPrefix}${name}`, 'kafka');
}

/** A counting semaphore: `acquire` waits while `limit` places are taken. */
class Places {
  private taken = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  acquire(): Promise<void> {
    if (this.taken < this.limit) {
      this.taken++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the place passes on
    else {
      this.taken--;
      if (this.taken === 0) for (const done of this.idlers.splice(0)) done();
    }
  }

  /** Resolves once no place is taken, or after `timeoutMs`. */
  idle(timeoutMs: number): Promise<void> {
    if (this.taken === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idlers.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private readonly idlers: (() => void)[] = [];
}
