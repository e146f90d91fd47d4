import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  http,
  parseUnits,
  zeroHash,
  type Address,
  type Hash,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  ANVIL_ACCOUNTS,
  MayanForwarderArtifact,
  TestTokenArtifact,
  TetherTokenArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  type AnvilClient,
  type AnvilInstance,
} from '@svc/testing';
import { ChainRpcError } from '../errors/chain-rpc-error';
import { Erc20CallError } from '../errors/erc20-call-error';
import { TransactionNotMinedError } from '../errors/transaction-not-mined-error';
import { readErc20Allowance } from './read-erc20-allowance';
import { readErc20Balance } from './read-erc20-balance';
import { readErc20Metadata } from './read-erc20-metadata';
import { readErc20Transfers } from './read-erc20-transfers';

const owner = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const spender = ANVIL_ACCOUNTS[1].address;
const stranger = '0x000000000000000000000000000000000000bEEF';

describe('ERC-20 reads', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let usdc: Address;
  let usdt: Address;
  let forwarder: Address;

  const send = async (hash: Promise<Hash>) => {
    const receipt = await client.waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe('success');
    return receipt;
  };
  const approve = (token: Address, amount: bigint) =>
    send(
      client.writeContract({
        account: owner,
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [spender, amount],
      }),
    );

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 42161 });
    client = createAnvilClient(anvil);
    usdc = await deployArtifact(client, {
      artifact: TestTokenArtifact,
      account: owner,
      args: ['USD Coin', 'USDC', 6],
    });
    usdt = await deployArtifact(client, { artifact: TetherTokenArtifact, account: owner });
    forwarder = await deployArtifact(client, { artifact: MayanForwarderArtifact, account: owner });
    await send(
      client.writeContract({
        account: owner,
        address: usdc,
        abi: TestTokenArtifact.abi,
        functionName: 'mint',
        args: [owner.address, parseUnits('1000', 6)],
      }),
    );
  });
  afterAll(() => anvil?.stop());

  it('readErc20Metadata reads name, symbol and decimals', async () => {
    expect(await readErc20Metadata(client, { token: usdc })).toEqual({
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
    });
    expect(await readErc20Metadata(client, { token: usdt })).toEqual({
      name: 'Tether USD',
      symbol: 'USDT',
      decimals: 6,
    });
  });

  it('readErc20Balance reads balances, now and at an earlier block', async () => {
    expect(await readErc20Balance(client, { token: usdc, owner: owner.address })).toBe(parseUnits('1000', 6));
    expect(await readErc20Balance(client, { token: usdc, owner: stranger })).toBe(0n);
    expect(await readErc20Balance(client, { token: usdc, owner: owner.address, blockNumber: 1n })).toBe(0n);
  });

  it('readErc20Allowance follows approve', async () => {
    expect(await readErc20Allowance(client, { token: usdc, owner: owner.address, spender })).toBe(0n);
    await approve(usdc, 123n);
    expect(await readErc20Allowance(client, { token: usdc, owner: owner.address, spender })).toBe(123n);
    await approve(usdc, 456n); // a plain ERC-20 lets a non-zero allowance change directly
    expect(await readErc20Allowance(client, { token: usdc, owner: owner.address, spender })).toBe(456n);
  });

  it('USDT refuses non-zero → non-zero approvals; → 0 then → n works', async () => {
    await approve(usdt, 100n);
    await expect(
      client.simulateContract({
        account: owner,
        address: usdt,
        abi: erc20Abi,
        functionName: 'approve',
        args: [spender, 200n],
      }),
    ).rejects.toThrow(/reverted/);
    await approve(usdt, 0n);
    await approve(usdt, 200n);
    expect(await readErc20Allowance(client, { token: usdt, owner: owner.address, spender })).toBe(200n);
  });

  it('throws Erc20CallError for an address without code or a contract that is not an ERC-20', async () => {
    const noCode = await readErc20Metadata(client, { token: stranger }).catch((e: unknown) => e);
    expect(noCode).toBeInstanceOf(Erc20CallError);
    expect(noCode).toMatchObject({ name: 'Erc20CallError', token: stranger, chainId: 42161 });
    const notToken = await readErc20Balance(client, { token: forwarder, owner: owner.address }).catch(
      (e: unknown) => e,
    );
    expect(notToken).toMatchObject({ name: 'Erc20CallError', functionName: 'balanceOf' });
  });

  it('throws ChainRpcError, not Erc20CallError, when the node is unreachable', async () => {
    const down = await startAnvil({ chainId: 1 });
    const downClient = createPublicClient({ transport: http(down.rpcUrl, { retryCount: 0 }) });
    await down.stop();
    const failure = await readErc20Allowance(downClient, {
      token: usdc,
      owner: owner.address,
      spender,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ChainRpcError);
  });

  describe('readErc20Transfers', () => {
    // The forwarder pulls USDC from the owner (Transfer + Approval), then calls USDT.mint for the stranger:
    // one transaction, two tokens, two recipients.
    let hash: Hash;
    beforeAll(async () => {
      await send(
        client.writeContract({
          account: owner,
          address: usdc,
          abi: erc20Abi,
          functionName: 'approve',
          args: [forwarder, 5n],
        }),
      );
      const mint = encodeFunctionData({
        abi: TetherTokenArtifact.abi,
        functionName: 'mint',
        args: [stranger, 7n],
      });
      const noPermit = { value: 0n, deadline: 0n, v: 0, r: zeroHash, s: zeroHash };
      const receipt = await send(
        client.writeContract({
          account: owner,
          address: forwarder,
          abi: MayanForwarderArtifact.abi,
          functionName: 'forwardERC20',
          args: [usdc, 5n, noPermit, usdt, mint],
        }),
      );
      hash = receipt.transactionHash;
    });

    it('decodes every Transfer log of the transaction, in order', async () => {
      // The approval to the protocol (log 1) is not a transfer.
      expect(await readErc20Transfers(client, { hash })).toEqual([
        { token: usdc, from: owner.address, to: forwarder, value: 5n, logIndex: 0 },
        {
          token: usdt,
          from: '0x0000000000000000000000000000000000000000',
          to: stranger,
          value: 7n,
          logIndex: 2,
        },
      ]);
    });

    it('filters by token, recipient and sender (addresses in any case)', async () => {
      expect(await readErc20Transfers(client, { hash, token: usdt })).toMatchObject([
        { token: usdt, value: 7n },
      ]);
      expect(
        await readErc20Transfers(client, { hash, to: forwarder.toLowerCase() as Address }),
      ).toMatchObject([{ token: usdc, value: 5n }]);
      expect(await readErc20Transfers(client, { hash, token: usdc, to: stranger })).toEqual([]);
      expect(await readErc20Transfers(client, { hash, from: owner.address })).toHaveLength(1);
    });

    it('throws TransactionNotMinedError for an unknown hash', async () => {
      await expect(readErc20Transfers(client, { hash: `0x${'12'.repeat(32)}` })).rejects.toThrow(
        TransactionNotMinedError,
      );
    });
  });
});
