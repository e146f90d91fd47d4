import { EventStoreDbEventStore } from '@svc/event-store';
import { kafkaBusTopics, Topic } from '@svc/messaging';
import { probeContainerRuntime, startEventStoreDb, startKafkaContainer } from '@svc/testing';
import { describeReplicas } from './describe-replicas';
import { describeTopology } from './describe-topology';
import { type TopologyInfra } from './topology-harness';

const runtime = probeContainerRuntime();
const skip = runtime.available ? {} : { skipReason: `no container runtime (${runtime.reason})` };

/** Kafka (KRaft) and EventStoreDB in throwaway containers: what production runs. */
async function startContainerInfra(): Promise<TopologyInfra> {
  const [kafka, esdb] = await Promise.all([
    startKafkaContainer(
      Object.fromEntries(kafkaBusTopics().map((t) => [t, t === Topic.attemptLifecycle ? 6 : 2])),
    ),
    startEventStoreDb(),
  ]);
  return {
    env: {
      BUS: 'kafka',
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_IDEMPOTENT: 'true',
      KAFKA_AUTO_CREATE_TOPICS: 'false',
      EVENT_STORE: 'eventstoredb',
      EVENTSTOREDB_URL: esdb.connectionString,
    },
    openStore: () => EventStoreDbEventStore.fromConnectionString(esdb.connectionString),
    stop: async () => {
      await Promise.all([kafka.stop(), esdb.stop()]);
    },
  };
}

/** The same suites as over the local broker and SQLite, against Kafka and EventStoreDB in containers. */
describeTopology('five apps over Kafka and EventStoreDB (containers)', startContainerInfra, skip);
describeReplicas(
  'two replicas of every app over Kafka and EventStoreDB (containers)',
  startContainerInfra,
  skip,
);
