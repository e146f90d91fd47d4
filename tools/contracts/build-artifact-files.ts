import path from 'node:path';
import { compileContracts } from './compile-contracts';
import { renderArtifacts } from './render-artifacts';

const root = path.resolve(__dirname, '..', '..');

export const CONTRACTS_DIR = path.join(root, 'apps/provider-sandbox/contracts');

/**
 * The generated files, keyed by absolute path. The sandbox gets every contract; libs/testing gets the few that
 * library tests deploy (libraries may not import an app), compiled in the same run so the bytecode is identical.
 */
export const ARTIFACT_FILES = {
  sandbox: {
    path: path.join(root, 'apps/provider-sandbox/src/contracts/artifacts.ts'),
    description:
      'Every sandbox contract: tokens, Relay depository, Across spoke pool, Mayan forwarder and Swift.',
    contracts: null,
  },
  testing: {
    path: path.join(root, 'libs/testing/src/anvil/test-contract-artifacts.ts'),
    description:
      'The sandbox contracts that library tests deploy on anvil (same build as the sandbox artifacts).',
    contracts: ['TestToken', 'TetherToken', 'MayanForwarder'],
  },
} as const;

export async function buildArtifactFiles(): Promise<Map<string, string>> {
  const contracts = compileContracts(CONTRACTS_DIR);
  const files = new Map<string, string>();
  for (const file of Object.values(ARTIFACT_FILES)) {
    const wanted: readonly string[] | null = file.contracts;
    const selected = wanted ? contracts.filter((c) => wanted.includes(c.name)) : contracts;
    files.set(
      file.path,
      await renderArtifacts(selected, { filePath: file.path, description: file.description }),
    );
  }
  return files;
}
