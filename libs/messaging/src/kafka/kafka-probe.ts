import { type Admin, Kafka, logLevel } from 'kafkajs';
import './kafkajs-negative-timeout';
import { type KafkaBusConfig } from './kafka-bus-config';

/** Whether the Kafka cluster answers, for /readyz: a metadata round trip on one long-lived admin connection. */
export interface KafkaProbe {
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createKafkaProbe(config: KafkaBusConfig): KafkaProbe {
  const kafka = new Kafka({
    clientId: `${config.clientId}-probe`,
    brokers: config.brokers,
    connectionTimeout: 1500,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  });
  let admin: Admin | null = null;
  return {
    async ping() {
      if (!admin) {
        const fresh = kafka.admin({ retry: { retries: 0 } });
        await fresh.connect();
        admin = fresh;
      }
      try {
        await admin.describeCluster();
      } catch (err) {
        // Reconnect on the next probe: a broker restart leaves the old connection dead.
        const dead = admin;
        admin = null;
        await dead.disconnect().catch(() => undefined);
        throw err;
      }
    },
    async close() {
      await admin?.disconnect();
      admin = null;
    },
  };
}
