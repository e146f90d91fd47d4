import { WebhookDeliveryRefusedError } from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { ConfigError } from '@svc/platform';
import { UsageError } from './cli-errors';
import { formatListing } from './format-listing';
import { listWebhooks } from './list-webhooks';
import { openStore } from './open-store';
import { type CliCommand, parseArgs } from './parse-args';
import { redeliverWebhook } from './redeliver-webhook';
import { USAGE } from './usage';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** For tests; defaults to the store the environment names. */
  store?: EventStore;
  /** For tests; defaults to Date.now. */
  now?: () => number;
}

/** Runs one command and returns the exit code: 0 ok, 1 refused or not found, 2 usage or configuration. */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  let command: CliCommand;
  let opened: { store: EventStore; where: string } | undefined;
  try {
    command = parseArgs(argv);
    if (command.name === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    if (!io.store) opened = openStore(env);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.stderr(`configuration error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const store = io.store ?? opened!.store;
  try {
    if (opened) io.stderr(`event store: ${opened.where}\n`);
    return await execute(command, store, env, io);
  } catch (error) {
    if (error instanceof WebhookDeliveryRefusedError) {
      io.stderr(`refused: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    if (opened) await opened.store.close();
  }
}

async function execute(
  command: Exclude<CliCommand, { name: 'help' }>,
  store: EventStore,
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  switch (command.name) {
    case 'list': {
      const listing = await listWebhooks(store, command.filter, command.attemptId);
      if (!listing) {
        io.stderr(`not found: attempt ${command.attemptId} has no webhook stream\n`);
        return 1;
      }
      io.stdout(formatListing(listing, command.filter));
      return 0;
    }
    case 'redeliver': {
      const requestedBy = command.by ?? (env.USER || 'operator');
      const outcome = await redeliverWebhook(store, {
        attemptId: command.attemptId,
        eventId: command.eventId,
        requestedBy,
        now: (io.now ?? Date.now)(),
      });
      io.stdout(
        outcome.appendedType === 'WebhookRetryRequested'
          ? `retry of ${command.eventId} (attempt ${command.attemptId}) brought forward by ${requestedBy}: ` +
              `WebhookRetryRequested appended, entry is ${outcome.status ?? 'unknown'} and due now; ` +
              `the running dispatcher tries it at its next pass\n`
          : outcome.appended
            ? `redelivery of ${command.eventId} (attempt ${command.attemptId}) requested by ${requestedBy}: ` +
              `WebhookRedeliveryRequested appended, entry is ${outcome.status ?? 'unknown'}; ` +
              `the running dispatcher sends it when it reaches the head of the attempt's queue\n`
            : `nothing appended for ${command.eventId} (attempt ${command.attemptId}): its retry is due already\n`,
      );
      return 0;
    }
  }
}
