import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type PartnerClient, type PartnerResponse } from '@svc/partner-client';
import { doWalletPart, type PreparedForWalletPart, type WalletPartStep } from '@svc/testing';
import { SandboxOnlyError, UsageError } from './cli-errors';
import { formatResponse } from './format-response';
import { nextStepHint } from './next-step-hint';
import { type CliCommand } from './parse-args';
import { readBodyFile } from './read-body-file';
import { loadSandboxManifest, pickSandboxUser, probeSandboxChains, sandboxChainsFor } from './sandbox-guard';

const TERMINAL = new Set(['settled', 'failed', 'expired']);

export interface SandboxWalletIo {
  repoRoot: string;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** How often `status` is asked while following (default 1000 ms). */
  statusPollMs?: number;
  /** Stop following after this long (default 15 min, the default evidence window). */
  followLimitMs?: number;
  now?: () => number;
}

interface PrepareBody extends PreparedForWalletPart {
  status?: string;
  expiresAt?: string;
  evidenceDeadlineAt?: string;
}

/**
 * `demo` and `sandbox-wallet`: the user's wallet's part of the flow, with a funded wallet of the local provider
 * sandbox. `demo` quotes (a new quote each run) and prepares; `sandbox-wallet` takes an intentSessionId (and prepares
 * it, or replays the `prepare <id>` run earlier: same Idempotency-Key, same attempt) or a saved prepare response.
 * Then: check that every chain action is on a sandbox chain, sign the walletAuthorization, send each action's
 * transactions in order, report `submitted`, and follow `status` to a terminal state. 0 only when settled.
 */
export async function runSandboxWallet(
  client: PartnerClient,
  command: Extract<CliCommand, { name: 'sandbox-wallet' | 'demo' }>,
  env: Record<string, string | undefined>,
  io: SandboxWalletIo,
): Promise<number> {
  const now = io.now ?? Date.now;
  const started = now();
  const at = () => `+${((now() - started) / 1000).toFixed(1)}s`.padStart(7);
  const say = (line: string) => io.stdout(`${at()}  ${line}\n`);

  const { manifest, path } = loadSandboxManifest(env, io);
  const user = pickSandboxUser(manifest, command.user);
  // Before anything is created: every chain of the manifest must be the sandbox's anvil on loopback.
  await probeSandboxChains(
    sandboxChainsFor(
      manifest,
      manifest.chains.map((c) => c.chainId),
    ),
  );
  say(`sandbox ${manifest.url} (manifest ${path}); wallet: users[${user.index}] ${user.address}`);

  let prepared: PrepareBody;
  if (command.name === 'demo') {
    const file = readBodyFile(command.file);
    const request = file.body as { walletAddress?: unknown };
    if (typeof request.walletAddress === 'string' && !sameAddress(request.walletAddress, user.address)) {
      say(`walletAddress ${request.walletAddress} replaced by the sandbox wallet users[${user.index}]`);
    }
    const quote = await client.quote({ ...request, walletAddress: user.address });
    const quoted = quote.body as { intentSessionId?: string; quoteStatus?: string; expiresAt?: string };
    if (!ok(quote) || quoted.quoteStatus !== 'ready' || typeof quoted.intentSessionId !== 'string') {
      return fail(io, 'quote', quote);
    }
    say(
      `quote ready: intentSessionId ${quoted.intentSessionId}, expiresAt ${quoted.expiresAt} (prepare before)`,
    );
    const response = await client.prepare(quoted.intentSessionId, {});
    if (!ok(response)) return fail(io, 'prepare', response);
    prepared = response.body as PrepareBody;
  } else if (looksLikeFile(command.prepared, io.cwd)) {
    prepared = readPreparedFile(resolve(io.cwd, command.prepared));
  } else {
    // The operation id of `prepare <id>` without --file: a replay of that run when there was one.
    const response = await client.prepare(
      command.prepared,
      {},
      { operationId: `prepare:${command.prepared}:no-body` },
    );
    if (!ok(response)) return fail(io, 'prepare', response);
    prepared = response.body as PrepareBody;
  }

  const actions = prepared.chainActions ?? [];
  say(
    `attempt ${prepared.attemptId} ${prepared.status ?? ''}: ${actions.length} chain action(s) ` +
      `(${actions.map((a) => `chain ${a.chainId}: ${(a.transactions ?? a.calls ?? []).length} tx`).join(', ')}); ` +
      `sign before ${prepared.expiresAt}, evidence before ${prepared.evidenceDeadlineAt}`,
  );
  if (prepared.status !== undefined && prepared.status !== 'prepared') {
    io.stderr(
      `attempt ${prepared.attemptId} is ${prepared.status}, not prepared: there is nothing left for the wallet to ` +
        `execute (only a prepared attempt may be executed). Follow it with: npm run partner -- status ${prepared.attemptId}\n`,
    );
    return 1;
  }
  if (prepared.expiresAt !== undefined && Date.parse(prepared.expiresAt) <= now()) {
    io.stderr(
      `the signable window of attempt ${prepared.attemptId} closed at ${prepared.expiresAt} (30 s after prepare); ` +
        'quote again and prepare the new session (npm run partner -- demo --file … does both)\n',
    );
    return 1;
  }
  const wallet = prepared.walletAuthorization?.message?.wallet;
  if (typeof wallet !== 'string' || !sameAddress(wallet, user.address)) {
    const other = manifest.wallets.users.findIndex(
      (u) => typeof wallet === 'string' && sameAddress(u.address, wallet),
    );
    throw new SandboxOnlyError(
      `attempt ${prepared.attemptId} is for wallet ${String(wallet)}, not users[${user.index}] ${user.address}` +
        (other >= 0 ? `; run it with --user ${other}` : ': no funded sandbox wallet can sign it'),
    );
  }
  // Only chains the sandbox runs (probed above), through the manifest's RPC URLs.
  const chains = sandboxChainsFor(
    manifest,
    actions.map((a) => a.chainId),
  );

  const result = await doWalletPart({
    prepared,
    privateKey: user.privateKey,
    chains,
    onStep: (step) => say(describeStep(step)),
    now,
  });

  const submitted = await client.submitted(prepared.attemptId, result.submittedBody, {
    operationId: `submitted:${prepared.attemptId}:sandbox-wallet`,
  });
  if (!ok(submitted)) return fail(io, 'submitted', submitted);
  say(`submitted: ${(submitted.body as { status?: string }).status ?? `HTTP ${submitted.status}`}`);

  // Follow GET status until settled, failed or expired.
  const limit = io.followLimitMs ?? 15 * 60_000;
  let last = '';
  for (;;) {
    const response = await client.status(prepared.attemptId);
    if (!ok(response)) return fail(io, 'status', response);
    const body = response.body as { status?: string; perChainStatus?: unknown };
    const status = String(body.status);
    if (status !== last) say(`status ${status}`);
    last = status;
    if (TERMINAL.has(status)) {
      io.stdout(formatResponse(response));
      return status === 'settled' ? 0 : 1;
    }
    if (now() - started > limit) {
      io.stderr(
        `still ${status} after ${Math.round(limit / 1000)} s; follow it with: npm run partner -- status ${prepared.attemptId}\n`,
      );
      return 1;
    }
    await delay(io.statusPollMs ?? 1000);
  }
}

function describeStep(step: WalletPartStep): string {
  if (step.kind === 'signed') return `signed the walletAuthorization (EIP-712): ${step.signature}`;
  return (
    `chain ${step.chainId} tx ${step.index + 1}/${step.count} to ${step.to}: ${step.hash} ` +
    `(block ${step.blockNumber}, ${step.elapsedMs} ms)`
  );
}

function ok(response: PartnerResponse): boolean {
  return response.status >= 200 && response.status < 300;
}

function fail(io: SandboxWalletIo, step: string, response: PartnerResponse): number {
  io.stderr(`${step} did not succeed:\n`);
  io.stdout(formatResponse(response));
  const hint = nextStepHint(response);
  if (hint) io.stderr(hint);
  return 1;
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function looksLikeFile(arg: string, cwd: string): boolean {
  return arg.endsWith('.json') || arg.includes('/') || existsSync(resolve(cwd, arg));
}

/**
 * A prepare response saved to a file: the JSON body, or what `npm run partner -- prepare <id> > file` printed (npm's
 * lines, the `HTTP 200 OK` status line, then the body).
 */
function readPreparedFile(path: string): PrepareBody {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  // From the first `{`: skips the status line, and npm's own `> …` lines when run without -s.
  const json = text.slice(Math.max(0, text.indexOf('{')));
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`${path} is not a prepare response (JSON): ${(error as Error).message}`);
  }
  const b = body as Partial<PrepareBody> | null;
  if (typeof b?.attemptId !== 'string' || !Array.isArray(b.chainActions)) {
    throw new UsageError(`${path} is not a prepare response: it has no attemptId and chainActions`);
  }
  return b as PrepareBody;
}
