import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAnvil } from '@svc/testing';
import { CHAIN_RUN_FILE, readChainRun, tieDataToChainRun } from './chain-run-data';

/** Two sandbox runs of the same chain id on real anvils: the data of the first never mixes with the second's chains. */
describe('npm start ties its data folder to the chain run (issue 25 item 5)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'chain-run-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the data of the same run, and moves aside data of another run or of none named', async () => {
    const runOf = async () => {
      const anvil = await startAnvil({ chainId: 31337 });
      try {
        return await readChainRun([{ chainId: 31337, rpcUrl: anvil.rpcUrl }]);
      } finally {
        await anvil.stop();
      }
    };
    const first = await runOf();
    await new Promise((r) => setTimeout(r, 1100)); // anvil stamps genesis in seconds
    const second = await runOf();
    expect(first['31337']).toMatch(/^0x[0-9a-f]{64}$/);
    expect(second['31337']).not.toBe(first['31337']);

    const data = join(dir, 'data');
    // An earlier build's data, naming no run: moved aside.
    mkdirSync(data);
    writeFileSync(join(data, 'events.sqlite'), 'old');
    writeFileSync(join(data, 'manifest.json'), '{}'); // not the service's: stays
    const unnamed = tieDataToChainRun(data, first, new Date('2026-11-28T10:00:00Z'));
    expect(unnamed).toBe(join(data, 'previous', '2026-11-28T10-00-00-000Z'));
    expect(readFileSync(join(unnamed!, 'events.sqlite'), 'utf8')).toBe('old');
    expect(existsSync(join(data, 'events.sqlite'))).toBe(false);
    expect(existsSync(join(data, 'manifest.json'))).toBe(true);

    // The same run again (a restarted service): kept.
    writeFileSync(join(data, 'events.sqlite'), 'first run');
    expect(tieDataToChainRun(data, first)).toBeNull();
    expect(readFileSync(join(data, 'events.sqlite'), 'utf8')).toBe('first run');

    // Fresh chains: the first run's data moved aside, the folder now names the second run.
    const moved = tieDataToChainRun(data, second, new Date('2026-11-28T11:00:00Z'));
    expect(readFileSync(join(moved!, 'events.sqlite'), 'utf8')).toBe('first run');
    expect(JSON.parse(readFileSync(join(moved!, CHAIN_RUN_FILE), 'utf8'))).toEqual(first);
    expect(JSON.parse(readFileSync(join(data, CHAIN_RUN_FILE), 'utf8'))).toEqual(second);
    expect(existsSync(join(data, 'previous', '2026-11-28T10-00-00-000Z', 'events.sqlite'))).toBe(true);
  }, 60_000);
});
