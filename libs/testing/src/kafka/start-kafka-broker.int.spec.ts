import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { findFreePort } from '../anvil/find-free-port';
import { probeKafkaBroker } from './kafka-broker-install';
import { startKafkaBroker } from './start-kafka-broker';

const kafka = probeKafkaBroker();
if (!kafka.available) {
  process.stdout.write(`kafka broker helper: skipped, no Apache Kafka broker here (${kafka.reason})\n`);
}

// Skipped without Java 17+ and the broker's jars (`npm run kafka:resolve`): the reason is printed above.
(kafka.available ? describe : describe.skip)('startKafkaBroker (Apache Kafka, KRaft, one JVM)', () => {
  it('serves on a free port with the topics created at their partition counts, and leaves nothing behind', async () => {
    const broker = await startKafkaBroker({
      topics: { 'helper.a': 3, 'helper.b': 1 },
      autoCreateTopics: false,
    });
    const runDir = dirname(dirname(broker.logFile));
    try {
      const admin = new Kafka({ brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      const { topics } = await admin.fetchTopicMetadata({ topics: ['helper.a', 'helper.b'] });
      await admin.disconnect();
      expect(topics.map((t) => [t.name, t.partitions.length]).sort()).toEqual([
        ['helper.a', 3],
        ['helper.b', 1],
      ]);
      expect(broker.logTail()).toMatch(/Kafka Server started/);
    } finally {
      await broker.stop();
    }
    expect(existsSync(runDir)).toBe(false);
  }, 150_000);

  it('starts again on fresh ports when a port it found free was taken before the broker bound it', async () => {
    // The first port handed out is held by someone else by the time the JVM binds it, as an outgoing connection of
    // another test process can hold an ephemeral port.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = (taken.address() as AddressInfo).port;
    let handedOut = 0;
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const broker = await startKafkaBroker({
        findPort: () => (handedOut++ === 0 ? Promise.resolve(takenPort) : findFreePort()),
      });
      try {
        expect(handedOut).toBe(6);
        expect(broker.brokers).not.toContain(`127.0.0.1:${takenPort}`);
        expect(String(stderr.mock.calls.map((c) => c[0]).join(''))).toMatch(
          /port was taken before it bound \(1\/3\)/,
        );
        const admin = new Kafka({ brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin();
        await admin.connect();
        await admin.createTopics({ topics: [{ topic: 'helper.after-retry', numPartitions: 1 }] });
        await admin.disconnect();
      } finally {
        await broker.stop();
      }
    } finally {
      stderr.mockRestore();
      taken.close();
    }
  }, 300_000);

  it('fails with the broker log when the broker cannot start, and keeps that log', async () => {
    // The client listener's port is taken: the broker exits at start-up.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const controllerPort = await findFreePort();
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const started = startKafkaBroker({
        properties: {
          listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
          'controller.quorum.voters': `1@127.0.0.1:${controllerPort}`,
        },
      });
      const error = await started.then(
        () => new Error('started'),
        (err: Error) => err,
      );
      expect(error.message).toMatch(/kafka broker did not start: exited on its own/);
      const kept = /its log is kept in (\S+)/.exec(error.message)?.[1] ?? '';
      expect(existsSync(join(kept, 'server.log'))).toBe(true);
      rmSync(dirname(kept), { recursive: true, force: true });
    } finally {
      stderr.mockRestore();
      taken.close();
    }
  }, 150_000);
});
