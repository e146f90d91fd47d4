import { readFileSync } from 'node:fs';
import { ConfigError } from '@svc/platform';
import { parseChainsConfig, type ChainConfig } from './chains-config';

/** Reads and validates the CHAINS_FILE at `path`; any problem is a ConfigError naming the file and the field. */
export function loadChainsFile(path: string): ChainConfig[] {
  let json: string;
  try {
    json = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `CHAINS_FILE: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return parseChainsConfig(json, `CHAINS_FILE ${path}`);
}
