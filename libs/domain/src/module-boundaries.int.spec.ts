import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The domain stays pure because lint says so: this runs the workspace's own `eslint` on real files placed in
 * libs/domain and expects the module-boundaries rule to refuse the forbidden imports.
 */
const root = join(__dirname, '..', '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const probes = {
  nest: "import { Injectable } from '@nestjs/common';\nexport const probe = Injectable;\n",
  adapter:
    "import { HEADER } from '@svc/contract';\nimport { MessagePattern } from '@svc/messaging';\nexport const probe = [HEADER, MessagePattern];\n",
  contractOnly: "import { HEADER } from '@svc/contract';\nexport const probe = HEADER;\n",
};

describe('module boundaries (lint)', () => {
  const messages: Record<string, string[]> = {};

  beforeAll(() => {
    const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
    // The rule needs Nx's project graph; without a cached one it skips silently.
    execFileSync(bin('nx'), ['show', 'projects'], { cwd: root, env, stdio: 'ignore' });
    const dir = join(__dirname, `lint-probes-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const files = Object.entries(probes).map(([name, source]) => {
        const file = join(dir, `${name}.ts`);
        writeFileSync(file, source);
        return [name, file] as const;
      });
      const run = spawnSync(
        bin('eslint'),
        ['--format', 'json', '--no-warn-ignored', ...files.map(([, f]) => f)],
        { cwd: root, env, encoding: 'utf8' },
      );
      const results = JSON.parse(run.stdout) as {
        filePath: string;
        messages: { ruleId: string | null; message: string }[];
      }[];
      for (const [name, file] of files) {
        const result = results.find((r) => r.filePath === file);
        messages[name] = (result?.messages ?? [])
          .filter((m) => m.ruleId === '@nx/enforce-module-boundaries')
          .map((m) => m.message);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('rejects a domain file importing NestJS', () => {
    expect(messages['nest']).toEqual([expect.stringContaining('is not allowed to import "@nestjs/common"')]);
  });

  it('rejects a domain file importing an adapter lib', () => {
    expect(messages['adapter']).toEqual([
      expect.stringContaining('can only depend on libs tagged with "type:contract"'),
    ]);
  });

  it('accepts a domain file importing the contract only', () => {
    expect(messages['contractOnly']).toEqual([]);
  });
});
