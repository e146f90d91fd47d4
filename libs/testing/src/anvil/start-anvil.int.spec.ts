import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type Server } from 'node:net';
import { formatEther } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { ANVIL_ACCOUNTS, ANVIL_MNEMONIC } from './anvil-accounts';
import { createAnvilClient } from './anvil-client';
import { findFreePort } from './find-free-port';
import { AnvilNotFoundError, resolveAnvilBinary } from './resolve-anvil-binary';
import { AnvilStartError, startAnvil, type AnvilInstance } from './start-anvil';

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return res.ok;
  } catch {
    return false;
  }
}

describe('startAnvil', () => {
  const started: AnvilInstance[] = [];
  afterAll(() => Promise.all(started.map((a) => a.stop())));

  it('starts a node with the chain id, the ten funded dev accounts and automine', async () => {
    const anvil = await startAnvil({ chainId: 8453 });
    started.push(anvil);
    const client = createAnvilClient(anvil);

    expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`);
    expect(await client.getChainId()).toBe(8453);
    expect(await client.getAddresses()).toEqual(ANVIL_ACCOUNTS.map((a) => a.address));
    const balances = await Promise.all(ANVIL_ACCOUNTS.map((a) => client.getBalance({ address: a.address })));
    expect(balances.map((b) => formatEther(b))).toEqual(ANVIL_ACCOUNTS.map(() => '10000'));
    expect(await client.getAutomine()).toBe(true);
  });

  it('runs several nodes side by side on different ports', async () => {
    const [a, b] = await Promise.all([startAnvil({ chainId: 1 }), startAnvil({ chainId: 42161 })]);
    started.push(a, b);
    expect(a.port).not.toBe(b.port);
    expect(await createAnvilClient(a).getChainId()).toBe(1);
    expect(await createAnvilClient(b).getChainId()).toBe(42161);
  });

  it('mines on an interval instead of per transaction when given a block time', async () => {
    const anvil = await startAnvil({ chainId: 10, blockTime: 1 });
    started.push(anvil);
    expect(await createAnvilClient(anvil).getAutomine()).toBe(false);
  });

  it('stop() ends the node, and a second stop() is harmless', async () => {
    const anvil = await startAnvil({ chainId: 31337 });
    expect(await answers(anvil.rpcUrl)).toBe(true);
    await anvil.stop();
    expect(await answers(anvil.rpcUrl)).toBe(false);
    await anvil.stop();
  });

  it('uses a given port, and says so when the port is taken', async () => {
    const port = await findFreePort();
    const anvil = await startAnvil({ chainId: 5, port });
    started.push(anvil);
    expect(anvil.port).toBe(port);

    const blocker: Server = createServer((socket) => socket.destroy());
    const busy = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)),
    );
    try {
      const failure = await startAnvil({ chainId: 5, port: busy }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(AnvilStartError);
      expect(failure).toMatchObject({ name: 'AnvilStartError', portInUse: true });
    } finally {
      blocker.close();
    }
  });

  it('reports a binary that cannot run', async () => {
    const notExecutable = path.join(mkdtempSync(path.join(tmpdir(), 'anvil-')), 'anvil');
    writeFileSync(notExecutable, 'not a program', { mode: 0o644 });
    const configured = process.env.ANVIL_BIN;
    process.env.ANVIL_BIN = notExecutable;
    try {
      await expect(startAnvil({ chainId: 1 })).rejects.toThrow(/cannot run .*EACCES/);
    } finally {
      if (configured === undefined) delete process.env.ANVIL_BIN;
      else process.env.ANVIL_BIN = configured;
    }
  });

  it('finds the binary, and explains when ANVIL_BIN points nowhere', () => {
    expect(resolveAnvilBinary()).toMatch(/anvil$/);
    expect(() => resolveAnvilBinary({ ANVIL_BIN: '/nonexistent/anvil' })).toThrow(AnvilNotFoundError);
  });
});

describe('ANVIL_ACCOUNTS', () => {
  it('are the keys of the default mnemonic', () => {
    for (const account of ANVIL_ACCOUNTS) {
      expect(privateKeyToAccount(account.privateKey).address).toBe(account.address);
    }
    expect(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 9 }).address).toBe(ANVIL_ACCOUNTS[9].address);
  });
});
