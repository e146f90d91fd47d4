import { type ChainClient } from '@svc/chains';
import { createAnvilClient, startAnvil, type AnvilInstance } from '@svc/testing';
import { createPublicClient, defineChain, http } from 'viem';
import { ChainFeeDataCache } from './chain-fee-data';

/** The fee data cache against a real node (anvil), counting the JSON-RPC requests that reach it. */
describe('ChainFeeDataCache', () => {
  let anvil: AnvilInstance;
  let requests: string[];
  let client: ChainClient;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 1 });
  });
  afterAll(async () => {
    await anvil?.stop();
  });
  beforeEach(() => {
    requests = [];
    client = createPublicClient({
      chain: defineChain({
        id: 1,
        name: 'anvil',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [anvil.rpcUrl] } },
      }),
      transport: http(anvil.rpcUrl, {
        onFetchRequest: async (request) => {
          requests.push(((await request.clone().json()) as { method: string }).method);
        },
      }),
    });
  });

  it('serves 50 concurrent quotes with one block read and one tip read, and reads again once the data is older than the limit', async () => {
    const cache = new ChainFeeDataCache(1_000);
    const at = Date.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => cache.read(1, client, at)));
    expect(requests.sort()).toEqual(['eth_getBlockByNumber', 'eth_maxPriorityFeePerGas']);
    const block = await createAnvilClient(anvil).getBlock({ blockTag: 'latest' });
    expect(new Set(answers.map((a) => a.baseFeePerGas))).toEqual(new Set([block.baseFeePerGas]));
    // anvil's own suggestion: at least 1 gwei.
    expect(answers[0].priorityFeePerGas).toBeGreaterThanOrEqual(1_000_000_000n);

    await cache.read(1, client, at + 999);
    expect(requests).toHaveLength(2);
    await cache.read(1, client, at + 1_000);
    expect(requests).toHaveLength(4);
    // Per chain: another chain id is its own entry.
    await cache.read(8453, client, at + 1_000);
    expect(requests).toHaveLength(6);
  });

  it('keeps no failed read: the next quote asks the chain again', async () => {
    const cache = new ChainFeeDataCache(60_000);
    const dead = createPublicClient({
      chain: client.chain,
      transport: http('http://127.0.0.1:9/', { retryCount: 0, timeout: 500 }),
    });
    await expect(cache.read(1, dead, 0)).rejects.toThrow();
    await expect(cache.read(1, client, 1)).resolves.toMatchObject({ baseFeePerGas: expect.any(BigInt) });
    expect(requests).toHaveLength(2);
  });
});
