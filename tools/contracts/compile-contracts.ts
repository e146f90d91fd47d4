import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';

// solc-js ships untyped entry points.
const compile = solc.compile as (input: string) => string;
const solcVersion = solc.version as () => string;

export interface CompiledContract {
  name: string;
  abi: unknown[];
  bytecode: `0x${string}`;
}

export class SolidityCompileError extends Error {
  override readonly name = 'SolidityCompileError' as const;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

/**
 * Compiles every `*.sol` in `dir` with solc-js (standard JSON, optimizer on) and returns the deployable contracts
 * sorted by name. Abstract contracts and interfaces (no bytecode) and internal libraries (no function in the ABI)
 * are left out. Warnings fail the build too: generated artifacts should come from clean sources.
 */
export function compileContracts(dir: string): CompiledContract[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(files.map((f) => [f, { content: readFileSync(path.join(dir, f), 'utf8') }])),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // cancun runs on every chain the service supports; anvil's default (latest) accepts it.
      evmVersion: 'cancun',
      // AcrossSpokePool's depositV3 (twelve parameters, a thirteen-field event) needs the IR pipeline.
      viaIR: true,
      // No metadata hash: the bytecode changes only when the code does, not when a comment does.
      metadata: { appendCBOR: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(compile(JSON.stringify(input))) as SolcOutput;
  const problems = (output.errors ?? []).filter((e) => e.severity !== 'info');
  if (problems.length) {
    throw new SolidityCompileError(
      `solc ${solcVersion()} reported:\n${problems.map((e) => e.formattedMessage).join('\n')}`,
    );
  }
  const contracts: CompiledContract[] = [];
  for (const byName of Object.values(output.contracts ?? {})) {
    for (const [name, { abi, evm }] of Object.entries(byName)) {
      const callable = abi.some((item) => (item as { type: string }).type === 'function');
      if (evm.bytecode.object && callable)
        contracts.push({ name, abi, bytecode: `0x${evm.bytecode.object}` });
    }
  }
  return contracts.sort((a, b) => a.name.localeCompare(b.name));
}
