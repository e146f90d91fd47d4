import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@svc/event-store';
import { kafkaBusTopics, Topic } from '@svc/messaging';
import { probeKafkaMock, startKafkaMock } from '@svc/testing';
import { describeTopology } from './describe-topology';

const mock = probeKafkaMock();
/** The five processes over librdkafka's mock cluster (the Kafka protocol, no JVM) and one shared SQLite file. */
describeTopology(
  'five apps over the Kafka mock and SQLite',
  async () => {
    const kafka = await startKafkaMock({
      topics: Object.fromEntries(kafkaBusTopics().map((t) => [t, t === Topic.attemptLifecycle ? 6 : 2])),
    });
    const dir = mkdtempSync(join(tmpdir(), 'topology-store-'));
    return {
      env: { BUS: 'kafka', KAFKA_BROKERS: kafka.brokers.join(','), EVENT_STORE: 'sqlite', DATA_DIR: dir },
      openStore: () => SqliteEventStore.open({ file: join(dir, 'events.sqlite') }),
      stop: async () => {
        await kafka.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  mock.available
    ? {
        noMultiMemberGroups:
          "librdkafka's mock coordinator refuses a follower's SyncGroup that arrives after the leader's (INVALID_REQUEST); " +
          'several instances per app are tested in process over SQLite (apps/standalone/src/e2e/scale-out.e2e.spec.ts) and here against real Kafka',
      }
    : { skipReason: `librdkafka-dev not installed (${mock.reason})` },
);
