import { KAFKA_BROKER_VERSION } from '../kafka/kafka-broker-install';

export interface RunningKafkaContainer {
  brokers: string[];
  stop(): Promise<void>;
}

/** Apache's own image, the same Kafka release as the broker jars the tests run without containers. */
export const KAFKA_CONTAINER_IMAGE = `apache/kafka:${KAFKA_BROKER_VERSION}`;

const CLIENT_PORT = 9092;
const STARTER = '/tmp/testcontainers_start.sh';
const STARTER_READY = '/tmp/testcontainers_start.ready';
const WAITING = 'Waiting for the starter script';
const RUNNING = /Transitioning from RECOVERY to RUNNING/;

/**
 * A throwaway single-node Kafka (KRaft, broker and controller in one process) with the given topics created at their
 * partition counts, for the tests that run against real Kafka wherever a container runtime answers.
 *
 * `@testcontainers/kafka`'s KafkaContainer drives Confluent's image only (it starts `/etc/confluent/docker/run`), so
 * this is a GenericContainer configured as Apache's image documents. The client listener must advertise the host port
 * Docker maps, known only once the container runs: the container waits for a starter script that exports it, then
 * execs the image's own `/etc/kafka/docker/run` (Testcontainers for Java does the same for this image).
 */
export async function startKafkaContainer(topics: Record<string, number>): Promise<RunningKafkaContainer> {
  // Loaded on use: importing testcontainers costs every spec that imports @svc/testing otherwise.
  const { GenericContainer, getContainerRuntimeClient, Wait } = await import('testcontainers');
  const { Kafka, logLevel } = await import('kafkajs');
  await getContainerRuntimeClient();
  const container = await new GenericContainer(KAFKA_CONTAINER_IMAGE)
    .withEnvironment({
      CLUSTER_ID: '4L6g3nShT-eMCtK--X86sw',
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: `PLAINTEXT://:${CLIENT_PORT},BROKER://:9093,CONTROLLER://:9094`,
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'BROKER:PLAINTEXT,PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9094',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    })
    .withExposedPorts(CLIENT_PORT)
    // The ready marker follows the script in one archive: the script is complete once the marker exists.
    .withCommand([
      'sh',
      '-c',
      `echo '${WAITING}'; while [ ! -f ${STARTER_READY} ]; do sleep 0.1; done; exec ${STARTER}`,
    ])
    .withWaitStrategy(Wait.forLogMessage(WAITING))
    .withStartupTimeout(180_000)
    .start();
  try {
    const brokers = [`${container.getHost()}:${container.getMappedPort(CLIENT_PORT)}`];
    const script = [
      '#!/bin/sh',
      `export KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://${brokers[0]},BROKER://localhost:9093`,
      'exec /etc/kafka/docker/run',
      '',
    ].join('\n');
    await container.copyContentToContainer([
      { content: script, target: STARTER, mode: 0o755 },
      { content: '', target: STARTER_READY, mode: 0o644 },
    ]);
    await logLine(await container.logs(), RUNNING, 180_000);
    const admin = new Kafka({ clientId: 'test-topics', brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: Object.entries(topics).map(([topic, numPartitions]) => ({ topic, numPartitions })),
      });
    } finally {
      await admin.disconnect();
    }
    return {
      brokers,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (error) {
    await container.stop();
    throw error;
  }
}

/** Resolves at the first line of the container's log matching `pattern`; rejects when the log ends or time runs out. */
function logLine(stream: NodeJS.ReadableStream, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const done = (error?: Error) => {
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      if ('destroy' in stream && typeof stream.destroy === 'function') (stream.destroy as () => void)();
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer | string) => {
      buffered = (buffered + chunk.toString()).slice(-4096);
      if (pattern.test(buffered)) done();
    };
    const onEnd = () => done(new Error(`kafka container: its log ended before ${pattern}`));
    const timer = setTimeout(
      () => done(new Error(`kafka container: no ${pattern} in ${timeoutMs} ms`)),
      timeoutMs,
    );
    stream.on('data', onData);
    stream.on('end', onEnd);
  });
}
