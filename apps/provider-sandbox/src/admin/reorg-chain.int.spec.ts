import { ANVIL_ACCOUNTS, createAnvilClient, startAnvil, type AnvilInstance } from '@svc/testing';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { FaultRegistry } from '../faults/fault-registry';
import { type SandboxManifest } from '../manifest/sandbox-manifest';
import { adminRoutes } from './admin.routes';

/** POST /reorg on a real anvil node: a transaction mined before it has no receipt after it (issue 24 S17). */
describe('POST /reorg', () => {
  let anvil: AnvilInstance;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
  });
  afterAll(() => anvil?.stop());

  const route = () =>
    adminRoutes({
      faults: new FaultRegistry([]),
      manifest: () => ({}) as SandboxManifest,
      chains: [{ chainId: 8453, rpcUrl: anvil.rpcUrl }],
    }).find((r) => r.method === 'POST' && r.pattern === '/reorg')!;
  const post = (body: unknown) =>
    route().handle({
      method: 'POST',
      path: '/reorg',
      params: {},
      query: new URLSearchParams(),
      headers: {},
      rawBody: JSON.stringify(body),
    });

  it('replaces the last blocks by empty ones: the transaction is gone, the head keeps its height', async () => {
    const client = createAnvilClient(anvil);
    const hash = await client.sendTransaction({
      account: privateKeyToAccount(ANVIL_ACCOUNTS[1].privateKey),
      to: ANVIL_ACCOUNTS[2].address,
      value: parseEther('1'),
    });
    const mined = await client.waitForTransactionReceipt({ hash });
    await client.mine({ blocks: 1 });
    const reply = await post({ chainId: 8453, depth: 2 });
    expect(reply).toMatchObject({
      kind: 'json',
      status: 200,
      body: { chainId: 8453, depth: 2, blockNumber: Number(mined.blockNumber) + 1 },
    });
    await expect(client.getTransactionReceipt({ hash })).rejects.toThrow(/could not be found/);
    const block = await client.getBlock({ blockNumber: mined.blockNumber });
    expect(block.hash).not.toBe(mined.blockHash);
    expect(block.transactions).toEqual([]);
  });

  it('refuses an unknown chain, a depth out of range and a body that is not JSON', async () => {
    expect(await post({ chainId: 1, depth: 1 })).toMatchObject({ status: 400, body: { message: /chainId/ } });
    expect(await post({ chainId: 8453, depth: 0 })).toMatchObject({
      status: 400,
      body: { message: /depth/ },
    });
    expect(await post({ chainId: 8453, depth: 65 })).toMatchObject({ status: 400 });
    const bad = await route().handle({
      method: 'POST',
      path: '/reorg',
      params: {},
      query: new URLSearchParams(),
      headers: {},
      rawBody: '{',
    });
    expect(bad).toMatchObject({ status: 400 });
  });
});
