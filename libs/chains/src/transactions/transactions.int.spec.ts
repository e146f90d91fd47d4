import { createPublicClient, http, parseEther, type Address, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  ANVIL_ACCOUNTS,
  MayanForwarderArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  startTraceRefusingProxy,
  type AnvilClient,
  type AnvilInstance,
} from '@svc/testing';
import { TraceUnavailableError } from '../errors/trace-unavailable-error';
import { TransactionNotMinedError } from '../errors/transaction-not-mined-error';
import { readNativeValueReceived } from './read-native-value-received';
import { readReceipt } from './read-receipt';
import { readTransaction } from './read-transaction';

const sender = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const recipient = '0x000000000000000000000000000000000000bEEF';
const unknownHash: Hash = `0x${'12'.repeat(32)}`;

describe('transaction reads', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let forwarder: Address;
  let direct: Hash;
  let viaContract: Hash;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
    client = createAnvilClient(anvil);
    forwarder = await deployArtifact(client, { artifact: MayanForwarderArtifact, account: sender });
    direct = await client.sendTransaction({ account: sender, to: recipient, value: parseEther('1') });
    // The forwarder passes its msg.value on to "the protocol": here a plain address, so an internal transfer.
    viaContract = await client.writeContract({
      account: sender,
      address: forwarder,
      abi: MayanForwarderArtifact.abi,
      functionName: 'forwardEth',
      args: [recipient, '0x'],
      value: parseEther('0.3'),
    });
    await client.waitForTransactionReceipt({ hash: viaContract });
  });
  afterAll(() => anvil?.stop());

  it('readTransaction returns the transaction, or null for an unknown hash', async () => {
    expect(await readTransaction(client, { hash: direct })).toMatchObject({
      hash: direct,
      from: sender.address.toLowerCase(),
      to: recipient.toLowerCase(),
      value: parseEther('1'),
    });
    expect(await readTransaction(client, { hash: unknownHash })).toBeNull();
  });

  it('readReceipt returns the receipt, or null for an unknown hash', async () => {
    expect(await readReceipt(client, { hash: direct })).toMatchObject({
      transactionHash: direct,
      status: 'success',
    });
    expect(await readReceipt(client, { hash: unknownHash })).toBeNull();
  });

  it('a pending transaction has no receipt yet', async () => {
    await client.setAutomine(false);
    try {
      const hash = await client.sendTransaction({ account: sender, to: recipient, value: 1n });
      expect(await readTransaction(client, { hash })).toMatchObject({ hash, blockNumber: null });
      expect(await readReceipt(client, { hash })).toBeNull();
      await expect(readNativeValueReceived(client, { hash, recipient })).rejects.toThrow(
        TransactionNotMinedError,
      );
      await client.mine({ blocks: 1 });
      expect(await readReceipt(client, { hash })).toMatchObject({ status: 'success' });
    } finally {
      await client.setAutomine(true);
    }
  });

  describe('readNativeValueReceived', () => {
    it('counts the top-level value sent to the recipient', async () => {
      expect(await readNativeValueReceived(client, { hash: direct, recipient })).toBe(parseEther('1'));
      expect(await readNativeValueReceived(client, { hash: direct, recipient: forwarder })).toBe(0n);
    });

    it('counts value a contract sends on during execution (traced)', async () => {
      expect(await readNativeValueReceived(client, { hash: viaContract, recipient })).toBe(parseEther('0.3'));
      // The forwarder got it too, at the top level, and passed it on: the sum is gross.
      expect(await readNativeValueReceived(client, { hash: viaContract, recipient: forwarder })).toBe(
        parseEther('0.3'),
      );
    });

    it('a reverted transaction delivered nothing', async () => {
      // forwardEth to a contract that rejects the call (the forwarder itself has no fallback) reverts.
      const hash = await client.writeContract({
        account: sender,
        address: forwarder,
        abi: MayanForwarderArtifact.abi,
        functionName: 'forwardEth',
        args: [forwarder, '0x'],
        value: 5n,
        gas: 100_000n,
      });
      // Automine mines after the send returns, not before: under load the receipt can lag the hash.
      await client.waitForTransactionReceipt({ hash });
      expect(await readReceipt(client, { hash })).toMatchObject({ status: 'reverted' });
      expect(await readNativeValueReceived(client, { hash, recipient: forwarder })).toBe(0n);
    });

    it('throws TransactionNotMinedError for an unknown hash', async () => {
      await expect(readNativeValueReceived(client, { hash: unknownHash, recipient })).rejects.toMatchObject({
        name: 'TransactionNotMinedError',
        chainId: 8453,
      });
    });

    it('without tracing, falls back to the top-level value, or refuses when a trace is required', async () => {
      const proxy = await startTraceRefusingProxy(anvil.rpcUrl);
      try {
        const untraced = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) });
        expect(await readNativeValueReceived(untraced, { hash: direct, recipient })).toBe(parseEther('1'));
        expect(await readNativeValueReceived(untraced, { hash: viaContract, recipient })).toBe(0n);
        await expect(
          readNativeValueReceived(untraced, { hash: viaContract, recipient, requireTrace: true }),
        ).rejects.toThrow(TraceUnavailableError);
      } finally {
        proxy.server.close();
      }
    });
  });
});
