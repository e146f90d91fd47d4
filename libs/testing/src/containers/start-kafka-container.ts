export interface RunningKafkaContainer {
  brokers: string[];
  stop(): Promise<void>;
}

/**
 * A throwaway single-node Kafka (KRaft, no ZooKeeper) with the given topics created at their partition counts, for
 * the tests that run against real Kafka wherever a container runtime answers.
 */
export async function startKafkaContainer(topics: Record<string, number>): Promise<RunningKafkaContainer> {
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const { Kafka, logLevel } = await import('kafkajs');
  const container = await new KafkaContainer('confluentinc/cp-kafka:7.7.1')
    .withKraft()
    .withStartupTimeout(180_000)
    .start();
  const brokers = [`${container.getHost()}:${container.getMappedPort(9093)}`];
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
}
