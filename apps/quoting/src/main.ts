import 'reflect-metadata';
import { ConfigError, loadServiceEnv } from '@svc/platform';

/**
 * Entry point of the quoting app in the distributed composition. It validates its environment, then stops: the
 * Kafka bus binding arrives with the distributed-mode issue. Until then run everything with `npm start`.
 */
try {
  loadServiceEnv();
  process.stderr.write(
    'quoting: the distributed composition (BUS=kafka) is not available yet; run `npm start` for the standalone service\n',
  );
  process.exit(2);
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
  process.exit(1);
}
