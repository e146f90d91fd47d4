import { ConfigError } from '@svc/platform';
import { stopOnSignals } from '../runtime/stop-on-signals';
import { type DistributedAppSpec, startDistributedApp } from './start-distributed-app';

/** `main` of each distributed app: start, stop gracefully on SIGTERM/SIGINT, exit 1 with the reason on a bad start. */
export function runDistributedApp(spec: DistributedAppSpec): void {
  startDistributedApp(spec, process.env).then(
    (running) => stopOnSignals(running.runtime.logger, () => running.stop()),
    (err: unknown) => {
      process.stderr.write(
        `${spec.name}: ${err instanceof ConfigError ? err.message : String((err as Error)?.stack ?? err)}\n`,
      );
      process.exit(1);
    },
  );
}
