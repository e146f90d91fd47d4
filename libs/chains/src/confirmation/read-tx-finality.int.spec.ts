import { ANVIL_ACCOUNTS, createAnvilClient, startAnvil, type AnvilInstance } from '@svc/testing';
import { type Hash, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ChainRegistry } from '../registry/chain-registry';
import { readTxFinality } from './read-tx-finality';

/**
 * Three nodes of chain 8453: `main`, `fork` (started from main after the transaction, so it holds the same blocks)
 * and `stranger` (a node of the same chain id that never saw the transaction: the one that disagrees).
 */
describe('readTxFinality (anvil, three nodes)', () => {
  let main: AnvilInstance;
  let fork: AnvilInstance;
  let stranger: AnvilInstance;
  let txHash: Hash;
  let txBlock: bigint;

  beforeAll(async () => {
    [main, stranger] = await Promise.all([startAnvil({ chainId: 8453 }), startAnvil({ chainId: 8453 })]);
    const client = createAnvilClient(main);
    txHash = await client.sendTransaction({
      account: privateKeyToAccount(ANVIL_ACCOUNTS[1].privateKey),
      to: ANVIL_ACCOUNTS[2].address,
      value: parseEther('1'),
    });
    txBlock = (await client.waitForTransactionReceipt({ hash: txHash })).blockNumber;
    fork = await startAnvil({ chainId: 8453, forkUrl: main.rpcUrl });
  }, 30_000);
  afterAll(() => Promise.all([main, fork, stranger].map((node) => node?.stop())));

  const registry = (extra: Partial<{ rpcUrls: string[]; quorum: number; blocks: number }> = {}) =>
    new ChainRegistry([
      {
        chainId: 8453,
        name: 'base',
        rpcUrl: main.rpcUrl,
        nativeSymbol: 'ETH',
        confirmations: { blocks: extra.blocks ?? 2 },
        ...(extra.rpcUrls ? { rpcUrls: extra.rpcUrls } : {}),
        ...(extra.quorum ? { quorum: extra.quorum } : {}),
      },
    ]);

  it('one node: its receipt, and latest − 2 as its final block', async () => {
    const latest = await createAnvilClient(main).getBlockNumber();
    const { views, quorum } = await readTxFinality(registry(), { chainId: 8453, txHash });
    expect(quorum).toBe(1);
    expect(views).toEqual([
      {
        ok: true,
        finalBlock: latest - 2n,
        receipt: {
          blockNumber: txBlock,
          blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          success: true,
        },
      },
    ]);
  });

  it('three nodes: the fork agrees on the block hash, the stranger has no receipt; majority quorum 2', async () => {
    const { views, quorum } = await readTxFinality(registry({ rpcUrls: [fork.rpcUrl, stranger.rpcUrl] }), {
      chainId: 8453,
      txHash,
    });
    expect(quorum).toBe(2);
    const [a, b, c] = views;
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (!a.ok || !b.ok || !c.ok) return;
    expect(b.receipt?.blockHash).toBe(a.receipt?.blockHash);
    expect(c.receipt).toBeNull();
  });

  it('a node that does not answer is a failed view, not a throw', async () => {
    const chains = new ChainRegistry(
      [
        {
          chainId: 8453,
          name: 'base',
          rpcUrl: main.rpcUrl,
          nativeSymbol: 'ETH',
          rpcUrls: ['http://127.0.0.1:9'],
          quorum: 2,
        },
      ],
      { retryCount: 0, timeoutMs: 1_000 },
    );
    const { views, quorum } = await readTxFinality(chains, { chainId: 8453, txHash });
    expect(quorum).toBe(2);
    expect(views[0].ok).toBe(true);
    expect(views[1]).toEqual({ ok: false, error: expect.stringContaining('chain 8453') });
  });

  it('the safe and finalized tags are read from the node', async () => {
    const client = createAnvilClient(main);
    await client.mine({ blocks: 3 });
    const safe = (await client.getBlock({ blockTag: 'safe' })).number;
    const chains = new ChainRegistry([
      {
        chainId: 8453,
        name: 'base',
        rpcUrl: main.rpcUrl,
        nativeSymbol: 'ETH',
        confirmations: { tag: 'safe' },
      },
    ]);
    const { views } = await readTxFinality(chains, { chainId: 8453, txHash });
    expect(views[0]).toMatchObject({ ok: true, finalBlock: safe });
  });
});
