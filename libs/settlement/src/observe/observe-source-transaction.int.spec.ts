import { encodeFunctionData, type Address, type Hash, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { encodeExecuteData } from 'viem/experimental/erc7821';
import {
  ANVIL_ACCOUNTS,
  MayanForwarderArtifact,
  TestTokenArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  type AnvilClient,
  type AnvilInstance,
  BatchExecutorArtifact,
} from '@svc/testing';
import { observeSourceTransaction } from './observe-source-transaction';
import type { PreparedCall } from './match-prepared-calls';

import { WrongChainClientError } from './wrong-chain-client-error';

const chainId = 8453;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const wallet = privateKeyToAccount(ANVIL_ACCOUNTS[1].privateKey);
const stranger = privateKeyToAccount(ANVIL_ACCOUNTS[2].privateKey);
const smartWallet = privateKeyToAccount(ANVIL_ACCOUNTS[3].privateKey);
const spender: Address = '0x000000000000000000000000000000000000a11c';
const bridge: Address = '0x000000000000000000000000000000000000bEEF';
const unknownHash: Hash = `0x${'ab'.repeat(32)}`;

interface Call {
  to: Address;
  data: Hex;
  value: bigint;
}

describe('observeSourceTransaction', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let token: Address;
  let otherToken: Address;
  let executor: Address;
  let approve: Call;
  let deposit: Call;
  let pullWithoutAllowance: Call;
  let preparedCalls: PreparedCall[];

  const send = async (account: PrivateKeyAccount, call: Call, gas?: bigint): Promise<Hash> => {
    const hash = await client.sendTransaction({ account, ...call, gas });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  };
  const observeOnce = (txHash: Hash, from: Address = wallet.address) =>
    observeSourceTransaction(client, { chainId, txHash, wallet: from, preparedCalls });
  /**
   * A mined transaction's observation. `pending` means "look again", as the tracker does: under load, a batch read
   * `pending` (the transaction without its block, or no receipt) right after waitForTransactionReceipt had returned
   * its receipt (full run of 2026-11-29 15:16), so a few looks are allowed before the answer counts.
   */
  const observe = async (txHash: Hash, from: Address = wallet.address) => {
    for (let look = 0; look < 30; look++) {
      const seen = await observeOnce(txHash, from);
      if (seen.outcome !== 'pending') return seen;
      await new Promise((r) => setTimeout(r, 100));
    }
    return observeOnce(txHash, from);
  };
  const executeBatch = (calls: Call[]): Hex =>
    encodeFunctionData({
      abi: BatchExecutorArtifact.abi,
      functionName: 'executeBatch',
      args: [calls.map(({ to, value, data }) => ({ target: to, value, data }))],
    });

  beforeAll(async () => {
    anvil = await startAnvil({ chainId });
    client = createAnvilClient(anvil);
    const usdc = { artifact: TestTokenArtifact, account: deployer, args: ['USD Coin', 'USDC', 6] };
    [token, otherToken] = [await deployArtifact(client, usdc), await deployArtifact(client, usdc)];
    const forwarder = await deployArtifact(client, { artifact: MayanForwarderArtifact, account: deployer });
    executor = await deployArtifact(client, { artifact: BatchExecutorArtifact, account: deployer });

    approve = {
      to: token,
      value: 0n,
      data: encodeFunctionData({
        abi: TestTokenArtifact.abi,
        functionName: 'approve',
        args: [spender, 1000n],
      }),
    };
    deposit = {
      to: forwarder,
      value: 10n ** 15n,
      data: encodeFunctionData({
        abi: MayanForwarderArtifact.abi,
        functionName: 'forwardEth',
        args: [bridge, '0x'],
      }),
    };
    // Nobody approved the caller: transferFrom reverts.
    pullWithoutAllowance = {
      to: token,
      value: 0n,
      data: encodeFunctionData({
        abi: TestTokenArtifact.abi,
        functionName: 'transferFrom',
        args: [stranger.address, spender, 5n],
      }),
    };
    preparedCalls = [approve, deposit, pullWithoutAllowance].map((call, i) => ({
      callId: `chain:${chainId}:call:${i}`,
      to: call.to,
      data: call.data,
      value: call.value.toString(),
    }));
  });
  afterAll(() => anvil?.stop());

  describe('a plain transaction', () => {
    it('an ERC-20 approve equal to a prepared call is confirmed with its callId, block, block time and logs', async () => {
      const hash = await send(wallet, approve);
      const { blockNumber, logs } = await client.getTransactionReceipt({ hash });
      const { timestamp } = await client.getBlock({ blockNumber });
      expect(await observe(hash)).toEqual({
        outcome: 'confirmed',
        callIds: ['chain:8453:call:0'],
        blockNumber,
        minedAt: Number(timestamp) * 1000,
        logs,
        // The calls as run, which another attempt's prepared calls may equal too (ADR 0009).
        executed: [{ to: approve.to.toLowerCase(), value: approve.value, data: approve.data }],
      });
    });

    it('a call with native value equal to a prepared call is confirmed', async () => {
      const hash = await send(wallet, deposit);
      expect(await observe(hash)).toMatchObject({ outcome: 'confirmed', callIds: ['chain:8453:call:1'] });
    });

    it('compares the wallet, addresses and calldata case-insensitively', async () => {
      const hash = await send(wallet, approve);
      const shouted = preparedCalls.map((call) => ({
        ...call,
        to: call.to.toLowerCase(),
        data: call.data.toUpperCase(),
      }));
      const lowerWallet = wallet.address.toLowerCase() as Address;
      expect(
        await observeSourceTransaction(client, {
          chainId,
          txHash: hash,
          wallet: lowerWallet,
          preparedCalls: shouted,
        }),
      ).toMatchObject({ outcome: 'confirmed', callIds: ['chain:8453:call:0'] });
    });

    it('a different calldata, value or target matches no prepared call', async () => {
      const otherAmount = encodeFunctionData({
        abi: TestTokenArtifact.abi,
        functionName: 'approve',
        args: [spender, 1001n],
      });
      const hashes = [
        await send(wallet, { ...approve, data: otherAmount }),
        await send(wallet, { ...deposit, value: deposit.value + 1n }),
        await send(wallet, { ...approve, to: otherToken }),
      ];
      for (const hash of hashes) {
        expect(await observe(hash)).toEqual({ outcome: 'mismatched', reason: 'matches no prepared call' });
      }
    });

    it('the same calldata sent by another account is mismatched', async () => {
      const hash = await send(stranger, approve);
      expect(await observe(hash)).toEqual({ outcome: 'mismatched', reason: 'sent by another account' });
    });

    it('a prepared call that reverted is reverted', async () => {
      const hash = await send(wallet, pullWithoutAllowance, 100_000n);
      expect(await client.getTransactionReceipt({ hash })).toMatchObject({ status: 'reverted' });
      expect(await observe(hash)).toMatchObject({ outcome: 'reverted', callIds: ['chain:8453:call:2'] });
    });

    it('a reverted transaction that matches no prepared call is still mismatched', async () => {
      const hash = await send(wallet, { ...pullWithoutAllowance, to: otherToken }, 100_000n);
      expect(await observe(hash)).toEqual({ outcome: 'mismatched', reason: 'matches no prepared call' });
    });

    it('an unknown hash is unknown', async () => {
      expect(await observe(unknownHash)).toEqual({ outcome: 'unknown' });
    });

    it('a transaction not mined yet is pending, then confirmed', async () => {
      await client.setAutomine(false);
      try {
        const hash = await client.sendTransaction({ account: wallet, ...approve });
        expect(await observeOnce(hash)).toEqual({ outcome: 'pending' });
        await client.mine({ blocks: 1 });
        expect(await observe(hash)).toMatchObject({ outcome: 'confirmed', callIds: ['chain:8453:call:0'] });
      } finally {
        await client.setAutomine(true);
      }
    });

    it('refuses a client connected to another chain', async () => {
      await expect(
        observeSourceTransaction(client, {
          chainId: 1,
          txHash: unknownHash,
          wallet: wallet.address,
          preparedCalls,
        }),
      ).rejects.toThrow(WrongChainClientError);
    });
  });

  describe('an EIP-7702 account executing a batch on itself', () => {
    const selfCall = (data: Hex): Call => ({ to: smartWallet.address, value: 0n, data });

    beforeAll(async () => {
      // Delegates and executes in one transaction, as wallets do on their first batch.
      const authorization = await client.signAuthorization({
        account: smartWallet,
        contractAddress: executor,
        executor: 'self',
      });
      const hash = await client.sendTransaction({
        account: smartWallet,
        authorizationList: [authorization],
        ...selfCall(executeBatch([approve, deposit])),
      });
      await client.waitForTransactionReceipt({ hash });
      expect(await observe(hash, smartWallet.address)).toMatchObject({
        outcome: 'confirmed',
        callIds: ['chain:8453:call:0', 'chain:8453:call:1'],
      });
    });

    it('executeBatch of prepared calls is confirmed with their callIds in order', async () => {
      const hash = await send(smartWallet, selfCall(executeBatch([deposit, approve])));
      const seen = await observe(hash, smartWallet.address);
      expect(seen).toMatchObject({
        outcome: 'confirmed',
        callIds: ['chain:8453:call:1', 'chain:8453:call:0'],
      });
      // The batch's calls as run, not the self-call that carried them.
      expect(seen.outcome === 'confirmed' && seen.executed.map((c) => c.to?.toLowerCase())).toEqual(
        [deposit.to, approve.to].map((a) => a.toLowerCase()),
      );
    });

    it('ERC-7821 execute of prepared calls is confirmed', async () => {
      const hash = await send(smartWallet, selfCall(encodeExecuteData({ calls: [deposit] })));
      expect(await observe(hash, smartWallet.address)).toMatchObject({
        outcome: 'confirmed',
        callIds: ['chain:8453:call:1'],
      });
    });

    it('a batch with a call that was not prepared is mismatched', async () => {
      const extra = { ...deposit, to: bridge, data: '0x' as Hex };
      const hash = await send(smartWallet, selfCall(executeBatch([approve, extra])));
      expect(await observe(hash, smartWallet.address)).toEqual({
        outcome: 'mismatched',
        reason: 'batched calls match no prepared calls',
      });
    });

    it('a batch of prepared calls that reverted is reverted', async () => {
      const hash = await send(smartWallet, selfCall(executeBatch([approve, pullWithoutAllowance])), 200_000n);
      expect(await observe(hash, smartWallet.address)).toMatchObject({
        outcome: 'reverted',
        callIds: ['chain:8453:call:0', 'chain:8453:call:2'],
      });
    });

    it('a batch in an execution mode that is not understood is mismatched', async () => {
      const tryMode = `0x0101${'0'.repeat(60)}` as const;
      const data = encodeFunctionData({
        abi: BatchExecutorArtifact.abi,
        functionName: 'execute',
        args: [tryMode, '0x'],
      });
      const hash = await send(smartWallet, selfCall(data), 100_000n);
      expect(await observe(hash, smartWallet.address)).toEqual({
        outcome: 'mismatched',
        reason: expect.stringMatching(
          /^batched execution not understood: .*does not revert on a failed call/,
        ),
      });
    });

    it('the account can still send prepared calls as plain transactions', async () => {
      const hash = await send(smartWallet, approve);
      expect(await observe(hash, smartWallet.address)).toMatchObject({
        outcome: 'confirmed',
        callIds: ['chain:8453:call:0'],
      });
    });

    it('batch calldata sent to a plain EOA executes nothing and is mismatched', async () => {
      const hash = await send(wallet, { to: wallet.address, value: 0n, data: executeBatch([approve]) });
      expect(await observe(hash)).toEqual({ outcome: 'mismatched', reason: 'matches no prepared call' });
    });
  });
});
