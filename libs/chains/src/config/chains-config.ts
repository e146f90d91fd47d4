import { ConfigError } from '@svc/platform';
import {
  type ConfirmationPolicy,
  defaultConfirmationPolicy,
  parseConfirmationPolicy,
} from '../confirmation/confirmation-policy';

/** One EVM chain the service reads: where to reach it and how to name it. */
export interface ChainConfig {
  chainId: number;
  name: string;
  /** http(s) or ws(s). May carry an API key: it never appears in an error message. */
  rpcUrl: string;
  nativeSymbol: string;
  /**
   * When a transaction on this chain is final enough to credit (docs/attempt-status.md "Confirmation policy"). From
   * CHAINS_FILE always set (the chain's default when the file leaves it out); a config built in code without it
   * (tests) counts a transaction as final once it is included.
   */
  confirmations?: ConfirmationPolicy;
  /** More nodes of the same chain: a fill or source transaction is final only when `quorum` of all the nodes agree. */
  rpcUrls?: string[];
  /** How many of the chain's nodes (rpcUrl and rpcUrls) must agree; default a majority of them. */
  quorum?: number;
}

/**
 * Parses and validates CHAINS_FILE content, `{"chains":[{"chainId","name","rpcUrl","nativeSymbol"}]}`, each chain
 * optionally with `confirmations` (blocks, "safe" or "finalized"; default: the chain's published finality, see
 * defaultConfirmationPolicy), `rpcUrls` (more nodes of the chain) and `quorum` (how many of its nodes must agree).
 * Every problem is reported with the JSON path of the bad field, e.g. `chains[1].rpcUrl: must be an http(s) or
 * ws(s) URL`.
 */
export function parseChainsConfig(json: string, source = 'CHAINS_FILE'): ChainConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new ConfigError(`${source}: not valid JSON (${(err as Error).message})`);
  }
  const entries = isObject(raw) ? raw.chains : undefined;
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new ConfigError(`${source} is invalid:\n  chains: must be a non-empty array`);
  }
  const problems: string[] = [];
  const seen = new Map<number, number>();
  const chains = entries.flatMap((entry: unknown, i): ChainConfig[] => {
    const at = `chains[${i}]`;
    if (!isObject(entry)) {
      problems.push(`${at}: must be an object`);
      return [];
    }
    const { chainId, name, rpcUrl, nativeSymbol, confirmations, rpcUrls, quorum } = entry;
    const before = problems.length;
    if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) {
      problems.push(`${at}.chainId: must be a positive integer`);
    } else if (seen.has(chainId)) {
      problems.push(`${at}.chainId: duplicate chainId ${chainId} (also chains[${seen.get(chainId)}])`);
    } else {
      seen.set(chainId, i);
    }
    if (!isNonEmptyString(name)) problems.push(`${at}.name: must be a non-empty string`);
    if (!isRpcUrl(rpcUrl)) problems.push(`${at}.rpcUrl: must be an http(s) or ws(s) URL`);
    if (!isNonEmptyString(nativeSymbol)) problems.push(`${at}.nativeSymbol: must be a non-empty string`);
    const policy = confirmations === undefined ? null : parseConfirmationPolicy(confirmations);
    if (confirmations !== undefined && policy === null) {
      problems.push(`${at}.confirmations: must be a number of blocks (0 to 10000), "safe" or "finalized"`);
    }
    if (rpcUrls !== undefined && (!Array.isArray(rpcUrls) || !rpcUrls.every(isRpcUrl))) {
      problems.push(`${at}.rpcUrls: must be an array of http(s) or ws(s) URLs`);
    }
    const nodes = 1 + (Array.isArray(rpcUrls) ? rpcUrls.length : 0);
    if (
      quorum !== undefined &&
      (typeof quorum !== 'number' || !Number.isSafeInteger(quorum) || quorum < 1 || quorum > nodes)
    ) {
      problems.push(`${at}.quorum: must be an integer from 1 to the number of nodes (${nodes})`);
    }
    if (problems.length > before) return [];
    return [
      {
        chainId,
        name,
        rpcUrl,
        nativeSymbol,
        confirmations: policy ?? defaultConfirmationPolicy(chainId as number),
        ...(rpcUrls !== undefined && (rpcUrls as string[]).length > 0
          ? { rpcUrls: rpcUrls as string[] }
          : {}),
        ...(quorum !== undefined ? { quorum: quorum as number } : {}),
      } as ChainConfig,
    ];
  });
  if (problems.length) throw new ConfigError(`${source} is invalid:\n  ${problems.join('\n  ')}`);
  return chains;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

function isRpcUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
