import {
  createPublicClient,
  encodeFunctionData,
  http,
  parseEther,
  zeroAddress,
  type Address,
  type Hash,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  ANVIL_ACCOUNTS,
  TestTokenArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  startTraceRefusingProxy,
  type AnvilClient,
  type AnvilInstance,
  BatchExecutorArtifact,
} from '@svc/testing';
import { readSettledAmount } from './read-settled-amount';

const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
// The filler: an EIP-7702 account that pays several outputs in one transaction, as a solver's contract would.
const filler = privateKeyToAccount(ANVIL_ACCOUNTS[4].privateKey);
const recipient: Address = '0x000000000000000000000000000000000000bEEF';
const someoneElse: Address = '0x000000000000000000000000000000000000cafe';
const unknownHash: Hash = `0x${'cd'.repeat(32)}`;

describe('readSettledAmount', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let token: Address;
  let otherToken: Address;
  let erc20Fill: Hash;
  let nativeTransfer: Hash;
  let nativeFill: Hash;
  let relayDirectFill: Hash;
  let zeroValueCall: Hash;

  const transfer = (to: Address, amount: bigint) => ({
    target: token,
    value: 0n,
    data: encodeFunctionData({ abi: TestTokenArtifact.abi, functionName: 'transfer', args: [to, amount] }),
  });
  const pay = (to: Address, value: bigint) => ({ target: to, value, data: '0x' as const });
  const fill = async (calls: { target: Address; value: bigint; data: `0x${string}` }[], gas?: bigint) => {
    const hash = await client.sendTransaction({
      account: filler,
      to: filler.address,
      data: encodeFunctionData({
        abi: BatchExecutorArtifact.abi,
        functionName: 'executeBatch',
        args: [calls],
      }),
      gas,
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  };

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 42161 });
    client = createAnvilClient(anvil);
    const usdc = { artifact: TestTokenArtifact, account: deployer, args: ['USD Coin', 'USDC', 6] };
    [token, otherToken] = [await deployArtifact(client, usdc), await deployArtifact(client, usdc)];
    const executor = await deployArtifact(client, { artifact: BatchExecutorArtifact, account: deployer });
    const authorization = await client.signAuthorization({ account: filler, contractAddress: executor });
    await client.waitForTransactionReceipt({
      hash: await client.sendTransaction({
        account: deployer,
        authorizationList: [authorization],
        to: filler.address,
      }),
    });
    await client.waitForTransactionReceipt({
      hash: await client.writeContract({
        account: deployer,
        address: token,
        abi: TestTokenArtifact.abi,
        functionName: 'mint',
        args: [filler.address, 1_000_000n],
      }),
    });

    erc20Fill = await fill([transfer(recipient, 100n), transfer(someoneElse, 7n), transfer(recipient, 23n)]);
    nativeFill = await fill([pay(recipient, 2n), pay(someoneElse, 5n), pay(recipient, 3n)]);
    nativeTransfer = await client.sendTransaction({ account: filler, to: recipient, value: parseEther('1') });
    await client.waitForTransactionReceipt({ hash: nativeTransfer });
    // Relay's direct native fill: value sent to the recipient with the order id as calldata
    // (relayprotocol/relay-protocol-oracle src/services/attestation/vm/ethereum-vm/index.ts getSolverPaidAmount).
    relayDirectFill = await client.sendTransaction({
      account: filler,
      to: recipient,
      value: 777n,
      data: `0x${'ab'.repeat(32)}`,
    });
    await client.waitForTransactionReceipt({ hash: relayDirectFill });
    // A zero-value call with calldata to an account with code (the filler's own 7702 wallet): its code ran.
    zeroValueCall = await fill([pay(recipient, 9n)]);
  });
  afterAll(() => anvil?.stop());

  describe('an ERC-20 output', () => {
    it('is the sum of the token transfers to the recipient in the fill', async () => {
      expect(await readSettledAmount(client, { fillTxHash: erc20Fill, recipient, token })).toEqual({
        basis: 'exact',
        amount: 123n,
      });
      expect(
        await readSettledAmount(client, { fillTxHash: erc20Fill, recipient: someoneElse, token }),
      ).toEqual({
        basis: 'exact',
        amount: 7n,
      });
    });

    it('is exactly 0 when nothing of the token reached the recipient', async () => {
      expect(
        await readSettledAmount(client, { fillTxHash: erc20Fill, recipient: filler.address, token }),
      ).toEqual({ basis: 'exact', amount: 0n });
      expect(
        await readSettledAmount(client, { fillTxHash: erc20Fill, recipient, token: otherToken }),
      ).toEqual({
        basis: 'exact',
        amount: 0n,
      });
      expect(await readSettledAmount(client, { fillTxHash: nativeTransfer, recipient, token })).toEqual({
        basis: 'exact',
        amount: 0n,
      });
    });
  });

  describe('a native output', () => {
    it('is the value of a plain transfer to the recipient', async () => {
      expect(
        await readSettledAmount(client, { fillTxHash: nativeTransfer, recipient, token: zeroAddress }),
      ).toEqual({ basis: 'exact', amount: parseEther('1') });
    });

    it('sums the value contracts pay to the recipient during the fill (traced)', async () => {
      expect(
        await readSettledAmount(client, { fillTxHash: nativeFill, recipient, token: zeroAddress }),
      ).toEqual({
        basis: 'exact',
        amount: 5n,
      });
      expect(
        await readSettledAmount(client, { fillTxHash: erc20Fill, recipient, token: zeroAddress }),
      ).toEqual({
        basis: 'exact',
        amount: 0n,
      });
    });

    it("without tracing, reads Relay's direct native fill: value to the recipient, calldata the order id (N6)", async () => {
      const proxy = await startTraceRefusingProxy(anvil.rpcUrl);
      try {
        const untraced = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) });
        expect(
          await readSettledAmount(untraced, { fillTxHash: relayDirectFill, recipient, token: zeroAddress }),
        ).toEqual({ basis: 'exact', amount: 777n });
        // The same with a trace.
        expect(
          await readSettledAmount(client, { fillTxHash: relayDirectFill, recipient, token: zeroAddress }),
        ).toEqual({ basis: 'exact', amount: 777n });
        // Someone else is not paid by it.
        expect(
          await readSettledAmount(untraced, {
            fillTxHash: relayDirectFill,
            recipient: someoneElse,
            token: zeroAddress,
          }),
        ).toEqual({ basis: 'unreadable', reason: 'untraceable' });
      } finally {
        proxy.server.close();
      }
    });

    it('without tracing, reads a plain transfer but not value paid by a contract', async () => {
      const proxy = await startTraceRefusingProxy(anvil.rpcUrl);
      try {
        const untraced = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) });
        const native = { recipient, token: zeroAddress };
        expect(await readSettledAmount(untraced, { fillTxHash: nativeTransfer, ...native })).toEqual({
          basis: 'exact',
          amount: parseEther('1'),
        });
        expect(await readSettledAmount(untraced, { fillTxHash: nativeFill, ...native })).toEqual({
          basis: 'unreadable',
          reason: 'untraceable',
        });
        // A zero-value call to an account with code is no plain transfer: what its code paid is not in the receipt.
        expect(
          await readSettledAmount(untraced, {
            fillTxHash: zeroValueCall,
            recipient: filler.address,
            token: zeroAddress,
          }),
        ).toEqual({ basis: 'unreadable', reason: 'untraceable' });
        // Token transfers are in the logs: no trace needed.
        expect(await readSettledAmount(untraced, { fillTxHash: erc20Fill, recipient, token })).toEqual({
          basis: 'exact',
          amount: 123n,
        });
      } finally {
        proxy.server.close();
      }
    });
  });

  describe('a fill the chain cannot vouch for is unreadable', () => {
    it('an unknown hash', async () => {
      for (const output of [token, zeroAddress]) {
        expect(
          await readSettledAmount(client, { fillTxHash: unknownHash, recipient, token: output }),
        ).toEqual({
          basis: 'unreadable',
          reason: 'not_found',
        });
      }
    });

    it('a reverted fill', async () => {
      const hash = await fill([transfer(recipient, 10n), transfer(recipient, 10n ** 30n)], 200_000n);
      expect(await client.getTransactionReceipt({ hash })).toMatchObject({ status: 'reverted' });
      for (const output of [token, zeroAddress]) {
        expect(await readSettledAmount(client, { fillTxHash: hash, recipient, token: output })).toEqual({
          basis: 'unreadable',
          reason: 'reverted',
        });
      }
    });

    it('a fill not mined yet', async () => {
      await client.setAutomine(false);
      try {
        const hash = await client.sendTransaction({ account: filler, to: recipient, value: 1n });
        expect(await readSettledAmount(client, { fillTxHash: hash, recipient, token: zeroAddress })).toEqual({
          basis: 'unreadable',
          reason: 'not_mined',
        });
        await client.mine({ blocks: 1 });
        expect(await readSettledAmount(client, { fillTxHash: hash, recipient, token: zeroAddress })).toEqual({
          basis: 'exact',
          amount: 1n,
        });
      } finally {
        await client.setAutomine(true);
      }
    });
  });
});
