import { createAnvilClient, startAnvil, type AnvilInstance } from '@svc/testing';
import { FeeKeeper } from './fee-keeper';
import { L1FeeBook } from './l1-fee-book';
import { sandboxFeeModel } from './sandbox-fee-models';

/** The keeper on a bare anvil (automine, no interval blocks), so the test decides when blocks the keeper missed come. */
describe('FeeKeeper (docs/sandbox.md "Fees")', () => {
  let anvil: AnvilInstance;
  let keeper: FeeKeeper;
  const model = sandboxFeeModel(42161)!;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 42161 });
    keeper = new FeeKeeper({
      chain: anvil,
      model,
      seed: 1,
      l1Fees: new L1FeeBook(),
      pollIntervalMs: 50,
      onError: (error) => {
        throw error;
      },
    });
    await keeper.start();
  });
  afterAll(async () => {
    await keeper?.stop();
    await anvil?.stop();
  });

  it("walks on from its own fee after blocks it missed: anvil's decay stays a dip, the walk never leaves its band", async () => {
    const client = createAnvilClient(anvil);
    // The poll prices the next block once a block was mined since it last looked; a loaded machine can delay it past
    // several of anvil's interval blocks, each 12.5% lower than the one before (here: four mined at once).
    const before = (await client.getBlock({ blockTag: 'latest' })).baseFeePerGas!;
    await client.mine({ blocks: 4 });
    const dipped = (await client.getBlock({ blockTag: 'latest' })).baseFeePerGas!;
    expect(dipped).toBeLessThan((before * 7n) / 10n);
    const latest = await client.getBlockNumber({ cacheTime: 0 });
    // Give the poll a few turns to price the next block, then mine it.
    await new Promise((r) => setTimeout(r, 500));
    await client.mine({ blocks: 1 });
    const next = await client.getBlock({ blockNumber: latest + 1n });
    // Two walk steps (each at most 1/16 down, 1/32 up) from `before`: the first of the four blocks had the keeper's
    // fee, a step on from `before`, and the next one is a step on from that, not from the dip.
    expect(next.baseFeePerGas!).toBeGreaterThanOrEqual((before * 15n * 15n) / (16n * 16n));
    expect(next.baseFeePerGas!).toBeLessThanOrEqual((before * 33n * 33n) / (32n * 32n) + 1n);
    expect(next.baseFeePerGas!).toBeGreaterThanOrEqual(model.baseFee.min);
  });
});
