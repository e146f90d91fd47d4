import { createAnvilClient, GasPriceOracleArtifact } from '@svc/testing';
import { createWalletClient, defineChain, http, parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { httpJson } from '../testing/sandbox-test-kit';
import { sandboxFeeModel } from './sandbox-fee-models';

/** The Ecotone L1 price per L1 gas unit, times 16 × 10^6 (GasPriceOracle's integer scale). */
const model8453 = sandboxFeeModel(8453)!.l1DataFee!;
const scaledL1Price =
  16n * model8453.baseFeeScalar * model8453.l1BaseFee + model8453.blobBaseFeeScalar * model8453.blobBaseFee;
const l1GasWorth = (gas: bigint) => (gas * scaledL1Price) / 16_000_000n;

/**
 * viem's OP-stack `estimateL1Fee`, loaded at run time: `viem/op-stack`'s types pull ox's TypeScript sources (DOM-typed
 * WebAuthn) into the repo's type check, which has no DOM library.
 */
async function estimateL1Fee(): Promise<(client: unknown, args: Record<string, unknown>) => Promise<bigint>> {
  const specifier = 'viem/op-stack';
  const opStack = (await import(specifier)) as {
    estimateL1Fee: (client: unknown, args: Record<string, unknown>) => Promise<bigint>;
  };
  return opStack.estimateL1Fee;
}

describe('sandbox fees (docs/sandbox.md "Fees")', () => {
  let sandbox: RunningSandbox;
  const rpc = (chainId: number) => sandbox.chains.chains.find((c) => c.chainId === chainId)!;
  const user = (i: number) => privateKeyToAccount(sandbox.chains.accounts.users[i].privateKey);
  /** A wallet client of the sandbox user `i` on `chainId`, through the chain's fee RPC. */
  const walletOf = (i: number, chainId: number) =>
    createWalletClient({
      account: user(i),
      chain: defineChain({
        id: chainId,
        name: `chain ${chainId}`,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpc(chainId).rpcUrl] } },
      }),
      transport: http(rpc(chainId).rpcUrl),
    });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, manifestDir: null, log: () => undefined });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('holds each chain base fee in its band over 60 transactions (20 a chain), and fee history, gas price and blocks agree', async () => {
    for (const chainId of [1, 8453, 42161]) {
      const client = createAnvilClient(rpc(chainId));
      const { baseFee } = sandboxFeeModel(chainId)!;
      const from = user(1);
      const start = await client.getBlockNumber({ cacheTime: 0 });
      for (let i = 0; i < 20; i++) {
        const hash = await client.sendTransaction({ account: from, to: user(2).address, value: 1n });
        await client.waitForTransactionReceipt({ hash });
      }
      const end = await client.getBlockNumber({ cacheTime: 0 });
      const history = await client.getFeeHistory({
        blockCount: Number(end - start),
        blockNumber: end,
        rewardPercentiles: [50],
      });
      // A transaction's block has the keeper's fee (the chain's RPC waits for it); an empty block the keeper missed
      // is anvil's, 12.5% lower, and the walk keeps clear of the floor by two such steps.
      const floor = baseFee.min;
      for (const fee of history.baseFeePerGas) {
        expect(fee).toBeGreaterThanOrEqual(floor);
        expect(fee).toBeLessThanOrEqual(baseFee.max);
      }
      const block = await client.getBlock({ blockNumber: end });
      expect(block.baseFeePerGas).toBe(history.baseFeePerGas[history.baseFeePerGas.length - 2]);
      const tip = await client.estimateMaxPriorityFeePerGas();
      expect(tip).toBe(sandboxFeeModel(chainId)!.tip);
      // The transactions paid that tip: fee history's median reward of their blocks.
      expect(history.reward!.flat()).toContain(tip);
      const gasPrice = await client.getGasPrice();
      expect(gasPrice).toBeGreaterThanOrEqual(floor);
      expect(gasPrice).toBeLessThanOrEqual(baseFee.max + tip);
    }
  });

  it('charges a chain-1 transaction gasUsed × (base fee + tip), as its receipt says', async () => {
    const client = createAnvilClient(rpc(1));
    const from = user(3);
    const { tip } = sandboxFeeModel(1)!;
    const before = await client.getBalance({ address: from.address });
    const hash = await client.sendTransaction({ account: from, to: user(4).address, value: 1000n });
    const receipt = await client.waitForTransactionReceipt({ hash });
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    expect(receipt.effectiveGasPrice).toBe(block.baseFeePerGas! + tip);
    const after = await client.getBalance({ address: from.address, blockNumber: receipt.blockNumber });
    expect(before - after).toBe(1000n + receipt.gasUsed * (block.baseFeePerGas! + tip));
  });

  it('mines a transaction priced a few blocks ago, whose fee cap the walk has since passed, at its cap (a node would hold it; anvil would refuse it)', async () => {
    const client = createAnvilClient(rpc(1));
    const from = user(4);
    // anvil also mines on its own interval, and the keeper walks on from such a block: when one comes between the
    // read of the latest block and the send, the fee may have fallen below the cap by then (the CI run of stop 33 saw
    // 2.88 gwei against a 3.07 gwei cap), and the case under test did not arise. It is tried again then.
    let exact = 0;
    for (let attempt = 0; attempt < 5 && exact === 0; attempt++) {
      const latest = await client.getBlock({ blockTag: 'latest' });
      // 10% under the latest base fee: below anything the walk sets next (it falls at most 1/16 a block), in band.
      const cap = (latest.baseFeePerGas! * 9n) / 10n;
      expect(cap).toBeGreaterThanOrEqual(sandboxFeeModel(1)!.baseFee.min);
      const hash = await client.sendTransaction({
        account: from,
        to: user(2).address,
        value: 1n,
        maxFeePerGas: cap,
        maxPriorityFeePerGas: 0n,
      });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      const block = await client.getBlock({ blockNumber: receipt.blockNumber });
      expect(block.baseFeePerGas!).toBeLessThanOrEqual(cap);
      if (receipt.blockNumber === latest.number + 1n) {
        // No block in between: the walk's next fee was above the cap, and the keeper brought it down to the cap.
        expect(block.baseFeePerGas).toBe(cap);
        exact++;
      }
    }
    expect(exact).toBe(1);
  });

  it('on 8453 debits the L1 data fee of the signed bytes, credits the L1FeeVault, and viem estimates it', async () => {
    const client = createAnvilClient(rpc(8453));
    const from = user(5);
    const wallet = walletOf(5, 8453);
    const request = await wallet.prepareTransactionRequest({
      to: user(4).address,
      value: parseEther('0.01'),
      data: '0x1234567890abcdef00000000',
    });
    // Earlier tests' blocks charged first, so that the vault's change is this transaction's fee alone.
    await sandbox.l1FeesCharged(8453, await client.getBlockNumber({ cacheTime: 0 }));
    const before = await client.getBalance({ address: from.address });
    const vaultBefore = await client.getBalance({ address: model8453.vault });
    const hash = await wallet.sendTransaction(request);
    const receipt = await client.waitForTransactionReceipt({ hash });
    await sandbox.l1FeesCharged(8453, receipt.blockNumber);

    const charge = await httpJson(`${sandbox.url}/l1-fees/${hash}`);
    expect(charge.status).toBe(200);
    const l1Fee = BigInt(charge.body.l1Fee as string);
    expect(l1Fee).toBeGreaterThan(0n);

    const after = await client.getBalance({ address: from.address });
    expect(before - after).toBe(parseEther('0.01') + receipt.gasUsed * receipt.effectiveGasPrice + l1Fee);
    expect((await client.getBalance({ address: model8453.vault })) - vaultBefore).toBe(l1Fee);

    // The oracle's getL1Fee on the signed bytes counts the 68 bytes of padding it adds for a missing signature too.
    const raw: Hex = await client.request({
      method: 'eth_getRawTransactionByHash',
      params: [hash],
    } as never);
    const oracleOnSigned = await client.readContract({
      address: model8453.oracle,
      abi: GasPriceOracleArtifact.abi,
      functionName: 'getL1Fee',
      args: [raw],
    });
    expect(oracleOnSigned - l1GasWorth(68n * 16n) - l1Fee).toBeLessThanOrEqual(1n);
    expect(oracleOnSigned - l1GasWorth(68n * 16n) - l1Fee).toBeGreaterThanOrEqual(-1n);

    // viem serialises the unsigned transaction and asks getL1Fee, whose 68 bytes of padding (1088 L1 gas) stand for
    // the signature: 65 to 67 bytes (yParity, r, s; shorter when r or s has leading zeros), zero bytes at 4 gas. So
    // the estimate is never below the charge, and above it by 16 L1 gas plus 12 a zero byte and 16 a missing one.
    const estimate = await (
      await estimateL1Fee()
    )(wallet, {
      account: from,
      chain: wallet.chain,
      gasPriceOracleAddress: model8453.oracle,
      to: request.to,
      value: request.value,
      data: request.data,
      nonce: request.nonce,
      gas: request.gas,
      maxFeePerGas: request.maxFeePerGas,
      maxPriorityFeePerGas: request.maxPriorityFeePerGas,
    });
    expect(estimate).toBeGreaterThanOrEqual(l1Fee);
    expect(estimate - l1Fee).toBeLessThanOrEqual(l1GasWorth(128n));
  });

  it('on 8453 charges 24 transactions of one sender sent at once, each exactly once (no charge overwrites a send)', async () => {
    const client = createAnvilClient(rpc(8453));
    const from = user(0);
    await sandbox.l1FeesCharged(8453, await client.getBlockNumber({ cacheTime: 0 }));
    const before = await client.getBalance({ address: from.address });
    const nonce = await client.getTransactionCount({ address: from.address });
    const hashes = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        client.sendTransaction({ account: from, to: user(2).address, value: 1n, nonce: nonce + i }),
      ),
    );
    const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
    await sandbox.l1FeesCharged(
      8453,
      receipts.map((r) => r.blockNumber).reduce((a, b) => (a > b ? a : b)),
    );
    let paid = 0n;
    for (const [i, receipt] of receipts.entries()) {
      const charge = await httpJson(`${sandbox.url}/l1-fees/${hashes[i]}`);
      expect(charge.status).toBe(200);
      paid += 1n + receipt.gasUsed * receipt.effectiveGasPrice + BigInt(charge.body.l1Fee as string);
    }
    expect(before - (await client.getBalance({ address: from.address }))).toBe(paid);
  });

  it('with six senders in flight at once on 42161, mines every transaction at the fee the keeper set for its block (240 transactions)', async () => {
    // anvil --mixed-mining answers eth_sendRawTransaction before it mines: the keeper must not set the next block's fee
    // until the transaction is in its block (CI of stop 34: the settlement soak's funding left a transaction pending
    // for good, and the walk drifted below its band until wallets' caps were refused).
    const client = createAnvilClient(rpc(42161));
    const { baseFee } = sandboxFeeModel(42161)!;
    const hashes = (
      await Promise.all(
        [0, 1, 2, 3, 4, 5].map(async (i) => {
          const wallet = walletOf(i, 42161);
          const sent: Hex[] = [];
          for (let n = 0; n < 40; n++)
            sent.push(await wallet.sendTransaction({ to: user((i + 1) % 6).address, value: 1n }));
          return sent;
        }),
      )
    ).flat();
    const receipts = await Promise.all(
      hashes.map((hash) => client.waitForTransactionReceipt({ hash, timeout: 15_000 })),
    );
    const numbers = [...new Set(receipts.map((r) => r.blockNumber))].sort((a, b) => (a < b ? -1 : 1));
    const fees = new Map<bigint, bigint>();
    /** The lowest fee cap of a block's transactions: the keeper may bring the fee down to it (a wallet priced early). */
    const lowestCap = new Map<bigint, bigint>();
    for (const n of numbers) {
      const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
      fees.set(n, block.baseFeePerGas!);
      lowestCap.set(
        n,
        block.transactions.map((tx) => tx.maxFeePerGas!).reduce((a, b) => (a < b ? a : b)),
      );
    }
    let pairs = 0;
    for (const n of numbers) {
      expect(fees.get(n)!).toBeGreaterThanOrEqual(baseFee.min);
      expect(fees.get(n)!).toBeLessThanOrEqual(baseFee.max);
      const previous = fees.get(n - 1n);
      if (previous === undefined) continue;
      // Two blocks in a row holding these transactions, no empty block between: the second has the fee the keeper set
      // a walk step on from the first, at most 1/16 lower, or a transaction's fee cap the keeper came down to (its
      // wallet priced it from a block anvil's interval had dipped), never anvil's own 12.5% decay. (It may rise more
      // than a step: when anvil's interval block took the keeper's fee just before the first, the first has anvil's.)
      pairs++;
      if (fees.get(n)! < previous - previous / 16n) expect(fees.get(n)).toBe(lowestCap.get(n));
    }
    expect(pairs).toBeGreaterThan(80);
  });

  it('answers the GasPriceOracle getters on 8453 as Base does after Ecotone', async () => {
    const client = createAnvilClient(rpc(8453));
    const read = (
      functionName:
        | 'l1BaseFee'
        | 'blobBaseFee'
        | 'baseFeeScalar'
        | 'blobBaseFeeScalar'
        | 'decimals'
        | 'isEcotone'
        | 'isFjord',
    ) => client.readContract({ address: model8453.oracle, abi: GasPriceOracleArtifact.abi, functionName });
    expect(await read('l1BaseFee')).toBe(model8453.l1BaseFee);
    expect(await read('blobBaseFee')).toBe(model8453.blobBaseFee);
    expect(BigInt(await read('baseFeeScalar'))).toBe(2269n);
    expect(BigInt(await read('blobBaseFeeScalar'))).toBe(1_055_778n);
    expect(await read('decimals')).toBe(6n);
    expect(await read('isEcotone')).toBe(true);
    expect(await read('isFjord')).toBe(false);
  });

  it('lists each chain fee model in the manifest', () => {
    expect(sandbox.manifest.fees.map((f) => [f.chainId, f.l1DataFee?.oracle ?? null])).toEqual([
      [1, null],
      [8453, '0x420000000000000000000000000000000000000F'],
      [42161, null],
    ]);
  });
});
