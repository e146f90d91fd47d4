import { SandboxConfigError } from './sandbox-config-error';
import { FaultConfigError } from '../faults/fault-config-error';
import { parseProviderFaults } from '../faults/parse-provider-faults';
import { MAX_EXTRA_TOKENS } from '../chains/sandbox-deployment-plan';
import { type StartSandboxOptions } from '../start-sandbox';

type Env = Record<string, string | undefined>;

/**
 * The sandbox's settings from the environment (`npm run sandbox`, or the lead's `npm start` passing
 * process.env); unset or empty variables keep the defaults. A bad value throws a SandboxConfigError naming it.
 */
export function loadSandboxOptions(env: Env = process.env): StartSandboxOptions {
  const options: StartSandboxOptions = {
    port: integer(env, 'SANDBOX_PORT', 0, 65535) ?? 7700,
    fillDelayMs: integer(env, 'SANDBOX_FILL_DELAY_MS', 0, 600_000) ?? 1500,
    pollIntervalMs: integer(env, 'SANDBOX_POLL_MS', 10, 60_000) ?? 250,
  };
  const failureHoldMs = integer(env, 'SANDBOX_FAILURE_HOLD_MS', 0, 600_000);
  if (failureHoldMs !== undefined) options.failureHoldMs = failureHoldMs;
  const host = read(env, 'SANDBOX_HOST');
  if (host) options.host = host;
  const chainHost = read(env, 'SANDBOX_CHAIN_HOST');
  if (chainHost) options.chainHost = chainHost;
  const publicHost = read(env, 'SANDBOX_PUBLIC_HOST');
  if (publicHost) {
    if (!/^[A-Za-z0-9.-]{1,253}$/.test(publicHost))
      throw invalid('SANDBOX_PUBLIC_HOST', 'must be a host name or IPv4 address');
    options.publicHost = publicHost;
  }
  const manifestDir = read(env, 'SANDBOX_MANIFEST_DIR');
  if (manifestDir) options.manifestDir = manifestDir;
  const faults = read(env, 'SANDBOX_FAULTS');
  if (faults) options.faults = parseFaults(faults);
  // Benchmarks only: more distinct tokens per chain than the standard three. Off (0) by default.
  const extraTokens = integer(env, 'SANDBOX_EXTRA_TOKENS', 0, MAX_EXTRA_TOKENS);
  if (extraTokens) options.extraTokens = extraTokens;
  const feeSeed = integer(env, 'SANDBOX_FEE_SEED', 0, 2 ** 32 - 1);
  if (feeSeed !== undefined) options.feeSeed = feeSeed;
  const chainPorts = read(env, 'SANDBOX_CHAIN_PORTS');
  if (chainPorts) options.chainPorts = parseChainPorts(chainPorts);
  return options;
}

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function invalid(name: string, rule: string): SandboxConfigError {
  return new SandboxConfigError(`invalid environment:\n  ${name}: ${rule}`);
}

function integer(env: Env, name: string, min: number, max: number): number | undefined {
  const value = read(env, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw invalid(name, `must be an integer from ${min} to ${max}`);
  return n;
}

function parseFaults(value: string) {
  try {
    return parseProviderFaults(JSON.parse(value));
  } catch (error) {
    if (error instanceof FaultConfigError || error instanceof SyntaxError) {
      throw invalid('SANDBOX_FAULTS', error.message);
    }
    throw error;
  }
}

/** `1=8545,8453=8546,42161=8547`: stable RPC URLs across restarts (wallets remember them). */
function parseChainPorts(value: string): Partial<Record<number, number>> {
  const ports: Partial<Record<number, number>> = {};
  for (const pair of value.split(',')) {
    const match = /^\s*(\d+)\s*=\s*(\d+)\s*$/.exec(pair);
    if (!match || Number(match[2]) > 65535)
      throw invalid('SANDBOX_CHAIN_PORTS', 'must look like 1=8545,8453=8546');
    ports[Number(match[1])] = Number(match[2]);
  }
  return ports;
}
