export type KafkaBrokerProperties = Record<string, string | number | boolean>;

export interface KafkaBrokerLayout {
  /** The PLAINTEXT listener clients use. */
  port: number;
  /** The KRaft controller listener (the broker is its own one-voter quorum). */
  controllerPort: number;
  dataDir: string;
  autoCreateTopics: boolean;
}

/**
 * server.properties of a single-node KRaft cluster on loopback, sized for tests on a small machine: every internal
 * topic with one replica (and one partition where that is enough), a group's first rebalance without the 3 s
 * delay, few threads. `extra` overrides or adds any setting.
 */
export function kafkaBrokerProperties(layout: KafkaBrokerLayout, extra: KafkaBrokerProperties = {}): string {
  const properties: KafkaBrokerProperties = {
    'process.roles': 'broker,controller',
    'node.id': 1,
    'controller.quorum.voters': `1@127.0.0.1:${layout.controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${layout.port},CONTROLLER://127.0.0.1:${layout.controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${layout.port}`,
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'log.dirs': layout.dataDir,
    'auto.create.topics.enable': layout.autoCreateTopics,
    'num.partitions': 1,
    'offsets.topic.replication.factor': 1,
    'offsets.topic.num.partitions': 1,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'transaction.state.log.num.partitions': 1,
    'share.coordinator.state.topic.replication.factor': 1,
    'share.coordinator.state.topic.min.isr': 1,
    'group.initial.rebalance.delay.ms': 0,
    'num.network.threads': 2,
    'num.io.threads': 2,
    'background.threads': 2,
    'num.recovery.threads.per.data.dir': 1,
    ...extra,
  };
  return Object.entries(properties)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join('\n')
    .concat('\n');
}
