import { ChainRegistry, loadChainsFile } from '@svc/chains';
import { reportStoredEventProblemsTo, SqliteStoreUnavailableError } from '@svc/event-store';
import { PartnerClientError } from '@svc/partner-client';
import { createProviderAdapters, loadProvidersConfig, type ProviderAdapter } from '@svc/providers';
import { ConfigError, loadServiceEnv, type ServiceEnv } from '@svc/platform';
import {
  formatOtherChainRun,
  formatUnnamedChainRun,
  OTHER_CHAIN_RUN_EXIT_CODE,
  storeChainRun,
} from './chain-run/store-chain-run';
import { UsageError } from './cli-errors';
import { findSandboxChains } from './find-sandbox-chains';
import { csvHeader, csvRows, csvTotals, feesHeader, feesRows, feesTotals } from './fees/format-fees';
import { feeReport } from './fees/fee-report';
import { formatMalformed } from './history/stored-events';
import { type CliCommand, parseArgs } from './parse-args';
import { attemptJson, refusedAttemptJson } from './report/attempt-json';
import { auditAttempt, type AuditSources, findingsOf, unreachableOf } from './report/audit-attempt';
import { formatAttempt, formatRefusedAttempt } from './report/format-attempt';
import { type AuditStore, openAuditStore } from './store/open-audit-store';
import { USAGE } from './usage';
import { exitCode, formatFinding, formatProgress, formatSummary } from './verify/format-verify';
import { findings, verifyAll } from './verify/verify-all';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Rewrites a terminal's progress line; absent (not a terminal): no progress shown. */
  progress?: (line: string) => void;
  /** For tests; defaults to Date.now. */
  now?: () => number;
  /** Where `.sandbox/` is looked for; defaults to the process's working directory (npm runs at the repository root). */
  cwd?: string;
}

type Command = Exclude<CliCommand, { name: 'help' }>;

/**
 * Runs one command: 0 no findings, 1 findings or not found, 2 usage, configuration or a store refused, 3 no findings
 * but a chain that could not be read (check again), 4 chain checks refused: the store is of another sandbox chain run.
 */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  let command: Command;
  let config: ServiceEnv;
  let opened: AuditStore;
  let chains: ChainRegistry;
  let chainsFile: string | null;
  let chainsOfSandbox = false;
  let adapters: Readonly<Record<string, ProviderAdapter>>;
  try {
    const parsed = parseArgs(argv);
    if (parsed.name === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    command = parsed;
    config = loadServiceEnv(env);
    chainsFile = config.CHAINS_FILE ?? null;
    if (needsChains(command) && chainsFile === null) {
      // Not told: the running sandbox's chains (npm start), or a clear refusal.
      const sandbox = await findSandboxChains(env, io.cwd ?? process.cwd());
      if (sandbox.path === null)
        throw new ConfigError(
          `${command.name === 'verify' ? 'verify' : '--verify-chain'} reads the chains: set CHAINS_FILE, or run it while npm start runs (it uses .sandbox/chains.json), or give verify --store-only (${sandbox.reason})`,
        );
      chainsFile = sandbox.path;
      chainsOfSandbox = true;
      io.stderr(`chains: ${chainsFile} (the running sandbox's; set CHAINS_FILE to read others)\n`);
    }
    chains = new ChainRegistry(chainsFile ? loadChainsFile(chainsFile) : []);
    adapters = needsChains(command) ? fillRecordReaders(env) : {};
    opened = openAuditStore(config);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.stderr(`configuration error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof SqliteStoreUnavailableError) {
      io.stderr(
        `refused: ${error.message}; the audit opens an existing store read-only and never creates one\n`,
      );
      return 2;
    }
    throw error;
  }
  // The folds (foldStoredEvents) tell of a type this build does not know, once per type, and of a malformed event:
  // on stderr, beside the report (the malformed ones are findings in it as well).
  reportStoredEventProblemsTo((_problem, message) => io.stderr(`warning: ${message}\n`));
  try {
    if (needsChains(command) && config.EVENT_STORE === 'sqlite') {
      // One sandbox run's events against another run's chains: refused, not reported as money mismatches.
      const run = await storeChainRun(config.DATA_DIR, chains);
      if (run.kind === 'other') {
        io.stderr(formatOtherChainRun(run, chainsFile));
        return OTHER_CHAIN_RUN_EXIT_CODE;
      }
      if (run.kind === 'unnamed' && chainsOfSandbox) io.stderr(formatUnnamedChainRun(run));
    }
    const sources = { store: opened.store, requestsFile: opened.requestsFile, chains, adapters, env };
    return await execute(command, { ...sources, where: opened.where, chainsFile }, config, io);
  } catch (error) {
    // --api only: the partner's credentials, or a service that does not answer.
    if (error instanceof ConfigError || error instanceof PartnerClientError) {
      io.stderr(
        `${error instanceof ConfigError ? 'configuration error' : 'live check failed'}: ${error.message}\n`,
      );
      return 2;
    }
    throw error;
  } finally {
    reportStoredEventProblemsTo(null);
    await opened.store.close();
    await chains.close();
  }
}

/**
 * The service's provider adapters, built from the same variables the service reads (the calldata allowlists name
 * the contracts whose fill records count), for their fill-record readers: the chain check attributes a fill to a
 * leg as the tracker does. The audit never asks a provider anything: their HTTP is refused.
 */
function fillRecordReaders(
  env: Record<string, string | undefined>,
): Readonly<Record<string, ProviderAdapter>> {
  return createProviderAdapters(loadProvidersConfig(env), {
    fetch: () => Promise.reject(new Error('the audit does not call providers')),
  });
}

const needsChains = (command: Command) =>
  (command.name === 'attempt' && command.verifyChain) || (command.name === 'verify' && !command.storeOnly);

async function execute(
  command: Command,
  sources: AuditSources & { where: string; chainsFile: string | null },
  config: ServiceEnv,
  io: CliIo,
): Promise<number> {
  const now = (io.now ?? Date.now)();
  switch (command.name) {
    case 'attempt': {
      const audit = await auditAttempt(sources, command.attemptId, command);
      if (audit === null) {
        io.stderr(`not found: the store has no attempt ${command.attemptId}\n`);
        return 1;
      }
      const { where } = sources;
      if ('refused' in audit) {
        io.stdout(
          command.json
            ? `${JSON.stringify(refusedAttemptJson(audit, where), null, 2)}\n`
            : formatRefusedAttempt(audit, where),
        );
        return exitCode(1, 0);
      }
      io.stdout(
        command.json
          ? `${JSON.stringify(attemptJson(audit, where), null, 2)}\n`
          : formatAttempt(audit, where),
      );
      return exitCode(findingsOf(audit), unreachableOf(audit));
    }
    case 'verify': {
      io.stderr(`event store: ${sources.where}\n`);
      const summary = await verifyAll(sources, {
        ...command,
        trackingLimitMs: config.SETTLEMENT_TRACKING_LIMIT_SECONDS * 1000,
        now,
        onFinding: (finding) => {
          io.progress?.('');
          io.stdout(command.json ? `${JSON.stringify(finding)}\n` : formatFinding(finding));
        },
        onProgress: io.progress && ((progress) => io.progress!(formatProgress(progress))),
      });
      io.progress?.('');
      const chainChecks = command.storeOnly ? 'off (--store-only)' : `on (CHAINS_FILE ${sources.chainsFile})`;
      io.stdout(
        command.json
          ? `${JSON.stringify({ kind: 'summary', ...summary })}\n`
          : formatSummary(summary, chainChecks),
      );
      return exitCode(findings(summary), summary.unreachable);
    }
    case 'fees': {
      io.stderr(`event store: ${sources.where}\n`);
      io.stdout(command.csv ? csvHeader() : feesHeader(command));
      const totals = await feeReport(
        sources.store,
        command,
        (fees) => io.stdout(command.csv ? csvRows(fees) : feesRows(fees)),
        // A finding; the CSV keeps its columns, so it is told on stderr there.
        (event) => {
          const line = `MALFORMED  ${formatMalformed(event)}\n`;
          if (command.csv) io.stderr(line);
          else io.stdout(line);
        },
      );
      io.stdout(command.csv ? csvTotals(totals) : feesTotals(totals));
      return totals.problems + totals.malformed === 0 ? 0 : 1;
    }
  }
}
