import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { IsEnvBoolean } from '@svc/platform';

/**
 * The Kafka binding's variables (distributed composition), validated at boot with the service's own. Topics: one
 * per request pattern (`quoting.quote`, ...), its reply topic `<pattern>.reply`, and each event topic
 * (`attempt.lifecycle`, keyed by attemptId). `kafkaBusTopics()` lists them for provisioning.
 */
export class KafkaEnv {
  /** Comma-separated bootstrap servers. */
  @Matches(/[^,\s]/, { message: 'must list at least one broker (comma-separated host:port)' })
  KAFKA_BROKERS = 'localhost:9092';

  /** kafkajs client id; Nest appends -server/-client. */
  @IsString()
  KAFKA_CLIENT_ID = 'svc';

  /** Consumer group prefix: `<prefix>.<app>-server` serves, `<prefix>.<app>-client` takes replies. */
  @IsString()
  KAFKA_GROUP_PREFIX = 'svc';

  /** Consumer fetch maxWaitTimeInMs; bounds idle latency on brokers that wait it out. */
  @Type(() => Number)
  @IsInt({ message: 'must be a non-negative integer' })
  @Min(0, { message: 'must be a non-negative integer' })
  KAFKA_MAX_WAIT_MS = 100;

  /** An idempotent producer (real Kafka only; the librdkafka mock refuses it). */
  @IsEnvBoolean()
  KAFKA_IDEMPOTENT = false;

  /** `false` forbids topic auto-creation on subscribe (when a provisioning job creates the topics). */
  @IsEnvBoolean()
  KAFKA_AUTO_CREATE_TOPICS = true;

  /** Prepended to every topic name, e.g. `staging.`: environments can share a cluster. */
  @Matches(/^[A-Za-z0-9._-]{0,100}$/, { message: 'may hold only A-Z a-z 0-9 . _ - (at most 100)' })
  KAFKA_TOPIC_PREFIX = '';

  /** Consumer session timeout: how soon a dead member's partitions move. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer from 3000 to 300000' })
  @Min(3000, { message: 'must be an integer from 3000 to 300000' })
  @Max(300_000, { message: 'must be an integer from 3000 to 300000' })
  KAFKA_SESSION_TIMEOUT_MS = 30000;
}

export interface KafkaBusConfig {
  brokers: string[];
  clientId: string;
  groupPrefix: string;
  maxWaitTimeInMs: number;
  idempotent: boolean;
  allowAutoTopicCreation: boolean;
  sessionTimeoutMs: number;
  /** Prepended to every topic name on the wire; handlers and callers keep the logical pattern names. */
  topicPrefix: string;
}

/** The bus binding's settings from the validated variables. */
export function kafkaBusConfig(env: KafkaEnv): KafkaBusConfig {
  return {
    brokers: env.KAFKA_BROKERS.split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    clientId: env.KAFKA_CLIENT_ID,
    groupPrefix: env.KAFKA_GROUP_PREFIX,
    maxWaitTimeInMs: env.KAFKA_MAX_WAIT_MS,
    idempotent: env.KAFKA_IDEMPOTENT,
    allowAutoTopicCreation: env.KAFKA_AUTO_CREATE_TOPICS,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
  };
}
