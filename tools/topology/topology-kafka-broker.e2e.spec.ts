import { probeKafkaBroker } from '@svc/testing';
import { describeTopology } from './describe-topology';
import { startBrokerInfra } from './start-broker-infra';

const kafka = probeKafkaBroker();
/** The five processes over a real Apache Kafka broker (KRaft, one JVM, no container) and one shared SQLite file. */
describeTopology(
  'five apps over Apache Kafka and SQLite',
  startBrokerInfra,
  kafka.available ? {} : { skipReason: `no Apache Kafka broker here (${kafka.reason})` },
);
