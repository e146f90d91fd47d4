import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '../../../..');

describe('contract artifacts', () => {
  // The compile script runs as its own process: Prettier 3 loads through a dynamic import that jest's VM refuses.
  // A via-IR build of every source takes about 25 s of CPU since the CCTP contracts joined: more than jest's 30 s
  // default once the machine is busy.
  it('are exactly what the checked-in Solidity sources compile to', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['tools/run-ts.js', 'tools/contracts/compile.ts', '--check'],
      { cwd: root, timeout: 120_000 },
    ).catch((err: { stdout?: string; message: string }) => {
      throw new Error(
        `artifacts are stale or do not build; run: node tools/run-ts.js tools/contracts/compile.ts\n${err.stdout ?? err.message}`,
      );
    });
    expect(stdout.trim().split('\n')).toEqual([
      'up to date  libs/testing/src/anvil/test-contract-artifacts.ts',
    ]);
  }, 120_000);
});
