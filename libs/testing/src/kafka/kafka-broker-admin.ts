import { type Admin, Kafka, logLevel } from 'kafkajs';

/**
 * Resolves once the broker answers a metadata round trip and can coordinate a consumer group (its first
 * FindCoordinator creates `__consumer_offsets`, which every app's first join would otherwise wait for), then
 * creates the given topics and waits for their leaders. `alive()` false ends the wait early.
 */
export async function provisionKafkaBroker(
  brokers: string[],
  topics: Record<string, number>,
  o: { timeoutMs: number; alive: () => string | null },
): Promise<void> {
  const kafka = new Kafka({
    clientId: 'test-broker-admin',
    brokers,
    connectionTimeout: 1000,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  });
  const deadline = Date.now() + o.timeoutMs;
  let last = 'no answer yet';
  const admin = kafka.admin({ retry: { retries: 0 } });
  for (;;) {
    const dead = o.alive();
    if (dead) throw new Error(`kafka broker ${dead}`);
    if (Date.now() > deadline) throw new Error(`kafka broker not serving within ${o.timeoutMs} ms: ${last}`);
    try {
      await admin.connect();
      await admin.listTopics();
      await admin.describeGroups(['test-broker-warm-up']);
      break;
    } catch (err) {
      last = (err as Error).message;
      await admin.disconnect().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    await createTopics(admin, topics);
  } finally {
    await admin.disconnect();
  }
}

async function createTopics(admin: Admin, topics: Record<string, number>): Promise<void> {
  const entries = Object.entries(topics);
  if (entries.length === 0) return;
  await admin.createTopics({
    waitForLeaders: true,
    timeout: 30_000,
    topics: entries.map(([topic, numPartitions]) => ({ topic, numPartitions })),
  });
}
