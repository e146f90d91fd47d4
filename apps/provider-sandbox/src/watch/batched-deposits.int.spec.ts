import { formatUnits, parseEventLogs, type Address } from 'viem';
import { BatchExecutorArtifact } from '@svc/testing';
import { AcrossSpokePoolArtifact, MayanSwiftArtifact } from '../contracts/artifacts';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { SANDBOX_MAYAN_API_KEY } from '../mayan/mayan-explorer-key';
import { quoteDeposit } from '../testing/provider-deposit';
import {
  balanceOf,
  freshAddress,
  httpJson,
  TEST_SANDBOX_OPTIONS,
  tokenAddress,
  userOn,
  waitUntil,
  withScenario,
} from '../testing/sandbox-test-kit';

let sandbox: RunningSandbox;
let wallet: ReturnType<typeof userOn>;
let executor: Address;

/**
 * A wallet that batches two legs of one provider into one EIP-7702 `executeBatch` transaction, as our service's
 * prepare does with `wallet_sendCalls`: every deposit of the transaction must be indexed, settled and found.
 */
beforeAll(async () => {
  sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
  wallet = userOn(sandbox, 4, 1);
  const deployer = userOn(sandbox, 5, 1);
  const hash = await deployer.wallet.deployContract({
    abi: BatchExecutorArtifact.abi,
    bytecode: BatchExecutorArtifact.bytecode,
  });
  executor = (await deployer.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
});
afterAll(() => sandbox?.stop());

const usdc = (chainId: number, owner: Address) =>
  balanceOf(sandbox, chainId, tokenAddress(sandbox, chainId, 'USDC'), owner);

function legs(provider: 'across' | 'mayan', amounts: bigint[]) {
  return Promise.all(
    amounts.map(async (amount) => {
      const recipient = freshAddress();
      const deposit = await quoteDeposit(sandbox, provider, {
        user: wallet.address,
        recipient,
        fromChainId: 1,
        toChainId: 8453,
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount,
      });
      return { recipient, amount, deposit };
    }),
  );
}

describe('several deposits in one batched transaction', () => {
  it('across: both deposits are filled in one multicall, and `index` picks each with the indexer pagination', async () => {
    const [a, b] = await legs('across', [30_000_000n, 20_000_000n]);
    // Both quotes ask for the same max approval; the batch sends it once.
    const tx = await wallet.sendBatch(executor, [
      ...a.deposit.calls,
      b.deposit.calls[b.deposit.calls.length - 1],
    ]);
    const status = (query = '') =>
      httpJson(`${sandbox.url}/across/deposit/status?depositTxnRef=${tx}${query}`);
    const first = await waitUntil(status, (r) => r.body?.status === 'filled');
    const second = await waitUntil(
      () => status('&index=1'),
      (r) => r.body?.status === 'filled',
    );
    expect(first.body).toMatchObject({ depositTxnRef: tx, pagination: { currentIndex: 0, maxIndex: 1 } });
    expect(second.body).toMatchObject({
      depositTxnRef: tx,
      depositId: first.body.depositId + 1,
      pagination: { currentIndex: 1, maxIndex: 1 },
    });
    // Indexed together, so filled together: one SpokePool.multicall of two fillRelay calls, as the relayer does (S13).
    expect(second.body.fillTxnRef).toBe(first.body.fillTxnRef);
    const fill = await userOn(sandbox, 4, 8453).publicClient.getTransactionReceipt({
      hash: first.body.fillTxnRef,
    });
    const records = parseEventLogs({
      abi: AcrossSpokePoolArtifact.abi,
      logs: fill.logs,
      eventName: 'FilledRelay',
    });
    expect(records.map((r) => r.args.depositId)).toEqual([
      BigInt(first.body.depositId),
      BigInt(second.body.depositId),
    ]);
    expect((await status('&index=0')).body).toEqual(first.body);
    expect(await usdc(8453, a.recipient)).toBe(a.deposit.expectedOutput);
    expect(await usdc(8453, b.recipient)).toBe(b.deposit.expectedOutput);

    const record = await httpJson(`${sandbox.url}/across/deposit?depositTxnRef=${tx}&index=1`);
    expect(record.body).toMatchObject({
      deposit: {
        recipient: b.recipient,
        inputAmount: '20000000',
        outputAmount: b.deposit.expectedOutput.toString(),
        fillTxnRef: second.body.fillTxnRef,
      },
      pagination: { currentIndex: 1, maxIndex: 1 },
    });
    const byId = await httpJson(
      `${sandbox.url}/across/deposit/status?originChainId=1&depositId=${second.body.depositId}`,
    );
    expect(byId.body).toMatchObject({
      fillTxnRef: second.body.fillTxnRef,
      pagination: { currentIndex: 0, maxIndex: 0 },
    });

    // across-protocol/indexer: 400 past the last deposit of the transaction, 400 for a malformed index.
    expect(await status('&index=2')).toMatchObject({
      status: 400,
      body: {
        error: 'IndexParamOutOfRangeException',
        message: 'Index 2 out of range. Index must be between 0 and 1',
      },
    });
    expect(await status('&index=-1')).toMatchObject({ status: 400, body: { error: 'ValidationError' } });
  });

  it('mayan: each order key finds its own swap, and the transaction hash the first', async () => {
    const before = await usdc(1, wallet.address);
    const [a, b] = await legs('mayan', [30_000_000n, withScenario(20_000_000n, 'refund')]);
    const tx = await wallet.sendBatch(executor, [...a.deposit.calls, ...b.deposit.calls]);
    const receipt = await wallet.publicClient.getTransactionReceipt({ hash: tx });
    const [keyA, keyB] = parseEventLogs({
      abi: MayanSwiftArtifact.abi,
      eventName: 'OrderCreated',
      logs: receipt.logs,
    }).map((l) => l.args.key);
    // Mayan's own order lookup (driver-sdk src/watchers/mayan-explorer.ts), with the sandbox's explorer key.
    const key = `apiKey=${SANDBOX_MAYAN_API_KEY}`;
    const explorer = (hash: string) =>
      httpJson(
        hash.length === 66 && hash !== tx
          ? `${sandbox.url}/mayan-explorer/swap/order-id/SWIFT_${hash}?${key}`
          : `${sandbox.url}/mayan-explorer/swap/trx/${hash}?${key}`,
      );
    const swapA = await waitUntil(
      () => explorer(keyA),
      (r) => r.body?.clientStatus === 'COMPLETED',
    );
    const swapB = await waitUntil(
      () => explorer(keyB),
      (r) => r.body?.clientStatus === 'REFUNDED',
    );
    expect(swapA.body).toMatchObject({
      orderHash: keyA,
      sourceTxHash: tx,
      destAddress: a.recipient,
      toAmount: formatUnits(a.deposit.expectedOutput, 6),
    });
    expect(swapB.body).toMatchObject({
      orderHash: keyB,
      sourceTxHash: tx,
      destAddress: b.recipient,
      fromAmount64: b.amount.toString(),
      refundAmount: formatUnits(b.amount, 6),
    });
    expect((await explorer(tx)).body).toEqual(swapA.body);
    expect(await usdc(8453, a.recipient)).toBe(a.deposit.expectedOutput);
    expect(await usdc(8453, b.recipient)).toBe(0n);
    expect(await usdc(1, wallet.address)).toBe(before - a.amount);
  });
});
