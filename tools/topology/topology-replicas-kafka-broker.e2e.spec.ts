import { probeKafkaBroker } from '@svc/testing';
import { describeReplicas } from './describe-replicas';
import { startBrokerInfra } from './start-broker-infra';

const kafka = probeKafkaBroker();
/** Two replicas of each of the five apps over a real Apache Kafka broker and one shared SQLite file. */
describeReplicas(
  'two replicas of every app over Apache Kafka and SQLite',
  startBrokerInfra,
  kafka.available ? {} : { skipReason: `no Apache Kafka broker here (${kafka.reason})` },
);
