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
