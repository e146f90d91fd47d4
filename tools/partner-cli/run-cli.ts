import { scopedIdempotencyStore } from './scoped-idempotency-store';
import { join } from 'node:path';
import {
  FileIdempotencyStore,
  IdempotencyConflictError,
  InvalidResourceIdError,
  PartnerClient,
  PartnerClientError,
  type PartnerResponse,
} from '@svc/partner-client';
import { ConfigError, SandboxOnlyError, UsageError } from './cli-errors';
import { executeCommand } from './execute-command';
import { nextStepHint } from './next-step-hint';
import { formatResponse } from './format-response';
import { loadCliConfig } from './load-cli-config';
import { parseArgs } from './parse-args';
import { checkSandboxService } from './sandbox-guard';
import { type SandboxWalletIo } from './sandbox-wallet';
import { USAGE } from './usage';

export interface CliIo {
  repoRoot: string;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** For tests; defaults to the real clock and fetch inside PartnerClient. */
  client?: { fetch?: typeof fetch; retryBaseDelayMs?: number; maxRetries?: number };
  /** For tests of the sandbox-only commands: how often they ask for status. */
  sandbox?: Pick<SandboxWalletIo, 'statusPollMs' | 'followLimitMs'>;
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
    const store = scopedIdempotencyStore(
      new FileIdempotencyStore(join(io.repoRoot, '.partner-client', 'idempotency.json')),
      config,
    );
    const client = new PartnerClient({
      baseUrl: config.serviceUrl,
      partnerId: config.partnerId,
      secret: config.secret,
      authVersion: config.authVersion,
      idempotencyStore: store,
      ...io.client,
    });
    if (command.name === 'sandbox-wallet' || command.name === 'demo') {
      io.stderr(
        `partner ${config.partnerId} (auth v${config.authVersion}, from ${config.source}) → ${config.serviceUrl}\n`,
      );
      // Loaded here only: the wallet part needs viem and the sandbox helpers, which every other call would pay for.
      const { runSandboxWallet } = await import('./sandbox-wallet');
      return await checkSandboxService(config, client)
        .then(() => runSandboxWallet(client, command, env, { ...io, ...io.sandbox }))
        .catch((error: unknown) => {
          const known = [
            UsageError,
            SandboxOnlyError,
            PartnerClientError,
            IdempotencyConflictError,
            InvalidResourceIdError,
          ];
          if (known.some((type) => error instanceof type)) throw error;
          // A reverted transaction, an RPC that went away: say what failed, no stack.
          io.stderr(`error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
          return 1;
        });
    }
    const execution = executeCommand(client, command);
    io.stderr(
      `partner ${config.partnerId} (auth v${config.authVersion}, from ${config.source}) → ${config.serviceUrl}\n`,
    );
    if (execution.forgetEarlier && execution.operationId !== undefined)
      await store.delete(execution.operationId);
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
    const hint =
      command.name === 'quote' && earlier ? expiredQuoteHint(response, argv) : nextStepHint(response);
    if (hint) io.stderr(hint);
    return response.status >= 200 && response.status < 300 ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError || error instanceof InvalidResourceIdError) {
      io.stderr(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof SandboxOnlyError) {
      io.stderr(`refusing: ${error.message}\n`);
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

/**
 * A replayed quote past its expiresAt comes back `quoteStatus: "expired"` (the stored session, as the spec says): the
 * newcomer's next step is a new quote, which needs a new Idempotency-Key.
 */
function expiredQuoteHint(response: PartnerResponse, argv: readonly string[]): string | null {
  const body = response.body as { quoteStatus?: unknown; expiresAt?: unknown } | null;
  if (response.status !== 200 || typeof body !== 'object' || body?.quoteStatus !== 'expired') return null;
  const rerun = ['npm run partner --', ...argv.filter((a) => a !== '--fresh'), '--fresh'].join(' ');
  return [
    `this is the quote an earlier run created, replayed under its Idempotency-Key; it expired at ${String(body.expiresAt)}`,
    '(a quote lives about 60 s: prepare it before then). For a new quote, with a new key:',
    `  ${rerun}`,
    '',
  ].join('\n');
}
