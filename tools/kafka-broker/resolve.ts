import { installKafkaBroker } from '@svc/testing';

/**
 * `npm run kafka:resolve`: puts Apache Kafka's jars in the local cache (Maven Central, once) so the Kafka tests can
 * start a broker; prints one line. Exits 1 when Java 17+ or Maven is missing or the jars cannot be resolved: the
 * Kafka tests then skip with the same reason.
 */
const startedAt = Date.now();
const install = installKafkaBroker();
const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
if (install.available) {
  const how = install.resolved ? `resolved from Maven Central in ${seconds} s` : 'already cached';
  process.stdout.write(`Apache Kafka ${install.version}: ${how} (${install.classpath})\n`);
} else {
  process.stdout.write(`Apache Kafka not available, the Kafka tests will skip: ${install.reason}\n`);
  process.exitCode = 1;
}
