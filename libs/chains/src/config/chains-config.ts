import { ConfigError } from '@svc/platform';

/** One EVM chain the service reads: where to reach it and how to name it. */
export interface ChainConfig {
  chainId: number;
  name: string;
  /** http(s) or ws(s). May carry an API key: it never appears in an error message. */
  rpcUrl: string;
  nativeSymbol: string;
}

/**
 * Parses and validates CHAINS_FILE content, `{"chains":[{"chainId","name","rpcUrl","nativeSymbol"}]}`. Every problem
 * is reported with the JSON path of the bad field, e.g. `chains[1].rpcUrl: must be an http(s) or ws(s) URL`.
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
    const { chainId, name, rpcUrl, nativeSymbol } = entry;
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
    if (problems.length > before) return [];
    return [{ chainId, name, rpcUrl, nativeSymbol } as ChainConfig];
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
