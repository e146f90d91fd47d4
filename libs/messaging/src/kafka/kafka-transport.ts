import {
  ClientKafka,
  type ClientProxy,
  type ConsumerDeserializer,
  type IncomingEvent,
  type IncomingRequest,
  KafkaHeaders,
  type KafkaOptions,
  Transport,
} from '@nestjs/microservices';
import { NestMessageBus } from '../nest-message-bus';
import { MessagePattern, Topic } from '../patterns';

/**
 * Kafka binding of the message bus (distributed composition). Configuration, all optional:
 *   KAFKA_BROKERS            comma-separated bootstrap servers             (default localhost:9092)
 *   KAFKA_CLIENT_ID          kafkajs client id; Nest appends -server/-client (default svc)
 *   KAFKA_GROUP_PREFIX       consumer group prefix: <prefix>.<app>-server serves, <prefix>.<app>-client takes replies (default svc)
 *   KAFKA_MAX_WAIT_MS        consumer fetch maxWaitTimeInMs; bounds idle latency on brokers that wait it out (default 100)
 *   KAFKA_IDEMPOTENT         "true" for an idempotent producer (real Kafka only; the librdkafka mock refuses it)
 *   KAFKA_AUTO_CREATE_TOPICS "false" to forbid topic auto-creation on subscribe (default true)
 * Topics: one per request pattern (`quoting.quote`, ...), its reply topic `<pattern>.reply`, and each event topic
 * (`attempt.lifecycle`, keyed by attemptId). `kafkaBusTopics()` lists them for provisioning.
 */
export interface KafkaBusConfig {
  brokers: string[];
  clientId: string;
  groupPrefix: string;
  maxWaitTimeInMs: number;
  idempotent: boolean;
  allowAutoTopicCreation: boolean;
}

export function loadKafkaBusConfig(env: NodeJS.ProcessEnv = process.env): KafkaBusConfig {
  const maxWait = Number(env['KAFKA_MAX_WAIT_MS'] ?? '100');
  if (!Number.isInteger(maxWait) || maxWait < 0) {
    throw new Error(`KAFKA_MAX_WAIT_MS must be a non-negative integer, got ${env['KAFKA_MAX_WAIT_MS']}`);
  }
  const brokers = (env['KAFKA_BROKERS'] ?? 'localhost:9092')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (brokers.length === 0) throw new Error('KAFKA_BROKERS lists no broker');
  return {
    brokers,
    clientId: env['KAFKA_CLIENT_ID'] || 'svc',
    groupPrefix: env['KAFKA_GROUP_PREFIX'] || 'svc',
    maxWaitTimeInMs: maxWait,
    idempotent: env['KAFKA_IDEMPOTENT'] === 'true',
    allowAutoTopicCreation: env['KAFKA_AUTO_CREATE_TOPICS'] !== 'false',
  };
}

const requestPatterns: readonly string[] = Object.values(MessagePattern);

/** Every topic the bus uses: request topics, their reply topics, event topics. */
export function kafkaBusTopics(): string[] {
  return [...requestPatterns, ...requestPatterns.map((p) => `${p}.reply`), ...Object.values(Topic)];
}

/**
 * Server-side deserializer: a request handler gets the message value (as with any Nest transport); an event
 * handler gets `{ key, value }`, exactly what the in-process transport hands it, so one handler serves both.
 */
export class KafkaBusDeserializer implements ConsumerDeserializer {
  deserialize(
    message: { key?: unknown; value?: unknown; headers?: Record<string, unknown> },
    options?: { channel?: string },
  ): IncomingRequest | IncomingEvent {
    const isRequest = message.headers?.[KafkaHeaders.REPLY_TOPIC] !== undefined;
    const key = keyAsString(message.key);
    return {
      pattern: options?.channel,
      data: isRequest ? message.value : { key, value: message.value },
    } as IncomingRequest | IncomingEvent;
  }
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
    client: { clientId: config.clientId, brokers: config.brokers },
    consumer: {
      groupId: `${config.groupPrefix}.${app}`,
      maxWaitTimeInMs: config.maxWaitTimeInMs,
      allowAutoTopicCreation: config.allowAutoTopicCreation,
    },
    producer: config.idempotent ? { idempotent: true, maxInFlightRequests: 1 } : {},
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
    options: { ...commonOptions(config, app), deserializer: new KafkaBusDeserializer() },
  };
}

/** A Nest Kafka client whose reply consumer group is `<prefix>.<app>-client`. */
export function createKafkaClient(config: KafkaBusConfig, app: string): ClientKafka {
  return new ClientKafka(commonOptions(config, app));
}

/**
 * Subscribes the client to the reply topic of every request pattern, connects it (the first group join takes
 * seconds: call this at boot, not on the first request) and wraps it as a MessageBus.
 * Over Kafka, `emit` resolves once the broker stored the event (not once it was handled), and a request
 * nobody serves ends as BusTimeoutError (Kafka cannot tell "no handler" from "slow handler").
 */
export async function createKafkaMessageBus(client: ClientKafka): Promise<NestMessageBus> {
  for (const pattern of requestPatterns) client.subscribeToResponseOf(pattern);
  await client.connect();
  // ClientKafka narrows the status type of ClientProxy (KafkaStatus instead of string); the bus never reads it.
  return new NestMessageBus(client as unknown as ClientProxy);
}
