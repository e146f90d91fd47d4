import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { ConfigError } from '@svc/platform';
import { findFreePort, startAnvil, type AnvilInstance } from '@svc/testing';
import { ChainRpcError } from '../errors/chain-rpc-error';
import { readNativeBalance } from '../accounts/read-native-balance';
import { ChainNotConfiguredError } from './chain-not-configured-error';
import { ChainRegistry } from './chain-registry';

describe('ChainRegistry', () => {
  let anvil: AnvilInstance;
  let deadPort: number;
  beforeAll(async () => {
    [anvil, deadPort] = await Promise.all([startAnvil({ chainId: 8453 }), findFreePort()]);
  });
  afterAll(() => anvil?.stop());

  const configs = () => [
    { chainId: 8453, name: 'base', rpcUrl: anvil.rpcUrl, nativeSymbol: 'ETH' },
    { chainId: 42161, name: 'arbitrum', rpcUrl: `ws://127.0.0.1:${anvil.port}`, nativeSymbol: 'ETH' },
    { chainId: 10, name: 'optimism', rpcUrl: `http://127.0.0.1:${deadPort}`, nativeSymbol: 'ETH' },
  ];

  it('knows its chains and their config', () => {
    const registry = new ChainRegistry(configs());
    expect(registry.chainIds()).toEqual([8453, 42161, 10]);
    expect(registry.has(8453)).toBe(true);
    expect(registry.has(1)).toBe(false);
    expect(registry.config(8453)).toEqual(configs()[0]);
  });

  it('refuses unknown chain ids with ChainNotConfiguredError, and duplicate configs', () => {
    const registry = new ChainRegistry(configs());
    expect(() => registry.config(1)).toThrow(ChainNotConfiguredError);
    expect(() => registry.client(1)).toThrow(
      expect.objectContaining({ name: 'ChainNotConfiguredError', chainId: 1 }),
    );
    expect(() => new ChainRegistry([...configs(), configs()[0]])).toThrow(ConfigError);
  });

  it('gives one cached client per chain that talks to the node over HTTP', async () => {
    const registry = new ChainRegistry(configs());
    const client = registry.client(8453);
    expect(registry.client(8453)).toBe(client);
    expect(client.chain).toMatchObject({
      id: 8453,
      name: 'base',
      nativeCurrency: { symbol: 'ETH', decimals: 18 },
    });
    expect(client.transport.type).toBe('http');
    expect(await client.getChainId()).toBe(8453);
  });

  it('uses a WebSocket for ws:// URLs and closes it on close()', async () => {
    const registry = new ChainRegistry(configs());
    const client = registry.client(42161);
    expect(client.transport.type).toBe('webSocket');
    expect(await client.getChainId()).toBe(8453); // the same anvil behind both URLs
    await registry.close();
  });

  it('batched(): the reads a client starts together go to the node as one JSON-RPC batch', async () => {
    // A pass-through in front of the node that counts the HTTP requests and the calls in them.
    const seen: number[] = [];
    const proxy = createServer((req, res) => {
      void (async () => {
        const body = Buffer.concat((await req.toArray()) as Buffer[]);
        const parsed = JSON.parse(body.toString()) as unknown;
        seen.push(Array.isArray(parsed) ? parsed.length : 1);
        const answer = await fetch(anvil.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        res.setHeader('content-type', 'application/json').end(await answer.text());
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const rpcUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const registry = new ChainRegistry([{ ...configs()[0], rpcUrl }]);
      const owners = ['0x01', '0x02', '0x03'].map((n) => `0x${n.slice(2).padStart(40, '0')}` as const);
      const readAll = (r: ChainRegistry) =>
        Promise.all(owners.map((owner) => readNativeBalance(r.client(8453), { owner })));

      expect(await readAll(registry)).toEqual([0n, 0n, 0n]);
      expect(seen.splice(0)).toEqual([1, 1, 1]);
      const batched = registry.batched();
      expect(batched.batched()).toBe(batched);
      expect(registry.batched()).toBe(batched);
      expect(batched.client(8453)).not.toBe(registry.client(8453));
      expect(await readAll(batched)).toEqual([0n, 0n, 0n]);
      expect(seen.splice(0)).toEqual([3]);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('fails fast with ChainRpcError when the node is down', async () => {
    const registry = new ChainRegistry(configs(), { timeoutMs: 500, retryCount: 1 });
    const started = Date.now();
    const failure = await readNativeBalance(registry.client(10), {
      owner: '0x0000000000000000000000000000000000000001',
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ChainRpcError);
    expect(failure).toMatchObject({ name: 'ChainRpcError', chainId: 10 });
    expect((failure as Error).message).toMatch(
      /^chain 10: eth_getBalance\(0x0+1\) failed: HTTP request failed/,
    );
    expect((failure as Error).message).not.toContain(String(deadPort));
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
