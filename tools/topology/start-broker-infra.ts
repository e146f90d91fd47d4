import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@svc/event-store';
import { kafkaBusTopics, Topic } from '@svc/messaging';
import { startKafkaBroker } from '@svc/testing';
import { type TopologyInfra } from './describe-topology';

/**
 * A single-node Apache Kafka broker (a JVM from the Maven-resolved jars) and one SQLite file the apps share. The
 * topics are created up front, as a provisioning job does in production: every request and reply topic with two
 * partitions (one per replica of an app, one per gateway for replies), `attempt.lifecycle` with six.
 */
export async function startBrokerInfra(): Promise<TopologyInfra> {
  const kafka = await startKafkaBroker({
    topics: Object.fromEntries(kafkaBusTopics().map((t) => [t, t === Topic.attemptLifecycle ? 6 : 2])),
    autoCreateTopics: false,
  });
  process.stdout.write(`kafka broker serving on ${kafka.brokers.join(',')} after ${kafka.startMs} ms\n`);
  const dir = mkdtempSync(join(tmpdir(), 'topology-store-'));
  return {
    env: {
      BUS: 'kafka',
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_IDEMPOTENT: 'true',
      KAFKA_AUTO_CREATE_TOPICS: 'false',
      EVENT_STORE: 'sqlite',
      DATA_DIR: dir,
    },
    openStore: () => SqliteEventStore.open({ file: join(dir, 'events.sqlite') }),
    logTail: () => kafka.logTail(15),
    stop: async ({ failed = false } = {}) => {
      await kafka.stop({ keepLogs: failed });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
