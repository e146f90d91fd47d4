import { readFileSync } from 'node:fs';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { ConfigError, EnvNumber, EnvSecret, IsEnvBoolean } from '@svc/platform';

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
  @EnvNumber()
  @IsInt({ message: 'must be a non-negative integer' })
  @Min(0, { message: 'must be a non-negative integer' })
  KAFKA_MAX_WAIT_MS = 100;

  /** An idempotent producer. */
  @IsEnvBoolean()
  KAFKA_IDEMPOTENT = false;

  /** `false` forbids topic auto-creation on subscribe (when a provisioning job creates the topics). */
  @IsEnvBoolean()
  KAFKA_AUTO_CREATE_TOPICS = true;

  /** Prepended to every topic name, e.g. `staging.`: environments can share a cluster. */
  @Matches(/^[A-Za-z0-9._-]{0,100}$/, { message: 'may hold only A-Z a-z 0-9 . _ - (at most 100)' })
  KAFKA_TOPIC_PREFIX = '';

  /** Consumer session timeout: how soon a dead member's partitions move. */
  @EnvNumber()
  @IsInt({ message: 'must be an integer from 3000 to 300000' })
  @Min(3000, { message: 'must be an integer from 3000 to 300000' })
  @Max(300_000, { message: 'must be an integer from 3000 to 300000' })
  KAFKA_SESSION_TIMEOUT_MS = 30000;

  /**
   * Requests one app instance handles at once (review H4): a request is handed to its handler without waiting for the
   * one before it, up to this bound; past it the consumer waits for a place. Lifecycle events keep their order per
   * partition (per attempt), with this many partitions worked at once.
   */
  @EnvNumber()
  @IsInt({ message: 'must be an integer from 1 to 1024' })
  @Min(1, { message: 'must be an integer from 1 to 1024' })
  @Max(1024, { message: 'must be an integer from 1 to 1024' })
  KAFKA_HANDLER_CONCURRENCY = 32;

  /** TLS to the brokers (review M6). `true` uses the system's trusted CAs, plus KAFKA_SSL_CA_FILE when set. */
  @IsEnvBoolean()
  KAFKA_SSL = false;

  /** A PEM file of CA certificates the brokers' certificates are checked against (with KAFKA_SSL). */
  @IsOptional()
  @IsString()
  KAFKA_SSL_CA_FILE?: string;

  /** SASL mechanism (review M6): `scram-sha-256`, `scram-sha-512` or `plain`; empty: no SASL. */
  @IsOptional()
  @IsIn(['scram-sha-256', 'scram-sha-512', 'plain'], {
    message: 'must be scram-sha-256, scram-sha-512 or plain',
  })
  KAFKA_SASL_MECHANISM?: 'scram-sha-256' | 'scram-sha-512' | 'plain';

  /** The SASL user (required with KAFKA_SASL_MECHANISM). */
  @IsOptional()
  @IsString()
  KAFKA_SASL_USERNAME?: string;

  /** The SASL password (required with KAFKA_SASL_MECHANISM); a secret: never logged. */
  @EnvSecret()
  @IsOptional()
  @IsString()
  KAFKA_SASL_PASSWORD?: string;
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
  /** Requests handled at once per instance; event partitions worked at once. */
  handlerConcurrency: number;
  /** TLS to the brokers: off, on with the system CAs, or on with these CA certificates (PEM) too. */
  ssl: false | { ca?: string };
  /** SASL credentials, when the brokers require them. */
  sasl: KafkaSasl | null;
}

/** SASL credentials as kafkajs takes them: one shape per mechanism. */
export type KafkaSasl =
  | { mechanism: 'scram-sha-256'; username: string; password: string }
  | { mechanism: 'scram-sha-512'; username: string; password: string }
  | { mechanism: 'plain'; username: string; password: string };

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
    handlerConcurrency: env.KAFKA_HANDLER_CONCURRENCY,
    ssl: env.KAFKA_SSL ? (env.KAFKA_SSL_CA_FILE ? { ca: readCaFile(env.KAFKA_SSL_CA_FILE) } : {}) : false,
    sasl: saslOf(env),
  };
}

function readCaFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `invalid environment:\n  KAFKA_SSL_CA_FILE: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

function saslOf(env: KafkaEnv): KafkaBusConfig['sasl'] {
  const {
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: username,
    KAFKA_SASL_PASSWORD: password,
  } = env;
  if (!mechanism) {
    if (username || password)
      throw new ConfigError(
        'invalid environment:\n  KAFKA_SASL_MECHANISM: required with KAFKA_SASL_USERNAME',
      );
    return null;
  }
  if (!username || !password)
    throw new ConfigError(
      `invalid environment:\n  KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=${mechanism}`,
    );
  switch (mechanism) {
    case 'scram-sha-256':
      return { mechanism, username, password };
    case 'scram-sha-512':
      return { mechanism, username, password };
    case 'plain':
      return { mechanism, username, password };
  }
}
