import path from 'node:path';
import { compileContracts } from './compile-contracts';
import { renderArtifacts } from './render-artifacts';

const root = path.resolve(__dirname, '..', '..');

export const CONTRACTS_DIR = path.join(root, 'apps/provider-sandbox/contracts');

/**
 * The generated file, keyed by name: one build of every sandbox contract, in libs/testing, where library tests
 * (libraries may not import an app) and the sandbox app both import it from.
 */
export const ARTIFACT_FILES = {
  contracts: {
    path: path.join(root, 'libs/testing/src/anvil/test-contract-artifacts.ts'),
    description:
      'Every sandbox contract: tokens, Relay depository, Across spoke pool, Mayan forwarder and Swift.',
  },
} as const;

export async function buildArtifactFiles(): Promise<Map<string, string>> {
  const contracts = compileContracts(CONTRACTS_DIR);
  const files = new Map<string, string>();
  for (const file of Object.values(ARTIFACT_FILES)) {
    files.set(
      file.path,
      await renderArtifacts(contracts, { filePath: file.path, description: file.description }),
    );
  }
  return files;
}
