import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHAIN_RUN_FILE, readChainRun } from '@svc/chains';
import { hash, sourceConfirmed, submittedWithSignature, T0 } from '@svc/domain/attempt-fixture';
import { resetStoredEventProblems, SqliteEventStore } from '@svc/event-store';
import { type AnvilInstance, startAnvil } from '@svc/testing';
import { runCli } from '../run-cli';
import { chainRunDifferences, OTHER_CHAIN_RUN_EXIT_CODE } from './store-chain-run';

/**
 * Issue 25 item 5: the store of one sandbox run audited against another run's chains. Two real anvils of chain 1, one
 * started after the other (anvil stamps genesis in seconds): the store names the first's genesis; the chains file
 * points at one or the other. The store holds an attempt with a confirmed source transaction neither chain has.
 */
describe('audit: a store of another sandbox chain run than the chains it reads', () => {
  let dir: string;
  let first: AnvilInstance;
  let second: AnvilInstance;
  const chainsFile = (name: string, anvil: AnvilInstance) => {
    const file = join(dir, name);
    writeFileSync(
      file,
      JSON.stringify({
        chains: [{ chainId: 1, name: 'Ethereum', rpcUrl: anvil.rpcUrl, nativeSymbol: 'ETH' }],
      }),
    );
    return file;
  };
  const audit = async (argv: string[], env: Record<string, string>, cwd = dir) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(
      argv,
      { EVENT_STORE: 'sqlite', DATA_DIR: join(dir, 'data'), ...env },
      { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd },
    );
    return { code, stdout, stderr };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-chain-run-'));
    first = await startAnvil({ chainId: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    second = await startAnvil({ chainId: 1 });
    mkdirSync(join(dir, 'data'));
    const store = SqliteEventStore.open({ file: join(dir, 'data', 'events.sqlite') });
    // Submitted on chain 1 and its first transaction confirmed: the chain check reads that transaction again.
    const events = [...submittedWithSignature, sourceConfirmed(1, hash(1), ['chain:1:call:0'], T0 + 20_000)];
    await store.append(
      'attempt-at_1',
      events.map((e, i) => ({ id: `e${i}`, type: e.type, data: e.data as never })),
      { expectedRevision: 'any' },
    );
    await store.close();
  }, 60_000);
  beforeEach(() => resetStoredEventProblems());
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the chain checks with exit code 4, naming both runs and what to do; audits against its own run', async () => {
    const firstRun = await readChainRun([{ chainId: 1, rpcUrl: first.rpcUrl }]);
    const secondRun = await readChainRun([{ chainId: 1, rpcUrl: second.rpcUrl }]);
    expect(secondRun['1']).not.toBe(firstRun['1']);
    writeFileSync(join(dir, 'data', CHAIN_RUN_FILE), JSON.stringify(firstRun));

    const other = { CHAINS_FILE: chainsFile('second.json', second) };
    for (const argv of [
      ['verify', '--all'],
      ['attempt', 'at_1', '--verify-chain'],
    ]) {
      const refused = await audit(argv, other);
      expect(refused.code).toBe(OTHER_CHAIN_RUN_EXIT_CODE);
      expect(refused.stdout).toBe(''); // no mismatch reported
      expect(refused.stderr).toContain('refused: the store belongs to another sandbox chain run');
      expect(refused.stderr).toContain(join(dir, 'data', CHAIN_RUN_FILE));
      expect(refused.stderr).toContain(`the store's run has genesis ${firstRun['1']}`);
      expect(refused.stderr).toContain(`the chains read now have ${secondRun['1']}`);
      expect(refused.stderr).toContain('verify --all --store-only');
    }
    // Without the chains, the store of another run is audited as ever.
    expect((await audit(['verify', '--all', '--store-only'], other)).code).toBe(0);

    // Against its own run's chains, the chain checks run: the confirmed transaction is not on that chain.
    const own = await audit(['verify', '--all'], { CHAINS_FILE: chainsFile('first.json', first) });
    expect(own.stderr).not.toContain('refused');
    expect([own.code, own.stdout]).toEqual([1, expect.stringContaining('attempts with findings: 1')]);
  }, 60_000);

  it("warns when the store names no run and the chains are the running sandbox's", async () => {
    rmSync(join(dir, 'data', CHAIN_RUN_FILE), { force: true });
    const cwd = join(dir, 'checkout');
    mkdirSync(join(cwd, '.sandbox'), { recursive: true });
    writeFileSync(
      join(cwd, '.sandbox', 'chains.json'),
      JSON.stringify({
        chains: [{ chainId: 1, name: 'Ethereum', rpcUrl: second.rpcUrl, nativeSymbol: 'ETH' }],
      }),
    );
    const unnamed = await audit(['verify', '--all'], {}, cwd);
    expect(unnamed.stderr).toContain('the store names no sandbox chain run');
    expect(unnamed.code).toBe(1);
    // Told which chains (CHAINS_FILE): no warning, as for a production store, which names no sandbox run.
    const told = await audit(['verify', '--all'], { CHAINS_FILE: chainsFile('second.json', second) });
    expect(told.stderr).not.toContain('names no sandbox chain run');
  }, 60_000);
});

describe('chainRunDifferences', () => {
  it('names the chains both runs name with different genesis hashes, nothing else', () => {
    expect(chainRunDifferences({ 1: '0xa', 8453: '0xb', 10: '0xc' }, { 1: '0xa', 8453: '0xd' })).toEqual([
      { chainId: '8453', store: '0xb', chains: '0xd' },
    ]);
    expect(chainRunDifferences({ 1: '0xa' }, {})).toEqual([]);
  });
});
