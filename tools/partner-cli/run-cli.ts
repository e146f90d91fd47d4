import { join } from 'node:path';
import {
  FileIdempotencyStore,
  IdempotencyConflictError,
  InvalidResourceIdError,
  PartnerClient,
  PartnerClientError,
} from '@svc/partner-client';
import { ConfigError, UsageError } from './cli-errors';
import { executeCommand } from './execute-command';
import { formatResponse } from './format-response';
import { loadCliConfig } from './load-cli-config';
import { parseArgs } from './parse-args';
import { USAGE } from './usage';

export interface CliIo {
  repoRoot: string;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** For tests; defaults to the real clock and fetch inside PartnerClient. */
  client?: { fetch?: typeof fetch; retryBaseDelayMs?: number; maxRetries?: number };
}

/** Runs one command and returns the exit code: 0 for a 2xx answer, 1 otherwise, 2 for usage or configuration. */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  try {
    const command = parseArgs(argv);
    if (command.name === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    const config = loadCliConfig(env, io);
    const store = new FileIdempotencyStore(join(io.repoRoot, '.partner-client', 'idempotency.json'));
    const client = new PartnerClient({
      baseUrl: config.serviceUrl,
      partnerId: config.partnerId,
      secret: config.secret,
      authVersion: config.authVersion,
      idempotencyStore: store,
      ...io.client,
    });
    const execution = executeCommand(client, command);
    io.stderr(
      `partner ${config.partnerId} (auth v${config.authVersion}, from ${config.source}) → ${config.serviceUrl}\n`,
    );
    const earlier = execution.operationId === undefined ? undefined : await store.get(execution.operationId);
    if (earlier)
      io.stderr(
        `reusing Idempotency-Key ${earlier.key} and body of an earlier run (${execution.operationId})\n`,
      );

    const response = await execution.send();
    if (execution.operationId !== undefined && !earlier) {
      const stored = await store.get(execution.operationId);
      if (stored) io.stderr(`Idempotency-Key ${stored.key} (${execution.operationId})\n`);
    }
    io.stdout(formatResponse(response));
    return response.status >= 200 && response.status < 300 ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError || error instanceof InvalidResourceIdError) {
      io.stderr(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.stderr(`configuration error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof PartnerClientError) {
      const retry = error.details.idempotencyKey
        ? '; run the same command again to resend the same key and bytes'
        : '';
      io.stderr(`no response: ${error.message}${retry}\n`);
      return 1;
    }
    if (error instanceof IdempotencyConflictError) {
      io.stderr(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
