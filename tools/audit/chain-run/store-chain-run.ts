import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAIN_RUN_FILE, type ChainRegistry, type ChainRun, readChainRun } from '@svc/chains';

/** The exit code of an audit refused because its store and its chains are of different sandbox chain runs. */
export const OTHER_CHAIN_RUN_EXIT_CODE = 4;

export interface ChainRunDifference {
  chainId: string;
  /** The genesis hash the store's data folder names. */
  store: string;
  /** The genesis hash of the chain the audit would read. */
  chains: string;
}

/** Where the store stands against the chains it would be checked with. */
export type StoreChainRun =
  | { kind: 'same'; marker: string }
  | { kind: 'unnamed'; marker: string }
  | { kind: 'other'; marker: string; differences: ChainRunDifference[] };

/** The chains both runs name whose genesis hashes differ. A chain only one of them names says nothing either way. */
export function chainRunDifferences(store: ChainRun, chains: ChainRun): ChainRunDifference[] {
  return Object.keys(store)
    .filter((chainId) => chains[chainId] !== undefined && chains[chainId] !== store[chainId])
    .map((chainId) => ({ chainId, store: store[chainId], chains: chains[chainId] }));
}

/**
 * Whether a SQLite store belongs to the chain run of the chains the audit reads (issue 25 item 5). Fresh sandbox chains
 * replay the same transaction hashes, so one run's events checked against another run's chains give mismatches that
 * say nothing about money. The data folder names its run (`sandbox-chain-run.json`, written by `npm start`); each
 * chain it names that the audit reads is asked for its genesis hash. A chain that does not answer is left out here:
 * the chain checks report it as unreachable.
 */
export async function storeChainRun(dataDir: string, chains: ChainRegistry): Promise<StoreChainRun> {
  const marker = join(dataDir, CHAIN_RUN_FILE);
  if (!existsSync(marker)) return { kind: 'unnamed', marker };
  let recorded: ChainRun;
  try {
    recorded = JSON.parse(readFileSync(marker, 'utf8')) as ChainRun;
  } catch {
    return { kind: 'unnamed', marker };
  }
  const current: ChainRun = {};
  for (const chainId of Object.keys(recorded)
    .map(Number)
    .filter((id) => chains.has(id))) {
    try {
      Object.assign(current, await readChainRun([{ chainId, rpcUrl: chains.config(chainId).rpcUrl }]));
    } catch {
      // unreachable now: the chain checks say so
    }
  }
  const differences = chainRunDifferences(recorded, current);
  return differences.length === 0 ? { kind: 'same', marker } : { kind: 'other', marker, differences };
}

/** The refusal, naming both runs and what to do. */
export function formatOtherChainRun(
  run: Extract<StoreChainRun, { kind: 'other' }>,
  chainsFile: string | null,
): string {
  const lines = run.differences.map(
    (d) =>
      `  chain ${d.chainId}: the store's run has genesis ${d.store}, the chains read now have ${d.chains}`,
  );
  return [
    `refused: the store belongs to another sandbox chain run than the chains it would be checked against`,
    `  store's run: ${run.marker}`,
    `  chains: ${chainsFile ?? 'none'}`,
    ...lines,
    `Fresh sandbox chains replay the same transaction hashes: every chain check would be a false mismatch, not`,
    `money. Nothing was checked. What to do: audit this store without the chains (verify --all --store-only, or`,
    `attempt without --verify-chain): the chains it ran on stopped with its sandbox. To check the chains running now,`,
    `audit the data of their run (npm start keeps it in data/; it moves older runs' stores to data/previous/<time>/).`,
    '',
  ].join('\n');
}

/** The warning when the store names no run: its mismatches may be another run's. */
export function formatUnnamedChainRun(run: Extract<StoreChainRun, { kind: 'unnamed' }>): string {
  return `warning: ${run.marker} is missing or unreadable: the store names no sandbox chain run, so a chain mismatch below may come from another run's chains (the sandbox replays transaction hashes), not from money\n`;
}
