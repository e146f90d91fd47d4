import { spawnSync } from 'node:child_process';
import { createPublicClient, formatUnits, http, type Address } from 'viem';
import { readAccountKind, readErc20Balance, readErc20Metadata, readNativeBalance } from '@svc/chains';
import { findFreePort } from '@svc/testing';
import { AcrossSpokePoolArtifact } from '../contracts/artifacts';
import { SANDBOX_ADDRESSES } from './sandbox-addresses';
import { SANDBOX_CHAIN_IDS, startSandboxChains, type SandboxChains } from './start-sandbox-chains';

function anvilChildren(): string[] {
  const out = spawnSync('pgrep', ['-P', String(process.pid), 'anvil'], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter(Boolean).sort();
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    return (await fetch(rpcUrl, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' }))
      .ok;
  } catch {
    return false;
  }
}

describe('startSandboxChains', () => {
  let sandbox: SandboxChains;
  let pinnedPort: number;
  let startedInMs: number;

  beforeAll(async () => {
    pinnedPort = await findFreePort();
    const t0 = Date.now();
    sandbox = await startSandboxChains({ ports: { 8453: pinnedPort } });
    startedInMs = Date.now() - t0;
  });
  afterAll(() => sandbox?.stop());

  const clientOf = (chainId: number) =>
    createPublicClient({ transport: http(sandbox.chains.find((c) => c.chainId === chainId)!.rpcUrl) });

  it('runs ethereum, base and arbitrum, fast, with a pinned port where asked', async () => {
    expect(
      sandbox.chains.map(({ chainId, name, nativeSymbol }) => ({ chainId, name, nativeSymbol })),
    ).toEqual([
      { chainId: 1, name: 'ethereum', nativeSymbol: 'ETH' },
      { chainId: 8453, name: 'base', nativeSymbol: 'ETH' },
      { chainId: 42161, name: 'arbitrum', nativeSymbol: 'ETH' },
    ]);
    expect(sandbox.chains[1].rpcUrl).toBe(`http://127.0.0.1:${pinnedPort}`);
    for (const chainId of SANDBOX_CHAIN_IDS) expect(await clientOf(chainId).getChainId()).toBe(chainId);
    expect(startedInMs).toBeLessThan(5000);
  });

  it('deploys every contract at the same deterministic address on every chain', async () => {
    expect(SANDBOX_ADDRESSES).toEqual({
      usdc: '0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35',
      usdt: '0xA15BB66138824a1c7167f5E85b957d04Dd34E468',
      weth: '0xb19b36b1456E65E3A6D514D3F715f204BD59f431',
      relayDepository: '0x8ce361602B935680E8DeC218b820ff5056BeB7af',
      acrossSpokePool: '0xe1Aa25618fA0c7A1CFDab5d6B456af611873b629',
      mayanSwift: '0xe1DA8919f262Ee86f9BE05059C9280142CF23f48',
      mayanForwarder: '0x0C8E79F3534B00D9a3D4a856B665Bf4eBC22f2ba',
      mayanSwiftV2: '0xeD1DB453C3156Ff3155a97AD217b3087D5Dc5f6E',
      mayanSwapRouter: '0xf7Cd8fa9b94DB2Aa972023b379c7f72c65E4De9D',
      // Deployed after the nine above (issue 24 item 6, the CCTP route), so none of theirs moved.
      cctpMessageTransmitter: '0x12975173B87F7595EE45dFFb2Ab812ECE596Bf84',
      cctpTokenMessenger: '0x82Dc47734901ee7d4f4232f398752cB9Dd5dACcC',
      multicall3: '0x196dBCBb54b8ec4958c959D8949EBFE87aC2Aaaf',
    });
    for (const chainId of SANDBOX_CHAIN_IDS) {
      const client = clientOf(chainId);
      for (const address of Object.values(SANDBOX_ADDRESSES)) {
        expect(await readAccountKind(client, { address })).toEqual({ kind: 'contract' });
      }
      expect(
        await client.readContract({
          address: SANDBOX_ADDRESSES.acrossSpokePool,
          abi: AcrossSpokePoolArtifact.abi,
          functionName: 'wrappedNativeToken',
        }),
      ).toBe(SANDBOX_ADDRESSES.weth);
    }
    expect(sandbox.contracts).toEqual(
      SANDBOX_CHAIN_IDS.map((chainId) => ({
        chainId,
        relayDepository: SANDBOX_ADDRESSES.relayDepository,
        acrossSpokePool: SANDBOX_ADDRESSES.acrossSpokePool,
        mayanForwarder: SANDBOX_ADDRESSES.mayanForwarder,
        mayanSwift: SANDBOX_ADDRESSES.mayanSwift,
        mayanSwiftV2: SANDBOX_ADDRESSES.mayanSwiftV2,
        mayanSwapRouter: SANDBOX_ADDRESSES.mayanSwapRouter,
        cctpMessageTransmitter: SANDBOX_ADDRESSES.cctpMessageTransmitter,
        cctpTokenMessenger: SANDBOX_ADDRESSES.cctpTokenMessenger,
        multicall3: SANDBOX_ADDRESSES.multicall3,
      })),
    );
  });

  it('lists USDC, USDT, WETH and native ETH per chain, matching the tokens on chain', async () => {
    expect(sandbox.tokens).toHaveLength(12);
    for (const token of sandbox.tokens) {
      if (token.symbol === 'ETH') {
        expect(token).toMatchObject({ address: '0x0000000000000000000000000000000000000000', decimals: 18 });
        continue;
      }
      const metadata = await readErc20Metadata(clientOf(token.chainId), { token: token.address });
      expect(metadata).toMatchObject({ symbol: token.symbol, decimals: token.decimals });
    }
    const names = sandbox.tokens.filter((t) => t.chainId === 1 && t.symbol !== 'ETH');
    expect(await Promise.all(names.map((t) => readErc20Metadata(clientOf(1), { token: t.address })))).toEqual(
      [
        { name: 'USD Coin', symbol: 'USDC', decimals: 6 },
        { name: 'Tether USD', symbol: 'USDT', decimals: 6 },
        { name: 'Wrapped Ether', symbol: 'WETH', decimals: 18 },
      ],
    );
  });

  it('funds users with 1,000,000 and fillers with 10,000,000 of each token, and ETH from anvil', async () => {
    const { users, fillers, deployer } = sandbox.accounts;
    expect(users).toHaveLength(6);
    const holdings = async (chainId: number, owner: Address) =>
      Promise.all(
        sandbox.tokens
          .filter((t) => t.chainId === chainId && t.symbol !== 'ETH')
          .map(async (t) =>
            formatUnits(await readErc20Balance(clientOf(chainId), { token: t.address, owner }), t.decimals),
          ),
      );
    for (const chainId of SANDBOX_CHAIN_IDS) {
      for (const user of users)
        expect(await holdings(chainId, user.address)).toEqual(['1000000', '1000000', '1000000']);
      for (const filler of Object.values(fillers)) {
        expect(await holdings(chainId, filler.address)).toEqual(['10000000', '10000000', '10000000']);
      }
      expect(await readNativeBalance(clientOf(chainId), { owner: users[0].address })).toBe(
        10_000n * 10n ** 18n,
      );
    }
    expect(deployer.address).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720');
    expect(fillers.mayan.address).toBe('0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f');
  });

  it('stop() ends every node', async () => {
    const other = await startSandboxChains();
    for (const chain of other.chains) expect(await answers(chain.rpcUrl)).toBe(true);
    await other.stop();
    for (const chain of other.chains) expect(await answers(chain.rpcUrl)).toBe(false);
  });

  it('stops the nodes it started when a pinned port is taken', async () => {
    const before = anvilChildren();
    expect(before).toHaveLength(3);
    const failure = await startSandboxChains({ ports: { 1: pinnedPort } }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: 'AnvilStartError', portInUse: true });
    expect(anvilChildren()).toEqual(before);
  });
});
