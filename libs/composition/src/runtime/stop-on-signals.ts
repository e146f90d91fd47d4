import { type Logger } from '@svc/platform';

/**
 * Runs `stop` once on SIGTERM/SIGINT (Kubernetes sends SIGTERM, then SIGKILL after the grace period), then exits:
 * HTTP stops accepting, consumers leave their groups, background passes finish and leases are handed over.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>): void {
  // Once, whichever signals arrive (a terminal's Ctrl-C and a supervisor's SIGTERM both may): a second stop closed
  // closed servers and stores (ERR_SERVER_NOT_RUNNING, "event store is closed" on a clean stop, issue 25 item 7).
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      void stop().then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (err: unknown) => {
          logger.error({ error: (err as Error)?.message ?? String(err) }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
