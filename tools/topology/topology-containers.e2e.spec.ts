import { EventStoreDbEventStore } from '@svc/event-store';
import { kafkaBusTopics, Topic } from '@svc/messaging';
import { probeContainerRuntime, startEventStoreDb, startKafkaContainer } from '@svc/testing';
import { describeTopology } from './describe-topology';

const runtime = probeContainerRuntime();
/** The same suite against what production runs: real Kafka (KRaft) and EventStoreDB, in throwaway containers. */
describeTopology(
  'five apps over Kafka and EventStoreDB (containers)',
  async () => {
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
  },
  runtime.available ? {} : { skipReason: `no container runtime (${runtime.reason})` },
);
