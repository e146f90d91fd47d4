import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { ChainRegistry } from '@svc/chains';
import {
  ANVIL_ACCOUNTS,
  type AnvilClient,
  type AnvilInstance,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  TestTokenArtifact,
} from '@svc/testing';
import { type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deliveryKey, FillWatcher, type WatchedDelivery } from './fill-watcher';

const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const recipient: Address = '0x000000000000000000000000000000000000bEEF';
/** Like many hosted RPCs: eth_getLogs over a wider range than this is refused. */
const RANGE_LIMIT = 100;

interface RangeLimitingProxy {
  url: string;
  /** Every block range eth_getLogs was asked for (toBlock − fromBlock + 1), refused or not. */
  ranges: number[];
  /** true: every request fails (the node is down). */
  down: boolean;
  close(): Promise<void>;
}

/** A real RPC on loopback in front of anvil that refuses eth_getLogs ranges over RANGE_LIMIT blocks. */
async function startRangeLimitingProxy(target: string): Promise<RangeLimitingProxy> {
  const proxy: Omit<RangeLimitingProxy, 'url' | 'close'> = { ranges: [], down: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (proxy.down) return void res.writeHead(503).end('node down');
      const call = JSON.parse(body) as {
        id: number;
        method: string;
        params: { fromBlock: string; toBlock: string }[];
      };
      if (call.method === 'eth_getLogs') {
        const { fromBlock, toBlock } = call.params[0];
        const range = Number(BigInt(toBlock) - BigInt(fromBlock)) + 1;
        proxy.ranges.push(range);
        if (range > RANGE_LIMIT)
          return void res.setHeader('content-type', 'application/json').end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: call.id,
              error: { code: -32005, message: `query exceeds max block range ${RANGE_LIMIT}` },
            }),
          );
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then((r) => r.text())
        .then(
          (text) => res.setHeader('content-type', 'application/json').end(text),
          () => res.destroy(),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/**
 * The FillWatcher against anvil through an RPC that, like hosted nodes, refuses wide eth_getLogs ranges (security
 * review N-L6): after an outage the watcher must not ask for everything since its last good scan, or every scan
 * after fails for good and hints stop.
 */
describe('FillWatcher after an outage (N-L6)', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let proxy: RangeLimitingProxy;
  let chains: ChainRegistry;
  let token: Address;
  let watched: WatchedDelivery;

  const transferToRecipient = async (amount: bigint) =>
    client.waitForTransactionReceipt({
      hash: await client.writeContract({
        account: deployer,
        address: token,
        abi: TestTokenArtifact.abi,
        functionName: 'transfer',
        args: [recipient, amount],
      }),
    });

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 42161 });
    client = createAnvilClient(anvil);
    token = await deployArtifact(client, {
      artifact: TestTokenArtifact,
      account: deployer,
      args: ['USD Coin', 'USDC', 6],
    });
    await client.waitForTransactionReceipt({
      hash: await client.writeContract({
        account: deployer,
        address: token,
        abi: TestTokenArtifact.abi,
        functionName: 'mint',
        args: [deployer.address, 1_000_000n],
      }),
    });
    proxy = await startRangeLimitingProxy(anvil.rpcUrl);
    // No retries: a refused range is refused again, and a retry only slows the test down.
    chains = new ChainRegistry(
      [{ chainId: 42161, name: 'arbitrum', rpcUrl: proxy.url, nativeSymbol: 'ETH' }],
      {
        retryCount: 0,
      },
    );
    watched = { chainId: 42161, token, recipient };
  });
  afterAll(async () => {
    await chains?.close();
    await proxy?.close();
    await anvil?.stop();
  });

  it('scans at most the last 100 blocks after a 500-block gap, so hints come back at once', async () => {
    const watcher = new FillWatcher(chains);
    await transferToRecipient(1n);
    expect(await watcher.scan([watched])).toEqual(new Set([deliveryKey(watched)]));

    // The node goes away for a while: the scan fails, and 500 blocks go by.
    proxy.down = true;
    expect(await watcher.scan([watched])).toEqual(new Set());
    proxy.down = false;
    await client.mine({ blocks: 500 });

    // A delivery after the outage is seen by the next scan, and by no request over the node's limit.
    await transferToRecipient(2n);
    proxy.ranges.length = 0;
    expect(await watcher.scan([watched])).toEqual(new Set([deliveryKey(watched)]));
    expect(Math.max(...proxy.ranges)).toBeLessThanOrEqual(RANGE_LIMIT);

    // And the scans after it go on from there.
    await client.mine({ blocks: 3 });
    await transferToRecipient(3n);
    expect(await watcher.scan([watched])).toEqual(new Set([deliveryKey(watched)]));
    expect(await watcher.scan([watched])).toEqual(new Set());
    expect(Math.max(...proxy.ranges)).toBeLessThanOrEqual(RANGE_LIMIT);
  }, 60_000);

  it('skips what is older than the last 100 blocks (hints only: the provider poll still settles those legs)', async () => {
    await client.mine({ blocks: 5 }); // the deliveries of the test before are behind a new watcher's first scan
    const watcher = new FillWatcher(chains);
    expect(await watcher.scan([watched])).toEqual(new Set());
    await transferToRecipient(4n);
    await client.mine({ blocks: 150 });
    expect(await watcher.scan([watched])).toEqual(new Set());
    expect(Math.max(...proxy.ranges)).toBeLessThanOrEqual(RANGE_LIMIT);
  }, 60_000);
});
